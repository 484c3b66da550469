import { and, count, desc, eq, gte, isNotNull, lt, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import {
  conversations,
  conversions,
  metaConnections,
  trackingSessions,
  whatsappConnections,
} from "../db/schema";
import type { Deps } from "../http/deps";
import { notFound } from "../http/errors";
import { isSentToMeta } from "./capi-events";
import { sendDueConversions } from "./capi-service";
import type { z } from "zod";
import type {
  Conversion,
  TrackingParams,
  TrackingSession,
  TrackingStats,
  conversionInput,
  dateRangeQuery,
  trackingSessionInput,
} from "./contract";

type SessionRow = typeof trackingSessions.$inferSelect;
type ConversionRow = typeof conversions.$inferSelect;

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

async function findSession(db: Db, organizationId: string, id: string) {
  const row = await db.query.trackingSessions.findFirst({
    where: and(eq(trackingSessions.id, id), eq(trackingSessions.organizationId, organizationId)),
  });
  if (!row) throw sessionNotFound();
  return row;
}

export async function createSession(
  db: Db,
  organizationId: string,
  input: z.output<typeof trackingSessionInput>,
  clientIp: string | null,
) {
  const params = input.tracking_params;
  const [row] = await db
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

export async function getSession(db: Db, organizationId: string, id: string) {
  return toSession(await findSession(db, organizationId, id));
}

export async function associatePhone(
  db: Db,
  organizationId: string,
  id: string,
  phoneNumber: string,
) {
  await findSession(db, organizationId, id);
  const [row] = await db
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

/** Whether Meta can be told: a mapped event and somewhere to send it. */
async function metaDestinationExists(db: Db, organizationId: string, clickToWhatsapp: boolean) {
  const table = clickToWhatsapp ? whatsappConnections : metaConnections;
  const [row] = await db
    .select({ id: table.id })
    .from(table)
    .where(eq(table.organizationId, organizationId))
    .limit(1);
  return row !== undefined;
}

/**
 * Stores a conversion and, when Meta should hear of it, marks it pending and sends it after
 * the answer. A phone from a click-to-WhatsApp conversation attributes it to that ad click,
 * and each (click, event) goes to Meta once.
 */
export async function recordConversion(
  deps: Deps,
  organizationId: string,
  input: z.output<typeof conversionInput>,
  visit: Visit,
) {
  const { db } = deps;
  const session = input.tracking_session_id
    ? await findSession(db, organizationId, input.tracking_session_id)
    : null;
  const params: TrackingParams = {
    ...(session?.trackingParams ?? {}),
    ...(input.tracking_params ?? {}),
  };
  const phoneNumber = input.phone_number ?? session?.phoneNumber ?? null;
  const adConversation = phoneNumber
    ? await db.query.conversations.findFirst({
        where: and(
          eq(conversations.organizationId, organizationId),
          eq(conversations.phoneNumber, phoneNumber),
          isNotNull(conversations.ctwaClid),
        ),
        columns: { id: true, ctwaClid: true },
      })
    : undefined;
  const sendToMeta =
    isSentToMeta(input.event_name) &&
    (await metaDestinationExists(db, organizationId, adConversation !== undefined));
  const now = new Date().toISOString();
  const values = {
    organizationId,
    trackingSessionId: session?.id ?? null,
    conversationId: adConversation?.id ?? null,
    ctwaClid: adConversation?.ctwaClid ?? null,
    eventName: input.event_name,
    phoneNumber,
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
    capiStatus: sendToMeta ? ("pending" as const) : ("not_sent" as const),
    capiNextAttemptAt: sendToMeta ? now : null,
  };
  let [row] = await db.insert(conversions).values(values).onConflictDoNothing().returning();
  if (!row) {
    // Meta does not deduplicate click-to-WhatsApp events: this one was already sent for the click.
    [row] = await db
      .insert(conversions)
      .values({
        ...values,
        ctwaClid: null,
        capiStatus: "not_sent",
        capiNextAttemptAt: null,
        capiResult: { error: "Este evento ya se envió a Meta para este clic del anuncio." },
      })
      .returning();
  }
  if (session) {
    await db
      .update(trackingSessions)
      .set({ lastActivityAt: now })
      .where(eq(trackingSessions.id, session.id));
  }
  if (row!.capiStatus === "pending") deps.defer(sendDueConversions(deps, organizationId));
  return toConversion(row!);
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

export async function listConversions(
  db: Db,
  organizationId: string,
  query: z.output<typeof dateRangeQuery>,
) {
  const { start, end } = dayRange(query);
  const filters: SQL[] = [
    eq(conversions.organizationId, organizationId),
    gte(conversions.eventTime, start),
    lt(conversions.eventTime, end),
  ];
  if (query.event_name) filters.push(eq(conversions.eventName, query.event_name));
  const rows = await db
    .select()
    .from(conversions)
    .where(and(...filters))
    .orderBy(desc(conversions.eventTime), desc(conversions.id))
    .limit(500);
  return rows.map(toConversion);
}

/**
 * Sessions, conversions, value, and the share of sessions that converted, in SQL over
 * indexed columns. A range without sessions has a rate of 0.
 */
export async function trackingStats(
  db: Db,
  organizationId: string,
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
  const [[sessions], [totals], bySource, byCampaign] = await db.batch([
    db.select({ n: count() }).from(trackingSessions).where(sessionsInRange),
    db
      .select({
        n: count(),
        value: sql<number>`coalesce(sum(${conversions.conversionValue}), 0)`,
        converted: sql<number>`count(DISTINCT ${conversions.trackingSessionId})`,
      })
      .from(conversions)
      .where(conversionsInRange),
    db
      .select({ key: sql<string>`coalesce(${conversions.source}, 'directo')`, n: count() })
      .from(conversions)
      .where(conversionsInRange)
      .groupBy(sql`1`),
    db
      .select({ key: conversions.campaign, n: count() })
      .from(conversions)
      .where(and(conversionsInRange, sql`${conversions.campaign} IS NOT NULL`))
      .groupBy(conversions.campaign),
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
  };
}
