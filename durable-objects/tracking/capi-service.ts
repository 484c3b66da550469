/**
 * Sending conversions to Meta's Conversions API, after the answer: a conversion is stored
 * `pending`, then claimed, built, validated and sent in batches. Failures wait with backoff
 * while the event is young enough for Meta, then expire: the store's alarm picks them up.
 */
import { and, eq, inArray, lte, min, sql } from "drizzle-orm";
import type { SQLiteUpdateSetSource } from "drizzle-orm/sqlite-core";
import { orgBatch, type OrganizationDb } from "../db";
import { chunks } from "./daily-figures";
import { whatsappConnections } from "../../worker/db/global-schema";
import { conversions, trackingSessions } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import { connectedSender } from "../whatsapp/connection-service";
import { GraphError } from "../meta/errors";
import {
  MAX_EVENT_AGE_MS,
  MAX_EVENTS_PER_REQUEST,
  businessMessagingEvent,
  retryDelayMs,
  websiteEvent,
  type BuiltEvent,
} from "./capi-events";
import { pixelSender } from "./pixel-service";

type ConversionRow = typeof conversions.$inferSelect;

/** How long a claimed conversion is left alone by other senders before it counts as lost. */
const CLAIM_MS = 10 * 60 * 1000;

const DUE_STATUSES = ["pending", "failed"] as const;

/** Takes the organization's due conversions for this sender (one atomic statement). */
async function claimDue(db: OrganizationDb, organizationId: string, now: Date) {
  const due = db
    .select({ id: conversions.id })
    .from(conversions)
    .where(
      and(
        eq(conversions.organizationId, organizationId),
        inArray(conversions.capiStatus, DUE_STATUSES),
        lte(conversions.capiNextAttemptAt, now.toISOString()),
      ),
    )
    .orderBy(conversions.capiNextAttemptAt)
    .limit(MAX_EVENTS_PER_REQUEST);
  return db
    .update(conversions)
    .set({ capiNextAttemptAt: new Date(now.getTime() + CLAIM_MS).toISOString() })
    .where(inArray(conversions.id, due))
    .returning();
}

/**
 * Ids bound per statement: D1 binds at most 100 parameters, and a claim may hold up to
 * MAX_EVENTS_PER_REQUEST conversions (the update's own values take a few).
 */
const IDS_PER_STATEMENT = 80;

async function finish(
  db: OrganizationDb,
  ids: string[],
  values: SQLiteUpdateSetSource<typeof conversions>,
) {
  const [first, ...rest] = chunks(ids, IDS_PER_STATEMENT).map((some) =>
    db.update(conversions).set(values).where(inArray(conversions.id, some)),
  );
  if (first) await orgBatch(db, [first, ...rest]);
}

/** Where an organization's events go, with the token that may send them. */
async function destinations(deps: StoreDeps, organizationId: string) {
  const [pixel, whatsapp] = await Promise.all([
    pixelSender(deps),
    connectedSender(deps, organizationId),
  ]);
  return {
    testEventCode: pixel?.row.testEventCode ?? null,
    pixel: pixel && { id: pixel.row.pixelId, graph: pixel.graph },
    whatsapp: whatsapp && { row: whatsapp.connection, graph: whatsapp.graph },
  };
}

/** The WhatsApp Business Account's dataset id, asked of Meta once and kept. */
async function datasetId(
  { db, factsChanged }: StoreDeps,
  whatsapp: NonNullable<Awaited<ReturnType<typeof destinations>>["whatsapp"]>,
) {
  if (whatsapp.row.datasetId) return whatsapp.row.datasetId;
  const { id } = await whatsapp.graph.waDataset(whatsapp.row.businessAccountId);
  await db
    .update(whatsappConnections)
    .set({ datasetId: id })
    .where(eq(whatsappConnections.id, whatsapp.row.id));
  await factsChanged();
  return id;
}

/** When each session's fbclid was first seen, for `fbc`. */
async function clickTimes(db: OrganizationDb, organizationId: string, rows: ConversionRow[]) {
  const ids = [...new Set(rows.map((r) => r.trackingSessionId).filter((id) => id !== null))];
  const sessions = [];
  for (const some of chunks(ids, IDS_PER_STATEMENT)) {
    sessions.push(
      ...(await db
        .select({ id: trackingSessions.id, createdAt: trackingSessions.createdAt })
        .from(trackingSessions)
        .where(
          and(
            eq(trackingSessions.organizationId, organizationId),
            inArray(trackingSessions.id, some),
          ),
        )),
    );
  }
  return new Map(sessions.map((s) => [s.id, Date.parse(s.createdAt)]));
}

/**
 * The store's alarm retries a conversion, asked here for the retry's time. Should that fail, its
 * next day (its retention run, or the daily wake) finds the conversion due.
 */
async function retryOnStoreAlarm({ schedule }: StoreDeps, organizationId: string, retryAt: Date) {
  try {
    await schedule("capi", retryAt.getTime());
  } catch (error) {
    console.error("could not schedule the Conversions API retry", organizationId, error);
  }
}

/** Sends one batch and records Meta's answer on each conversion. */
async function sendBatch(
  deps: StoreDeps,
  organizationId: string,
  send: () => Promise<{ events_received: number; fbtrace_id?: string }>,
  batch: { row: ConversionRow; event: Record<string, unknown> }[],
  now: Date,
) {
  if (batch.length === 0) return;
  const db = deps.orgDb;
  const ids = batch.map((b) => b.row.id);
  const attempts = Math.max(...batch.map((b) => b.row.capiAttempts)) + 1;
  try {
    const answer = await send();
    await finish(db, ids, {
      capiStatus: "sent",
      capiAttempts: sql`${conversions.capiAttempts} + 1`,
      capiNextAttemptAt: null,
      capiResult: {
        events_received: answer.events_received,
        fbtrace_id: answer.fbtrace_id ?? null,
        sent_at: now.toISOString(),
      },
    });
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    const retryAt = new Date(now.getTime() + retryDelayMs(attempts));
    await finish(db, ids, {
      capiStatus: "failed",
      capiAttempts: sql`${conversions.capiAttempts} + 1`,
      capiNextAttemptAt: retryAt.toISOString(),
      capiResult: { error: error.message, code: error.code, failed_at: now.toISOString() },
    });
    await retryOnStoreAlarm(deps, organizationId, retryAt);
  }
}

/** Sends whatever the organization has due. Safe to run from several places at once. */
export async function sendDueConversions(
  deps: StoreDeps,
  organizationId: string,
  now = new Date(),
) {
  const { orgDb } = deps;
  const rows = await claimDue(orgDb, organizationId, now);
  if (rows.length === 0) return;

  const tooOld = rows.filter((r) => now.getTime() - Date.parse(r.eventTime) > MAX_EVENT_AGE_MS);
  await finish(
    orgDb,
    tooOld.map((r) => r.id),
    {
      capiStatus: "expired",
      capiNextAttemptAt: null,
      capiResult: { error: "Meta no acepta eventos de hace más de 7 días." },
    },
  );
  const young = rows.filter((r) => !tooOld.includes(r));
  const to = await destinations(deps, organizationId);
  const clicks = await clickTimes(orgDb, organizationId, young);

  const web: { row: ConversionRow; event: Record<string, unknown> }[] = [];
  const messaging: typeof web = [];
  const unsendable: { row: ConversionRow; problem: string }[] = [];
  for (const row of young) {
    let built: BuiltEvent;
    if (row.ctwaClid) {
      built = to.whatsapp
        ? businessMessagingEvent(row, to.whatsapp.row.businessAccountId)
        : { problem: "WhatsApp no está conectado: no hay a dónde enviar el evento." };
    } else {
      built = to.pixel
        ? await websiteEvent(
            row,
            row.trackingSessionId ? (clicks.get(row.trackingSessionId) ?? null) : null,
          )
        : { problem: "El Pixel de Meta no está conectado: no hay a dónde enviar el evento." };
    }
    if ("problem" in built) unsendable.push({ row, problem: built.problem });
    else (row.ctwaClid ? messaging : web).push({ row, event: built.event });
  }

  // Meta would refuse the whole request for one bad event: those are set aside, not retried.
  for (const { row, problem } of unsendable) {
    await finish(orgDb, [row.id], {
      capiStatus: "failed",
      capiNextAttemptAt: null,
      capiResult: { error: problem },
    });
  }
  const testCode = to.testEventCode;
  if (to.pixel && web.length > 0) {
    const { id, graph } = to.pixel;
    await sendBatch(
      deps,
      organizationId,
      () =>
        graph.sendEvents(
          id,
          web.map((w) => w.event),
          testCode,
        ),
      web,
      now,
    );
  }
  if (to.whatsapp && messaging.length > 0) {
    const whatsapp = to.whatsapp;
    await sendBatch(
      deps,
      organizationId,
      async () =>
        whatsapp.graph.sendEvents(
          await datasetId(deps, whatsapp),
          messaging.map((m) => m.event),
          testCode,
        ),
      messaging,
      now,
    );
  }
}

/** The conversions waiting for a retry in the store's data (`deps.orgDb`), sent (its alarm). */
export async function retryDueConversions(deps: StoreDeps, now = new Date()) {
  const due = await deps.orgDb
    .selectDistinct({ organizationId: conversions.organizationId })
    .from(conversions)
    .where(
      and(
        inArray(conversions.capiStatus, DUE_STATUSES),
        lte(conversions.capiNextAttemptAt, now.toISOString()),
      ),
    );
  for (const { organizationId } of due) await sendDueConversions(deps, organizationId, now);
  return due.length;
}

/**
 * When the next retry of the conversions in `orgDb` is due (ms since the epoch), or null: what
 * a store's alarm waits for after its run (its data is one organization's). A claim lost with
 * its sender counts too: its conversions are due again when the claim ends.
 */
export async function nextConversionAttempt(orgDb: OrganizationDb) {
  const [next] = await orgDb
    .select({ at: min(conversions.capiNextAttemptAt) })
    .from(conversions)
    .where(inArray(conversions.capiStatus, DUE_STATUSES));
  return next?.at ? Date.parse(next.at) : null;
}
