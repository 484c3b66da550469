import { eq } from "drizzle-orm";
import { recordAudit } from "../audit/service";
import { orgBatch, type Db } from "../db/client";
import {
  metaConnections,
  oauthExchanges,
  rateLimits,
  whatsappConnections,
} from "../db/global-schema";
import type { Member } from "../http/context";
import type { Deps, StoreDeps } from "../http/deps";
import { AppError, notFound } from "../http/errors";
import { tryHit, type Limit } from "../http/rate-limit";
import { tryReadWrite } from "../http/write-limits";
import { metaGraph } from "../meta/graph";
import { GraphError, metaFailure } from "../meta/errors";
import { daysBetween } from "./daily-figures";
import { tokenForCode } from "../whatsapp/oauth-service";
import { decryptSecret, encryptSecret } from "../meta/secrets";
import type { z } from "zod";
import type {
  MetaConfig,
  MetaTestResult,
  TestConversionResult,
  facebookConversionsInput,
} from "./meta-contract";

type MetaRow = typeof metaConnections.$inferSelect;
/** A statement on the organization's data that `orgBatch` runs with others. */
type OrganizationStatement = Parameters<typeof orgBatch>[1][number];

const toConfig = (row: MetaRow): MetaConfig => ({
  id: row.id,
  pixel_id: row.pixelId,
  ad_account_id: row.adAccountId,
  status: row.status,
  test_event_code: row.testEventCode,
  created_at: row.createdAt,
});

const pixelNotConnected = () =>
  notFound("El Pixel de Meta no está conectado en esta organización.");

function findPixel(db: Db, organizationId: string) {
  return db.query.metaConnections.findFirst({
    where: eq(metaConnections.organizationId, organizationId),
  });
}

/** The Graph client acting for an organization's pixel, or null when none is connected. */
export async function pixelSender(deps: Deps, organizationId: string) {
  const row = await findPixel(deps.db, organizationId);
  if (!row) return null;
  const token = await decryptSecret(row.accessTokenEncrypted, deps.env.ENCRYPTION_KEY);
  return { row, graph: metaGraph(deps.env, token) };
}

async function pixelGraph(deps: Deps, member: Member) {
  const sender = await pixelSender(deps, member.organizationId);
  if (!sender) throw pixelNotConnected();
  return sender;
}

async function store(
  deps: StoreDeps,
  member: Member,
  pixelId: string,
  token: string,
  adAccountId: string | null,
) {
  const now = new Date().toISOString();
  const values = {
    organizationId: member.organizationId,
    pixelId,
    adAccountId,
    accessTokenEncrypted: await encryptSecret(token, deps.env.ENCRYPTION_KEY),
    status: "connected" as const,
    updatedAt: now,
  };
  const [row] = await deps.db
    .insert(metaConnections)
    .values(values)
    .onConflictDoUpdate({ target: metaConnections.organizationId, set: values })
    .returning();
  await recordAudit(deps.orgDb, {
    action: "pixel.connect",
    organizationId: member.organizationId,
    userId: member.userId,
    target: pixelId,
    ip: member.ip,
  });
  return toConfig(row!);
}

export async function getMetaConfig({ db }: Deps, member: Member) {
  const row = await findPixel(db, member.organizationId);
  if (!row) throw pixelNotConnected();
  return toConfig(row);
}

/** Connects a pixel by hand: the token must reach it. */
export async function saveMetaConfig(
  deps: StoreDeps,
  member: Member,
  input: { pixel_id: string; access_token: string },
) {
  try {
    await metaGraph(deps.env, input.access_token).getPixel(input.pixel_id);
  } catch (error) {
    throw metaFailure(error);
  }
  return store(deps, member, input.pixel_id, input.access_token, null);
}

export async function updateMetaConfig(
  deps: StoreDeps,
  member: Member,
  input: { pixel_id?: string; access_token?: string },
) {
  const { row } = await pixelGraph(deps, member);
  const token =
    input.access_token ?? (await decryptSecret(row.accessTokenEncrypted, deps.env.ENCRYPTION_KEY));
  return saveMetaConfig(deps, member, {
    pixel_id: input.pixel_id ?? row.pixelId,
    access_token: token,
  });
}

export async function deleteMetaConfig({ db, orgDb }: StoreDeps, member: Member) {
  const deleted = await db
    .delete(metaConnections)
    .where(eq(metaConnections.organizationId, member.organizationId))
    .returning({ pixelId: metaConnections.pixelId });
  if (deleted.length === 0) throw pixelNotConnected();
  await recordAudit(orgDb, {
    action: "pixel.disconnect",
    organizationId: member.organizationId,
    userId: member.userId,
    target: deleted[0]!.pixelId,
    ip: member.ip,
  });
}

/**
 * Connect with the Facebook Login code (shared with the WhatsApp exchange): the first ad
 * account's first pixel. With a pixel id, the organization's existing Meta token is used.
 */
export async function connectPixel(
  deps: StoreDeps,
  member: Member,
  input: { code: string } | { pixel_id: string },
) {
  const token =
    "code" in input
      ? await tokenForCode(deps, member.organizationId, input.code)
      : await existingToken(deps, member);
  const graph = metaGraph(deps.env, token);
  try {
    if ("pixel_id" in input) {
      await graph.getPixel(input.pixel_id);
      return { pixel_id: (await store(deps, member, input.pixel_id, token, null)).pixel_id };
    }
    const accounts = await graph.listAdAccounts();
    for (const account of accounts.data) {
      const pixels = await graph.listPixels(account.id);
      const pixel = pixels.data[0];
      if (pixel)
        return { pixel_id: (await store(deps, member, pixel.id, token, account.id)).pixel_id };
    }
  } catch (error) {
    throw metaFailure(error);
  }
  throw new AppError(
    404,
    "no_pixel_found",
    "No se encontró ningún pixel en tus cuentas publicitarias de Meta.",
  );
}

/** The token of the organization's last Facebook Login (pixel or WhatsApp connection). */
async function existingToken(deps: Deps, member: Member) {
  const pixel = await findPixel(deps.db, member.organizationId);
  const whatsapp = await deps.db.query.whatsappConnections.findFirst({
    where: eq(whatsappConnections.organizationId, member.organizationId),
  });
  const sealed = pixel?.accessTokenEncrypted ?? whatsapp?.accessTokenEncrypted;
  if (!sealed) {
    const exchange = await deps.db.query.oauthExchanges.findFirst({
      where: eq(oauthExchanges.organizationId, member.organizationId),
    });
    if (!exchange?.accessTokenEncrypted) {
      throw new AppError(
        422,
        "no_token",
        "Conecta primero con Meta Business o indica un token de acceso.",
      );
    }
    return decryptSecret(exchange.accessTokenEncrypted, deps.env.ENCRYPTION_KEY);
  }
  return decryptSecret(sealed, deps.env.ENCRYPTION_KEY);
}

export async function testPixel(deps: Deps, member: Member): Promise<MetaTestResult> {
  const row = await findPixel(deps.db, member.organizationId);
  if (!row) return { success: false, error: "El Pixel de Meta no está conectado." };
  const { graph } = await pixelGraph(deps, member);
  try {
    const pixel = await graph.getPixel(row.pixelId);
    return { success: true, pixel_name: pixel.name ?? pixel.id };
  } catch (error) {
    if (error instanceof GraphError) return { success: false, error: error.message };
    throw error;
  }
}

export async function pixelInfo(deps: Deps, member: Member) {
  const { row, graph } = await pixelGraph(deps, member);
  try {
    return await graph.getPixel(row.pixelId);
  } catch (error) {
    throw metaFailure(error);
  }
}

export async function pixelStats(deps: Deps, member: Member) {
  const { row, graph } = await pixelGraph(deps, member);
  try {
    return await graph.getPixelStats(row.pixelId);
  } catch (error) {
    throw metaFailure(error);
  }
}

export async function adAccounts(deps: Deps, member: Member) {
  const { graph } = await pixelGraph(deps, member);
  try {
    return (await graph.listAdAccounts()).data;
  } catch (error) {
    throw metaFailure(error);
  }
}

/** A code for Meta's Test Events tab: conversions carry it until it is cleared. */
export async function generateTestCode({ db }: Deps, member: Member) {
  const row = await findPixel(db, member.organizationId);
  if (!row) throw pixelNotConnected();
  const code = `TEST${crypto.getRandomValues(new Uint32Array(1))[0]! % 100_000}`;
  await db
    .update(metaConnections)
    .set({ testEventCode: code })
    .where(eq(metaConnections.id, row.id));
  return { test_event_code: code };
}

/**
 * Sends one `Lead` with the organization's test event code (generated when missing), so the
 * business sees it arrive in Events Manager's Test Events tab without counting as a real lead.
 */
export async function sendTestConversion(
  deps: Deps,
  member: Member,
  visit: { userAgent: string | null; pageUrl: string },
): Promise<TestConversionResult> {
  const { row, graph } = await pixelGraph(deps, member);
  const testEventCode = row.testEventCode ?? (await generateTestCode(deps, member)).test_event_code;
  const event = {
    event_name: "Lead",
    event_time: Math.floor(Date.now() / 1000),
    event_id: crypto.randomUUID(),
    action_source: "website",
    event_source_url: visit.pageUrl,
    user_data: { client_user_agent: visit.userAgent ?? "Atiende (evento de prueba)" },
    custom_data: { currency: "EUR", value: 0 },
  };
  try {
    const answer = await graph.sendEvents(row.pixelId, [event], testEventCode);
    return {
      success: true,
      test_event_code: testEventCode,
      events_received: answer.events_received,
      fbtrace_id: answer.fbtrace_id ?? null,
    };
  } catch (error) {
    if (error instanceof GraphError)
      return { success: false, test_event_code: testEventCode, error: error.message };
    throw error;
  }
}

/**
 * `POST /tracking/facebook-conversions`: the caller's own events, to the pixel they name with
 * their own token; nothing of the member's organization is read.
 */
export async function forwardConversions(
  deps: Deps,
  _member: Member,
  input: z.output<typeof facebookConversionsInput>,
) {
  try {
    const graph = metaGraph(deps.env, input.access_token);
    const answer = await graph.sendEvents(input.pixel_id, input.events);
    return { events_received: answer.events_received, fbtrace_id: answer.fbtrace_id ?? null };
  } catch (error) {
    throw metaFailure(error);
  }
}

// ── Figures read from Meta and kept per day (ad spend, message costs) ──────────────────────

/** Meta calls an organization's views of figures may make per window (a page is one call). */
export const META_READS: Limit = { max: 30, windowSeconds: 600 };
/** A span whose read failed is not asked for again before this: Meta is not hammered. */
export const META_FAILURE_TTL_MS = 5 * 60_000;
/** Statements per batch when keeping figures (more only for a single day that needs it). */
const STATEMENTS_PER_BATCH = 50;
/** Days per batch: their read times are one upsert and their deletion one `IN` list. */
const DAYS_PER_BATCH = 30;

export const FAILED_LATELY =
  "Meta no pudo dar estas cifras hace un momento: se muestran las últimas guardadas y se volverá a consultar en unos minutos.";
export const READS_SPENT =
  "Se ha consultado Meta muchas veces en poco tiempo: se muestran las últimas cifras guardadas. Inténtalo en unos minutos.";
export const WRITES_SPENT =
  "La organización alcanzó su límite de escrituras por minuto: no se guardaron todas las cifras de Meta. Inténtalo en un minuto.";

/** A read that cannot be kept (more than the bounds allow): remembered like Meta's refusals. */
export class FiguresRefused extends Error {}
class ReadsSpent extends Error {}

/** Sends one Meta request of a read, counted first in the organization's window. */
export type MetaCall = <T>(request: () => Promise<T>) => Promise<T>;

/**
 * Reads a span of days' figures from Meta and keeps them, within what one organization may
 * ask of Meta and write: a span that failed lately is not asked again (META_FAILURE_TTL_MS),
 * every request counts in META_READS, and every batch kept is a write of the member (decision
 * 0043). Batches replace whole days (their rows and when they were read), so a day is kept
 * whole or not at all; days not kept are read again on a later view. Answers the Spanish
 * reason when fresh figures could not be kept: the view then shows what is kept beside it.
 */
export async function refreshFigures<Row extends { day: string }>(
  deps: StoreDeps,
  member: Member,
  figures: {
    name: "spend" | "costs";
    span: { since: string; until: string };
    now: number;
    read: (call: MetaCall) => Promise<Row[]>;
    rowsPerStatement: number;
    /** The statements that replace these days' rows and record when they were read. */
    replace: (days: string[], rows: Row[]) => OrganizationStatement[];
  },
): Promise<{ error?: string }> {
  const { db } = deps;
  const { span, now } = figures;
  const failureKey = `meta-failed:${figures.name}:${member.organizationId}:${span.since}:${span.until}`;
  const failed = await db.query.rateLimits.findFirst({ where: eq(rateLimits.key, failureKey) });
  if (failed && failed.resetAt > now) return { error: FAILED_LATELY };
  // Counted before Meta is asked, as a write is before its work: what could not be kept is not read.
  if (!(await tryReadWrite(db, member, now))) return { error: WRITES_SPENT };

  let rows: Row[];
  try {
    rows = await figures.read(async (request) => {
      const room = await tryHit(db, `meta-reads:org:${member.organizationId}`, META_READS, now);
      if (!room) throw new ReadsSpent();
      return request();
    });
  } catch (error) {
    if (error instanceof ReadsSpent) return { error: READS_SPENT };
    if (!(error instanceof GraphError) && !(error instanceof FiguresRefused)) throw error;
    if (error instanceof GraphError) console.warn("meta figures", error.providerMessage);
    const resetAt = now + META_FAILURE_TTL_MS;
    await db
      .insert(rateLimits)
      .values({ key: failureKey, count: 1, resetAt })
      .onConflictDoUpdate({ target: rateLimits.key, set: { count: 1, resetAt } });
    return { error: error.message };
  }

  const batches = dayBatches(daysBetween(span.since, span.until), rows, figures.rowsPerStatement);
  for (const [i, batch] of batches.entries()) {
    // The first was counted before Meta was asked.
    if (i > 0 && !(await tryReadWrite(db, member))) return { error: WRITES_SPENT };
    const [first, ...rest] = figures.replace(batch.days, batch.rows);
    await orgBatch(deps.orgDb, [first!, ...rest]);
  }
  return {};
}

/**
 * Groups the days (and their rows) so that each batch holds at most STATEMENTS_PER_BATCH
 * statements: the rows' inserts, the days' deletion and their read times. A day is never
 * split; one that needs more statements alone is a batch of its own (bounded by the reads:
 * pages of ads, categories × countries).
 */
function dayBatches<Row extends { day: string }>(
  days: string[],
  rows: Row[],
  rowsPerStatement: number,
) {
  const rowsOf = new Map<string, Row[]>();
  for (const row of rows) {
    const dayRows = rowsOf.get(row.day);
    if (dayRows) dayRows.push(row);
    else rowsOf.set(row.day, [row]);
  }
  const batches: { days: string[]; rows: Row[] }[] = [];
  for (const day of days) {
    const dayRows = rowsOf.get(day) ?? [];
    const last = batches.at(-1);
    const fits =
      last !== undefined &&
      last.days.length < DAYS_PER_BATCH &&
      Math.ceil((last.rows.length + dayRows.length) / rowsPerStatement) + 2 <= STATEMENTS_PER_BATCH;
    if (fits) {
      last.days.push(day);
      last.rows.push(...dayRows);
    } else {
      batches.push({ days: [day], rows: [...dayRows] });
    }
  }
  return batches;
}
