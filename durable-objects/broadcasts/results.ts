/**
 * What a broadcast achieved (contract section 17): its recipients' states as Meta's statuses
 * tell them, who wrote back within 72 h, who stopped marketing after it, what Meta billed, and
 * the sales of the next 7 days in those conversations. Read from its recipients in a few
 * grouped queries for any number of broadcasts at once; consoles are told of changes by
 * `broadcast_update`, at most every couple of seconds (the `broadcasts` store job).
 */
import { and, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { broadcastRecipients, broadcasts } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import { KEPT_BOOKINGS } from "../bookings/kept-bookings";
import { organizationCurrency } from "../organizations/currency";
import type { BroadcastStats, SkipReason } from "../../contracts/broadcasts";

/** A reply counts for the broadcast it answers within this time of receiving it. */
export const REPLY_WINDOW_HOURS = 72;
/** A sale counts for the broadcast sent to its conversation this many days before. */
const SALE_WINDOW_DAYS = 7;
/** How long consoles may wait to be told a broadcast's results changed. */
export const STATS_DEBOUNCE_MS = 2_000;

const inJson = (values: string[]) => sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`;

interface Counts {
  broadcast_id: string;
  recipients: number;
  pending: number;
  sent: number;
  delivered: number;
  read: number;
  replied: number;
  failed: number;
  limited: number;
  opted_out: number;
  skipped_opted_out: number;
  skipped_limited: number;
  skipped_unreachable: number;
  skipped_frequency: number;
  cost: number;
}

const emptyStats = (currency: string): BroadcastStats => ({
  recipients: 0,
  pending: 0,
  sent: 0,
  delivered: 0,
  read: 0,
  replied: 0,
  failed: 0,
  failed_by_code: {},
  limited: 0,
  opted_out: 0,
  skipped: { opted_out: 0, limited: 0, unreachable: 0, frequency: 0 },
  sales: 0,
  revenue: 0,
  bookings: 0,
  cost: 0,
  currency,
});

/** Each broadcast's results, by id (a broadcast never sent has them all at zero). */
export async function statsOf(
  deps: StoreDeps,
  organizationId: string,
  ids: string[],
): Promise<Map<string, BroadcastStats>> {
  const currency = await organizationCurrency(deps);
  const stats = new Map(ids.map((id) => [id, emptyStats(currency)]));
  if (ids.length === 0) return stats;
  const { orgDb } = deps;
  const skipped = (reason: SkipReason) =>
    sql<number>`coalesce(sum(r.state = 'skipped' AND r.error_code = ${reason}), 0)`;
  const within = sql`strftime('%Y-%m-%dT%H:%M:%fZ', r.sent_at, ${`+${SALE_WINDOW_DAYS} days`})`;
  const [counts, failures, sales, booked] = await Promise.all([
    orgDb.all<Counts>(sql`
      SELECT r.broadcast_id,
        coalesce(sum(r.state <> 'skipped'), 0) AS recipients,
        coalesce(sum(r.state IN ('pending', 'sending')), 0) AS pending,
        coalesce(sum(r.wamid IS NOT NULL), 0) AS sent,
        coalesce(sum(r.delivered_at IS NOT NULL), 0) AS delivered,
        coalesce(sum(r.read_at IS NOT NULL), 0) AS read,
        coalesce(sum(r.replied_at IS NOT NULL), 0) AS replied,
        coalesce(sum(r.state = 'failed'), 0) AS failed,
        coalesce(sum(r.state = 'limited'), 0) AS limited,
        coalesce(sum(r.sent_at IS NOT NULL AND (r.error_code = '131050'
          OR c.marketing_opted_out_at >= r.sent_at)), 0) AS opted_out,
        ${skipped("opted_out")} AS skipped_opted_out,
        ${skipped("limited")} AS skipped_limited,
        ${skipped("unreachable")} AS skipped_unreachable,
        ${skipped("frequency")} AS skipped_frequency,
        coalesce(sum(r.cost), 0) AS cost
      FROM broadcast_recipients AS r
        LEFT JOIN conversations AS c ON c.id = r.conversation_id
      WHERE r.organization_id = ${organizationId} AND r.broadcast_id IN ${inJson(ids)}
      GROUP BY r.broadcast_id`),
    orgDb.all<{ broadcast_id: string; error_code: string | null; n: number }>(sql`
      SELECT broadcast_id, error_code, count(*) AS n FROM broadcast_recipients
      WHERE organization_id = ${organizationId} AND broadcast_id IN ${inJson(ids)}
        AND state = 'failed'
      GROUP BY broadcast_id, error_code`),
    // A sale in a recipient's conversation within 7 days of its send; revenue in the
    // organization's currency only (as the ads report: no conversion between currencies).
    orgDb.all<{ broadcast_id: string; sales: number; revenue: number }>(sql`
      SELECT r.broadcast_id, count(*) AS sales,
        coalesce(sum(CASE WHEN coalesce(s.currency, ${currency}) = ${currency}
          THEN s.conversion_value END), 0) AS revenue
      FROM broadcast_recipients AS r
        CROSS JOIN conversions AS s ON s.conversation_id = r.conversation_id
      WHERE r.organization_id = ${organizationId} AND r.broadcast_id IN ${inJson(ids)}
        AND r.sent_at IS NOT NULL AND s.event_name = 'purchase'
        AND s.event_time >= r.sent_at
        AND s.event_time < ${within}
      GROUP BY r.broadcast_id`),
    // A booking kept, made in a recipient's conversation within the same 7 days (decision 0128).
    orgDb.all<{ broadcast_id: string; bookings: number }>(sql`
      SELECT r.broadcast_id, count(*) AS bookings
      FROM broadcast_recipients AS r
        CROSS JOIN bookings AS b ON b.conversation_id = r.conversation_id
      WHERE r.organization_id = ${organizationId} AND r.broadcast_id IN ${inJson(ids)}
        AND r.sent_at IS NOT NULL AND b.status IN ${KEPT_BOOKINGS}
        AND b.created_at >= r.sent_at AND b.created_at < ${within}
      GROUP BY r.broadcast_id`),
  ]);
  for (const row of counts) {
    const target = stats.get(row.broadcast_id)!;
    Object.assign(target, {
      recipients: row.recipients,
      pending: row.pending,
      sent: row.sent,
      delivered: row.delivered,
      read: row.read,
      replied: row.replied,
      failed: row.failed,
      limited: row.limited,
      opted_out: row.opted_out,
      skipped: {
        opted_out: row.skipped_opted_out,
        limited: row.skipped_limited,
        unreachable: row.skipped_unreachable,
        frequency: row.skipped_frequency,
      },
      cost: Number(row.cost.toFixed(2)),
    });
  }
  for (const row of failures) {
    stats.get(row.broadcast_id)!.failed_by_code[row.error_code ?? "unknown"] = row.n;
  }
  for (const row of sales) {
    const target = stats.get(row.broadcast_id)!;
    target.sales = row.sales;
    target.revenue = Number(row.revenue.toFixed(2));
  }
  for (const row of booked) stats.get(row.broadcast_id)!.bookings = row.bookings;
  return stats;
}

/**
 * Marks broadcasts whose results changed, for the store's `broadcasts` job to tell the consoles
 * (`broadcast_update`) once however many statuses arrive. Answers whether it marked any: the
 * caller then has the job run within `STATS_DEBOUNCE_MS` (`resultsChanged`, or the webhook's
 * store once its transaction has committed).
 */
export async function markResultsChanged(deps: StoreDeps, organizationId: string, ids: string[]) {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return false;
  await deps.orgDb
    .update(broadcasts)
    .set({ statsChangedAt: new Date().toISOString() })
    .where(and(eq(broadcasts.organizationId, organizationId), inArray(broadcasts.id, unique)));
  return true;
}

/** Marks broadcasts whose results changed and has the job tell the consoles shortly. */
async function resultsChanged(deps: StoreDeps, organizationId: string, ids: string[]) {
  if (await markResultsChanged(deps, organizationId, ids)) {
    await deps.schedule("broadcasts", Date.now() + STATS_DEBOUNCE_MS);
  }
}

/**
 * The ingest's statement (one of its batch, bound to the delivery's messages as JSON): a
 * customer's message stored just now answers the broadcasts their conversation received in
 * the 72 hours before it (by Meta's time); those recipients count as `replied`, once. Answers
 * the broadcasts it counted on, for `resultsChanged`.
 */
export const MARK_REPLIES = `
  UPDATE broadcast_recipients SET replied_at = fresh.sent_at, updated_at = ?3
  FROM (
    SELECT stored.conversation_id, min(stored.sent_at) AS sent_at
    FROM json_each(?1) AS m CROSS JOIN messages AS stored ON stored.id = m.value ->> 'id'
    GROUP BY stored.conversation_id
  ) AS fresh
  WHERE broadcast_recipients.conversation_id = fresh.conversation_id
    -- "+": found by the delivery's conversations, never by the organization (left to itself
    -- the planner walks every recipient of every broadcast the organization sent).
    AND +broadcast_recipients.organization_id = ?2
    AND broadcast_recipients.replied_at IS NULL
    AND broadcast_recipients.state IN ('sent', 'delivered', 'read')
    -- Meta's times are whole seconds: a reply in the send's second counts.
    AND fresh.sent_at >= strftime('%Y-%m-%dT%H:%M:%S.000Z', broadcast_recipients.sent_at)
    AND fresh.sent_at < strftime('%Y-%m-%dT%H:%M:%fZ', broadcast_recipients.sent_at,
      '+${REPLY_WINDOW_HOURS} hours')
  RETURNING broadcast_id`;

/** A sale recorded in a conversation counts for the broadcasts it received in the 7 days before. */
export async function recordSale(deps: StoreDeps, organizationId: string, conversationId: string) {
  const since = new Date(Date.now() - SALE_WINDOW_DAYS * 24 * 60 * 60_000).toISOString();
  const sent = await deps.orgDb
    .select({ id: broadcastRecipients.broadcastId })
    .from(broadcastRecipients)
    .where(
      and(
        eq(broadcastRecipients.conversationId, conversationId),
        // "+": by the conversation's index, never the organization's week of recipients.
        sql`+${broadcastRecipients.organizationId} = ${organizationId}`,
        isNotNull(broadcastRecipients.sentAt),
        sql`${broadcastRecipients.sentAt} >= ${since}`,
      ),
    );
  await resultsChanged(
    deps,
    organizationId,
    sent.map((row) => row.id),
  );
}

/** The broadcast a status's `biz_opaque_callback_data` names (`broadcast:<id>`), if any. */
export const broadcastOfCallback = (data: unknown) =>
  typeof data === "string" && data.startsWith("broadcast:")
    ? data.slice("broadcast:".length)
    : null;

/** What a status of a broadcast's message tells of its recipient. */
export interface RecipientStatus {
  broadcastId: string;
  conversationId: string;
  status: "sent" | "delivered" | "read" | "failed";
  /** Meta's time of the status (ISO). */
  at: string;
  error?: { code: string; message: string };
}

/**
 * Moves a recipient on by its message's status: forward only, with the time of each step (a
 * read message was delivered too) and Meta's reason for a failure (`limited` for 131049, never
 * retried); its cost is worked out by the job that tells the consoles. Statuses may come
 * before the send's answer was recorded (`sending`) and in any order. Answers whether the
 * broadcast's results changed.
 */
export async function recordRecipientStatus(
  deps: StoreDeps,
  organizationId: string,
  update: RecipientStatus,
) {
  const { status, at } = update;
  const changes =
    status === "failed"
      ? {
          state: sql`CASE WHEN state IN ('sending', 'sent')
            THEN ${update.error?.code === "131049" ? "limited" : "failed"} ELSE state END`,
          errorCode: sql`CASE WHEN state IN ('sending', 'sent') THEN ${update.error?.code ?? null}
            ELSE error_code END`,
          error: sql`CASE WHEN state IN ('sending', 'sent') THEN ${update.error?.message ?? null}
            ELSE error END`,
        }
      : status === "sent"
        ? { sentAt: sql`coalesce(sent_at, ${at})` }
        : {
            state: sql`CASE WHEN state IN ('sending', 'sent'${status === "read" ? sql`, 'delivered'` : sql``})
              THEN ${status} ELSE state END`,
            deliveredAt: sql`coalesce(delivered_at, ${at})`,
            ...(status === "read" && { readAt: sql`coalesce(read_at, ${at})` }),
          };
  const [moved] = await deps.orgDb
    .update(broadcastRecipients)
    .set({
      ...changes,
      updatedAt: new Date().toISOString(),
    })
    .where(
      and(
        eq(broadcastRecipients.broadcastId, update.broadcastId),
        eq(broadcastRecipients.conversationId, update.conversationId),
        eq(broadcastRecipients.organizationId, organizationId),
      ),
    )
    .returning({ id: broadcastRecipients.broadcastId });
  return moved ? markResultsChanged(deps, organizationId, [moved.id]) : false;
}
