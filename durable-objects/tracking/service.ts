import { recordSale } from "../broadcasts/results";
import { endFollowUpWait } from "../follow-ups/waits";
import {
  and,
  count,
  desc,
  eq,
  getTableColumns,
  gte,
  isNotNull,
  lt,
  or,
  sql,
  type SQL,
} from "drizzle-orm";
import type { Db } from "../../worker/db/client";
import { orgBatch, type OrganizationDb } from "../db";
import { conversations, conversions, trackingSessions } from "../schema";
import type { Member, TrackingCaller } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError, forbidden, notFound } from "../../worker/http/errors";
import { takeHits } from "../../worker/http/rate-limit";
import { isSentToMeta } from "./capi-events";
import { sendDueConversions } from "./capi-service";
import type { z } from "zod/mini";
import {
  CUSTOM_DATA_LIMITS,
  PUBLIC_KEY_EVENTS,
  VALUE_KEYS,
  type Conversion,
  type ConversionPage,
  type PublicTrackingSession,
  type RecordedConversion,
  type TrackingParams,
  type TrackingSession,
  type TrackingStats,
  type conversionInput,
  type conversionsQuery,
  type dateRangeQuery,
  type trackingSessionInput,
} from "../../contracts/tracking";

type SessionRow = typeof trackingSessions.$inferSelect;
type ConversionRow = typeof conversions.$inferSelect;
type ConversionData = z.output<typeof conversionInput>;

const DAY_MS = 24 * 60 * 60 * 1000;
const DEFAULT_RANGE_DAYS = 30;

const toSession = (row: SessionRow): TrackingSession => ({
  id: row.id,
  tracking_params: row.trackingParams,
  user_agent: row.userAgent,
  referrer: row.referrer,
  landing_page: row.landingPage,
  phone_number: row.phoneNumber,
  ref_code: row.ref,
  created_at: row.createdAt,
});

export const toConversion = (row: ConversionRow): Conversion => ({
  id: row.id,
  event_name: row.eventName,
  event_id: row.eventId,
  phone_number: row.phoneNumber,
  tracking_params: row.trackingParams ?? null,
  conversion_value: row.conversionValue,
  currency: row.currency,
  custom_data: row.customData ?? null,
  event_time: row.eventTime,
  capi_status: row.capiStatus,
  capi_result: row.capiResult ?? null,
});

/** The session without the phone the visit was matched to (a customer's, once they write). */
export function toPublicSession(session: TrackingSession): PublicTrackingSession {
  const { phone_number: _phone, ...visible } = session;
  return visible;
}

/** Where a visit came from, for analytics: utm_source, else the click id's network. */
export function sourceOf(params: TrackingParams) {
  if (params.utm_source) return params.utm_source.toLowerCase();
  if (params.fbclid) return "facebook";
  if (params.gclid) return "google";
  return null;
}

/** A short code for the decorated WhatsApp link ("AT-" and 6 unambiguous characters). */
function refCode() {
  const alphabet = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
  const bytes = crypto.getRandomValues(new Uint8Array(6));
  return `AT-${[...bytes].map((b) => alphabet[b % alphabet.length]).join("")}`;
}

const sessionNotFound = () => notFound("Sesión de tracking no encontrada.");

async function findSession(db: OrganizationDb, organizationId: string, id: string) {
  const row = await db.query.trackingSessions.findFirst({
    where: and(eq(trackingSessions.id, id), eq(trackingSessions.organizationId, organizationId)),
  });
  if (!row) throw sessionNotFound();
  return row;
}

/** What the public key may add per organization and UTC day, of sessions and of conversions. */
export const PUBLIC_DAILY_QUOTA = 5000;

type QuotaKind = "sessions" | "conversions";

const QUOTA_WORDS: Record<QuotaKind, string> = { sessions: "visitas", conversions: "eventos" };

/** The counter of one organization's public additions of one kind on one UTC day. */
export const publicQuotaKey = (kind: QuotaKind, organizationId: string, day: string) =>
  `tracking-quota:${kind}:${organizationId}:${day}`;

/**
 * Counts one addition through the public key against the organization's daily quota, before
 * anything is stored; over it, 429 until the next UTC day. Members are never counted.
 */
async function takePublicQuota(db: Db, organizationId: string, kind: QuotaKind, now = Date.now()) {
  const day = new Date(now).toISOString().slice(0, 10);
  const nextDay = Date.parse(`${day}T00:00:00.000Z`) + DAY_MS;
  const limit = { max: PUBLIC_DAILY_QUOTA, windowSeconds: Math.ceil((nextDay - now) / 1000) };
  try {
    await takeHits(db, [{ key: publicQuotaKey(kind, organizationId, day), limit }], now);
  } catch (error) {
    if (!(error instanceof AppError) || error.status !== 429) throw error;
    throw new AppError(
      429,
      "rate_limited",
      `Tus páginas ya han registrado hoy el máximo de ${PUBLIC_DAILY_QUOTA} ${QUOTA_WORDS[kind]} con la clave pública. Podrán registrar más a partir de las 00:00 (UTC).`,
      undefined,
      error.headers,
    );
  }
}

/** `POST /tracking/sessions`: the body, and the address the visit came from. */
interface SessionRequest {
  session: z.output<typeof trackingSessionInput>;
  clientIp: string | null;
}

export async function createSession(
  { db, orgDb }: StoreDeps,
  caller: TrackingCaller,
  { session: input, clientIp }: SessionRequest,
) {
  const { organizationId } = caller;
  if (caller.publicKey) await takePublicQuota(db, organizationId, "sessions");
  const params = input.tracking_params;
  const [row] = await orgDb
    .insert(trackingSessions)
    .values({
      organizationId,
      trackingParams: params,
      fbclid: params.fbclid ?? null,
      utmSource: sourceOf(params),
      utmCampaign: params.utm_campaign ?? null,
      ref: refCode(),
      userAgent: input.user_agent ?? null,
      referrer: input.referrer ?? null,
      landingPage: input.landing_page ?? null,
      clientIp,
    })
    .returning();
  return toSession(row!);
}

export async function getSession(
  { orgDb }: StoreDeps,
  { organizationId }: TrackingCaller,
  { id }: { id: string },
) {
  return toSession(await findSession(orgDb, organizationId, id));
}

export async function associatePhone(
  { orgDb }: StoreDeps,
  { organizationId }: TrackingCaller,
  { id, phoneNumber }: { id: string; phoneNumber: string },
) {
  await findSession(orgDb, organizationId, id);
  const [row] = await orgDb
    .update(trackingSessions)
    .set({ phoneNumber, lastActivityAt: new Date().toISOString() })
    .where(and(eq(trackingSessions.id, id), eq(trackingSessions.organizationId, organizationId)))
    .returning();
  return toSession(row!);
}

/** What the request tells about the visitor (the session, when there is one, knows better). */
export interface Visit {
  ip: string | null;
  userAgent: string | null;
  pageUrl: string | null;
}

/** A conversion as `POST /tracking/conversions` receives it, with the visit behind the call. */
interface TrackedConversion {
  conversion: ConversionData;
  visit: Visit;
}

/**
 * Whether Meta has somewhere to receive the event: the number for a click-to-WhatsApp event, the
 * pixel for the others (from the facts the store keeps, decision 0136).
 */
async function metaDestinationExists(deps: StoreDeps, clickToWhatsapp: boolean) {
  const { connection, pixel } = await deps.facts();
  return (clickToWhatsapp ? connection : pixel) !== null;
}

/** A conversion's row before any attribution to an ad: the visit's session, parameters and phone. */
async function visitConversion(
  db: OrganizationDb,
  organizationId: string,
  input: ConversionData,
  visit: Visit,
  now: string,
) {
  const session = input.tracking_session_id
    ? await findSession(db, organizationId, input.tracking_session_id)
    : null;
  const params: TrackingParams = {
    ...(session?.trackingParams ?? {}),
    ...(input.tracking_params ?? {}),
  };
  return {
    session,
    values: {
      organizationId,
      trackingSessionId: session?.id ?? null,
      eventName: input.event_name,
      phoneNumber: input.phone_number ?? session?.phoneNumber ?? null,
      trackingParams: params,
      source: sourceOf(params),
      campaign: params.utm_campaign ?? null,
      conversionValue: input.conversion_value ?? null,
      currency: input.currency ?? null,
      customData: input.custom_data ?? null,
      clientIp: session?.clientIp ?? visit.ip,
      clientUserAgent: session?.userAgent ?? visit.userAgent,
      sourceUrl: session?.landingPage ?? visit.pageUrl,
      eventTime: now,
    },
  };
}

async function touchSession(db: OrganizationDb, sessionId: string, now: string) {
  await db
    .update(trackingSessions)
    .set({ lastActivityAt: now })
    .where(eq(trackingSessions.id, sessionId));
}

/**
 * Stores a conversion a member records and, when Meta should hear of it, marks it pending and
 * sends it after the answer. A phone from a click-to-WhatsApp conversation attributes it to
 * that ad click, and each (click, event) goes to Meta once.
 */
export async function recordConversion(
  deps: StoreDeps,
  { organizationId }: TrackingCaller,
  { conversion: input, visit }: TrackedConversion,
) {
  const { orgDb } = deps;
  const now = new Date().toISOString();
  const { session, values: visitValues } = await visitConversion(
    orgDb,
    organizationId,
    input,
    visit,
    now,
  );
  const phoneNumber = visitValues.phoneNumber;
  const adConversation = phoneNumber
    ? await orgDb.query.conversations.findFirst({
        where: and(
          eq(conversations.organizationId, organizationId),
          eq(conversations.phoneNumber, phoneNumber),
          isNotNull(conversations.ctwaClid),
        ),
        columns: { id: true, ctwaClid: true },
      })
    : undefined;
  const { row } = await storeConversion(deps, {
    ...visitValues,
    conversationId: adConversation?.id ?? null,
    ctwaClid: adConversation?.ctwaClid ?? null,
  });
  if (session) await touchSession(orgDb, session.id, now);
  return toConversion(row);
}

type ConversionValues = typeof conversions.$inferInsert & { eventTime: string };

/**
 * Stores a conversion once and, when Meta takes it and the organization has somewhere to send
 * it, marks it pending and sends it after the answer. With a `dedupeKey` already used, the
 * conversion stored under it is returned and nothing new is recorded (`created` false). Meta
 * does not deduplicate click-to-WhatsApp events: a second (click, event) is kept for analytics
 * only.
 */
async function storeConversion(deps: StoreDeps, values: ConversionValues) {
  const { orgDb } = deps;
  const byDedupeKey = () =>
    orgDb.query.conversions.findFirst({
      where: and(
        eq(conversions.organizationId, values.organizationId),
        eq(conversions.dedupeKey, values.dedupeKey!),
      ),
    });
  if (values.dedupeKey) {
    const existing = await byDedupeKey();
    if (existing) return { row: existing, created: false };
  }
  const channel = values.ctwaClid ? "business_messaging" : "website";
  const sendToMeta =
    isSentToMeta(values.eventName, channel) &&
    (await metaDestinationExists(deps, values.ctwaClid != null));
  const queued = {
    ...values,
    capiStatus: sendToMeta ? ("pending" as const) : ("not_sent" as const),
    capiNextAttemptAt: sendToMeta ? values.eventTime : null,
  };
  let [row] = await orgDb.insert(conversions).values(queued).onConflictDoNothing().returning();
  if (!row && values.dedupeKey) {
    const twin = await byDedupeKey(); // a twin request won the race
    if (twin) return { row: twin, created: false };
  }
  if (!row) {
    [row] = await orgDb
      .insert(conversions)
      .values({
        ...queued,
        ctwaClid: null,
        capiStatus: "not_sent",
        capiNextAttemptAt: null,
        capiResult: { error: "Este evento ya se envió a Meta para este clic del anuncio." },
      })
      .returning();
  }
  if (row!.capiStatus === "pending") deps.defer(sendDueConversions(deps, values.organizationId));
  return { row: row!, created: true };
}

/** What a conversion recorded from a conversation needs of it. */
export type ConversationOfConversion = Pick<
  typeof conversations.$inferSelect,
  "id" | "organizationId" | "phoneNumber" | "ctwaClid" | "trackingSessionId"
>;

/**
 * A lead or a sale recorded from a conversation (its stage, a sale, the AI's `mark_lead`, a
 * confirmed suggestion): tied to it, attributed to its ad click when it came from an ad (the
 * WABA's dataset), else to its landing-page visit (the pixel, with the visit's browser, page
 * and click id). Once per `dedupeKey`: `created` says whether this call recorded it.
 */
export async function recordConversationConversion(
  deps: StoreDeps,
  conversation: ConversationOfConversion,
  event: {
    eventName: "lead" | "purchase";
    dedupeKey: string;
    value?: number;
    currency?: string;
    customData?: Record<string, unknown>;
  },
) {
  const session = conversation.trackingSessionId
    ? await deps.orgDb.query.trackingSessions.findFirst({
        where: and(
          eq(trackingSessions.id, conversation.trackingSessionId),
          eq(trackingSessions.organizationId, conversation.organizationId),
        ),
      })
    : undefined;
  const params: TrackingParams = session?.trackingParams ?? {};
  const { row, created } = await storeConversion(deps, {
    organizationId: conversation.organizationId,
    conversationId: conversation.id,
    trackingSessionId: session?.id ?? null,
    ctwaClid: conversation.ctwaClid,
    eventName: event.eventName,
    phoneNumber: conversation.phoneNumber,
    trackingParams: params,
    source: conversation.ctwaClid ? "facebook" : sourceOf(params),
    campaign: params.utm_campaign ?? null,
    conversionValue: event.value ?? null,
    currency: event.currency ?? null,
    customData: event.customData ?? null,
    clientIp: session?.clientIp ?? null,
    clientUserAgent: session?.userAgent ?? null,
    sourceUrl: session?.landingPage ?? null,
    eventTime: new Date().toISOString(),
    dedupeKey: event.dedupeKey,
  });
  // A sale counts for the broadcasts that reached the conversation in the week before, and
  // ends the wait of its follow-ups.
  if (created && event.eventName === "purchase") {
    await recordSale(deps, conversation.organizationId, conversation.id);
    await endFollowUpWait(deps, conversation);
  }
  return { conversion: toConversion(row), created };
}

/** Why the public key alone may not record this conversion; null when it may. */
function publicKeyProblem(input: ConversionData) {
  if (!(PUBLIC_KEY_EVENTS as readonly string[]).includes(input.event_name)) {
    return `Con la clave pública de tracking solo se registran ${PUBLIC_KEY_EVENTS.join(", ")}. Los leads, contactos, mensajes enviados y compras se registran con una sesión iniciada en la consola.`;
  }
  const customKeys = Object.keys(input.custom_data ?? {});
  if (
    input.conversion_value !== undefined ||
    input.currency !== undefined ||
    VALUE_KEYS.some((key) => customKeys.includes(key))
  ) {
    return `Con la clave pública de tracking los eventos no llevan valor: quita conversion_value, currency y ${VALUE_KEYS.join(", ")} de custom_data.`;
  }
  return null;
}

/**
 * Stores a conversion a business's page records with the public key: a step of the visit, kept
 * for analytics only. It is never tied to a customer's conversation or ad click (the page's word
 * about a phone proves nothing), never sent to Meta, and the answer says nothing about the phone.
 */
export async function recordPageConversion(
  deps: StoreDeps,
  { organizationId }: TrackingCaller,
  { conversion: input, visit }: TrackedConversion,
): Promise<RecordedConversion> {
  const problem = publicKeyProblem(input);
  if (problem) throw forbidden(problem);
  await takePublicQuota(deps.db, organizationId, "conversions");
  const now = new Date().toISOString();
  const { orgDb } = deps;
  const { session, values } = await visitConversion(orgDb, organizationId, input, visit, now);
  const [row] = await orgDb
    .insert(conversions)
    .values(values)
    .returning({ id: conversions.id, eventName: conversions.eventName });
  if (session) await touchSession(orgDb, session.id, now);
  return { id: row!.id, event_name: row!.eventName };
}

/** [from, to) in UTC: date_to is inclusive of its whole day; default the last 30 days. */
export function dayRange(query: { date_from?: string; date_to?: string }, now = new Date()) {
  const today = now.toISOString().slice(0, 10);
  const to = query.date_to ?? today;
  const from =
    query.date_from ??
    new Date(Date.parse(`${to}T00:00:00.000Z`) - (DEFAULT_RANGE_DAYS - 1) * DAY_MS)
      .toISOString()
      .slice(0, 10);
  return {
    start: `${from}T00:00:00.000Z`,
    end: new Date(Date.parse(`${to}T00:00:00.000Z`) + DAY_MS).toISOString(),
  };
}

/**
 * custom_data as listed: rows stored before custom_data was bounded may hold up to the 1 MiB
 * body; those list without it so that a page of 200 stays small in the Worker's memory.
 */
const listedCustomData =
  sql`CASE WHEN length(${conversions.customData}) <= ${CUSTOM_DATA_LIMITS.bytes} THEN ${conversions.customData} END`.mapWith(
    conversions.customData,
  );

/** One page of the organization's conversions in the range, newest first. */
export async function listConversions(
  { orgDb }: StoreDeps,
  { organizationId }: Member,
  query: z.output<typeof conversionsQuery>,
): Promise<ConversionPage> {
  const { start, end } = dayRange(query);
  const inOrganization = eq(conversions.organizationId, organizationId);
  const filters: SQL[] = [
    inOrganization,
    gte(conversions.eventTime, start),
    lt(conversions.eventTime, end),
  ];
  if (query.event_name) filters.push(eq(conversions.eventName, query.event_name));
  if (query.before) {
    // The anchor must be this organization's: another's id is simply not found.
    const anchor = await orgDb.query.conversions.findFirst({
      where: and(eq(conversions.id, query.before), inOrganization),
      columns: { id: true, eventTime: true },
    });
    if (!anchor) throw notFound("Conversión no encontrada.");
    filters.push(
      or(
        lt(conversions.eventTime, anchor.eventTime),
        and(eq(conversions.eventTime, anchor.eventTime), lt(conversions.id, anchor.id)),
      )!,
    );
  }
  const rows = await orgDb
    .select({ ...getTableColumns(conversions), customData: listedCustomData })
    .from(conversions)
    .where(and(...filters))
    .orderBy(desc(conversions.eventTime), desc(conversions.id))
    .limit(query.limit + 1);
  return {
    conversions: rows.slice(0, query.limit).map(toConversion),
    has_more: rows.length > query.limit,
  };
}

/**
 * Sessions, conversions, value, and the share of sessions that converted, in SQL over
 * indexed columns. A range without sessions has a rate of 0.
 */
export async function trackingStats(
  { orgDb }: StoreDeps,
  { organizationId }: Member,
  query: z.output<typeof dateRangeQuery>,
): Promise<TrackingStats> {
  const { start, end } = dayRange(query);
  const sessionsInRange = and(
    eq(trackingSessions.organizationId, organizationId),
    gte(trackingSessions.createdAt, start),
    lt(trackingSessions.createdAt, end),
  );
  const conversionsInRange = and(
    eq(conversions.organizationId, organizationId),
    gte(conversions.eventTime, start),
    lt(conversions.eventTime, end),
  );
  const [[sessions], [totals], bySource, byCampaign, byDay] = await orgBatch(orgDb, [
    orgDb.select({ n: count() }).from(trackingSessions).where(sessionsInRange),
    orgDb
      .select({
        n: count(),
        value: sql<number>`coalesce(sum(${conversions.conversionValue}), 0)`,
        converted: sql<number>`count(DISTINCT ${conversions.trackingSessionId})`,
      })
      .from(conversions)
      .where(conversionsInRange),
    orgDb
      .select({ key: sql<string>`coalesce(${conversions.source}, 'directo')`, n: count() })
      .from(conversions)
      .where(conversionsInRange)
      .groupBy(sql`1`),
    orgDb
      .select({ key: conversions.campaign, n: count() })
      .from(conversions)
      .where(and(conversionsInRange, sql`${conversions.campaign} IS NOT NULL`))
      .groupBy(conversions.campaign),
    orgDb
      .select({ key: sql<string>`substr(${conversions.eventTime}, 1, 10)`, n: count() })
      .from(conversions)
      .where(conversionsInRange)
      .groupBy(sql`1`),
  ]);
  const totalSessions = sessions?.n ?? 0;
  const converted = Number(totals?.converted ?? 0);
  return {
    total_sessions: totalSessions,
    total_conversions: totals?.n ?? 0,
    conversion_rate: totalSessions === 0 ? 0 : Math.min(1, converted / totalSessions),
    total_value: Number(totals?.value ?? 0),
    by_source: Object.fromEntries(bySource.map((r) => [r.key, r.n])),
    by_campaign: Object.fromEntries(byCampaign.map((r) => [r.key!, r.n])),
    by_day: Object.fromEntries(byDay.map((r) => [r.key, r.n])),
  };
}
