/**
 * The ads report (server-contract §10): one row per ad that brought conversations, leads,
 * sales or spend in a date range. Conversations come from the `conversation_start`
 * conversions the webhook records once per ad click; leads and sales are attributed to the
 * ad of the click they carry (`ctwa_clid`); spend is read from Meta's Marketing API at ad
 * level, one day per row, and kept so that a view does not call Meta again; what the ad's
 * conversations cost in WhatsApp messages comes from Meta's pricing analytics (message-costs.ts).
 */
import { and, between, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod/mini";
import type { OrganizationDb } from "../db";
import { adSpend, adSpendSyncs } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import type { AdReportRow, AdsReport, MessageCostSummary } from "../../contracts/ads";
import type { reportRangeQuery } from "../../contracts/tracking";
import { FiguresRefused, refreshFigures } from "./daily-figures";
import { pixelSender } from "./pixel-service";
import { dayRange } from "./service";
import { chunks, DAY_MS, staleSpan } from "./daily-figures";
import {
  costOfMessages,
  messageCostSummary,
  refreshMessageCosts,
  type BilledMessages,
} from "./message-costs";
import { organizationCurrency } from "../organizations/currency";
import { KEPT_BOOKINGS } from "../bookings/kept-bookings";

/** Rows per insert (D1 takes at most 100 bound parameters per statement). */
const SPEND_ROWS_PER_STATEMENT = 12;
/**
 * Pages of ad insights read per view (500 rows each): an account past it is not summed. With
 * the message costs' one call, a view asks Meta at most five times.
 */
export const MAX_INSIGHT_PAGES = 4;
const TOO_MANY_ADS =
  "Meta devolvió demasiados anuncios para este periodo: elige un periodo más corto.";

interface InsightsPage {
  data?: {
    ad_id?: string;
    ad_name?: string;
    spend?: string;
    date_start?: string;
    account_currency?: string;
  }[];
  paging?: { cursors?: { after?: string }; next?: string };
}

const ratio = (numerator: number, denominator: number | null) =>
  denominator === null || denominator === 0 ? null : numerator / denominator;

/**
 * Reads from Meta the spend of the days in [from, to] not known yet (or still moving) and
 * keeps it. Returns whether an ad account is connected, and why fresh spend is missing.
 */
async function refreshSpend(
  deps: StoreDeps,
  member: Member,
  from: string,
  to: string,
  now: number,
): Promise<{ connected: boolean; error?: string }> {
  const { organizationId } = member;
  const pixel = await pixelSender(deps);
  const adAccountId = pixel?.row.adAccountId;
  if (!pixel || !adAccountId) return { connected: false };

  const synced = await deps.orgDb
    .select()
    .from(adSpendSyncs)
    .where(
      and(eq(adSpendSyncs.organizationId, organizationId), between(adSpendSyncs.day, from, to)),
    );
  const span = staleSpan(from, to, synced, now);
  if (!span) return { connected: true };

  const fetchedAt = new Date(now).toISOString();
  const { error } = await refreshFigures(deps, member, {
    name: "spend",
    span,
    now,
    rowsPerStatement: SPEND_ROWS_PER_STATEMENT,
    async read(call) {
      const rows: (typeof adSpend.$inferInsert)[] = [];
      let after: string | undefined;
      let pages = 0;
      do {
        if (++pages > MAX_INSIGHT_PAGES) throw new FiguresRefused(TOO_MANY_ADS);
        const page = await call(() =>
          pixel.graph.request<InsightsPage>("GET", `${adAccountId}/insights`, undefined, {
            level: "ad",
            fields: "ad_id,ad_name,spend,account_currency",
            time_increment: "1",
            time_range: JSON.stringify({ since: span.since, until: span.until }),
            limit: "500",
            after,
          }),
        );
        for (const row of page.data ?? []) {
          if (!row.ad_id || !row.date_start) continue;
          rows.push({
            organizationId,
            adId: row.ad_id,
            day: row.date_start,
            adName: row.ad_name ?? null,
            spend: Number(row.spend ?? 0) || 0,
            currency: row.account_currency ?? null,
            fetchedAt,
          });
        }
        after = page.paging?.next ? page.paging.cursors?.after : undefined;
      } while (after);
      return rows;
    },
    replace: (days, rows) => [
      // A day read again replaces what was kept for it (an ad may have lost its spend).
      deps.orgDb
        .delete(adSpend)
        .where(and(eq(adSpend.organizationId, organizationId), inArray(adSpend.day, days))),
      ...chunks(rows, SPEND_ROWS_PER_STATEMENT).map((chunk) =>
        deps.orgDb.insert(adSpend).values(chunk),
      ),
      deps.orgDb
        .insert(adSpendSyncs)
        .values(days.map((day) => ({ organizationId, day, fetchedAt })))
        .onConflictDoUpdate({
          target: [adSpendSyncs.organizationId, adSpendSyncs.day],
          set: { fetchedAt },
        }),
    ],
  });
  return { connected: true, ...(error && { error }) };
}

/** A row as SQL returns it: the report's row before the ratios. */
type ReportRow = Omit<AdReportRow, "cost_per_conversation" | "cost_per_lead" | "roas">;

/** Conversations, leads, sales and revenue per ad in [start, end), spend per ad in [from, to]. */
async function reportRows(
  db: OrganizationDb,
  organizationId: string,
  currency: string,
  range: { start: string; end: string; from: string; to: string },
) {
  return db.all<ReportRow>(sql`
    WITH clicks AS (
      SELECT ctwa_clid, conversation_id, event_time, campaign AS headline,
        tracking_params ->> 'ad_id' AS ad_id, custom_data ->> 'source_url' AS source_url
      FROM conversions
      WHERE organization_id = ${organizationId} AND event_name = 'conversation_start'
        AND ctwa_clid IS NOT NULL AND tracking_params ->> 'ad_id' IS NOT NULL
    ),
    started AS (
      SELECT ad_id, count(DISTINCT conversation_id) AS conversations FROM clicks
      WHERE event_time >= ${range.start} AND event_time < ${range.end}
      GROUP BY ad_id
    ),
    results AS (
      SELECT k.ad_id,
        sum(r.event_name = 'lead') AS leads,
        sum(r.event_name = 'purchase') AS sales,
        coalesce(sum(CASE WHEN r.event_name = 'purchase'
          AND coalesce(r.currency, 'EUR') = ${currency} THEN r.conversion_value END), 0) AS revenue
      FROM conversions AS r CROSS JOIN clicks AS k ON k.ctwa_clid = r.ctwa_clid
      WHERE r.organization_id = ${organizationId} AND r.event_name IN ('lead', 'purchase')
        AND r.event_time >= ${range.start} AND r.event_time < ${range.end}
      GROUP BY k.ad_id
    ),
    -- A booking kept (confirmed, completed or a no-show) counts for the ad whose click last
    -- brought its conversation before it was made (decision 0128).
    booked AS (
      SELECT (SELECT k.ad_id FROM clicks AS k WHERE k.conversation_id = b.conversation_id
          AND k.event_time <= b.created_at ORDER BY k.event_time DESC LIMIT 1) AS ad_id,
        count(*) AS bookings
      FROM bookings AS b
      WHERE b.organization_id = ${organizationId} AND b.status IN ${KEPT_BOOKINGS}
        AND b.created_at >= ${range.start} AND b.created_at < ${range.end}
      GROUP BY 1 HAVING ad_id IS NOT NULL
    ),
    spent AS (
      SELECT ad_id, sum(spend) AS spend, max(ad_name) AS ad_name FROM ad_spend
      WHERE organization_id = ${organizationId} AND day BETWEEN ${range.from} AND ${range.to}
      GROUP BY ad_id
    ),
    ads AS (
      SELECT ad_id FROM started UNION SELECT ad_id FROM results UNION SELECT ad_id FROM booked
      UNION SELECT ad_id FROM spent
    )
    SELECT a.ad_id,
      coalesce(
        (SELECT headline FROM clicks AS k WHERE k.ad_id = a.ad_id AND headline IS NOT NULL
          ORDER BY event_time DESC LIMIT 1),
        s.ad_name) AS headline,
      (SELECT source_url FROM clicks AS k WHERE k.ad_id = a.ad_id AND source_url IS NOT NULL
        ORDER BY event_time DESC LIMIT 1) AS source_url,
      coalesce(st.conversations, 0) AS conversations,
      coalesce(r.leads, 0) AS leads,
      coalesce(bk.bookings, 0) AS bookings,
      coalesce(r.sales, 0) AS sales,
      coalesce(r.revenue, 0) AS revenue,
      coalesce(s.spend, 0) AS spend
    FROM ads AS a
      LEFT JOIN started AS st ON st.ad_id = a.ad_id
      LEFT JOIN results AS r ON r.ad_id = a.ad_id
      LEFT JOIN booked AS bk ON bk.ad_id = a.ad_id
      LEFT JOIN spent AS s ON s.ad_id = a.ad_id
  `);
}

/**
 * The billable messages of each ad's conversations sent in [start, end), grouped as they
 * are priced (day, category, customer).
 */
function billedPerAd(
  db: OrganizationDb,
  organizationId: string,
  range: { start: string; end: string },
) {
  return db.all<BilledMessages>(sql`
    WITH ad_conversations AS (
      SELECT DISTINCT tracking_params ->> 'ad_id' AS ad_id, conversation_id FROM conversions
      WHERE organization_id = ${organizationId} AND event_name = 'conversation_start'
        AND ctwa_clid IS NOT NULL AND tracking_params ->> 'ad_id' IS NOT NULL
        AND conversation_id IS NOT NULL
    )
    SELECT a.ad_id AS key, substr(m.created_at, 1, 10) AS day, m.pricing_category AS category,
      c.phone_number, c.wa_user_id, count(*) AS messages
    FROM ad_conversations AS a
      JOIN conversations AS c ON c.id = a.conversation_id AND c.organization_id = ${organizationId}
      JOIN messages AS m ON m.conversation_id = a.conversation_id
    WHERE m.billable = 1 AND m.created_at >= ${range.start} AND m.created_at < ${range.end}
    GROUP BY a.ad_id, day, category, c.id
  `);
}

/** The report's period as instants [start, end) and as days [from, to]. */
function reportPeriod(query: z.output<typeof reportRangeQuery>, now: number) {
  const { start, end } = dayRange(query, new Date(now));
  const to = new Date(Date.parse(end) - DAY_MS).toISOString().slice(0, 10);
  return { start, end, from: start.slice(0, 10), to };
}

export async function adsReport(
  deps: StoreDeps,
  member: Member,
  query: z.output<typeof reportRangeQuery>,
  now = Date.now(),
): Promise<AdsReport> {
  const { start, end, from, to } = reportPeriod(query, now);
  const currency = await organizationCurrency(deps);
  const [spend, costs] = await Promise.all([
    refreshSpend(deps, member, from, to, now),
    refreshMessageCosts(deps, member, from, to, now),
  ]);
  const [rows, billed] = await Promise.all([
    reportRows(deps.orgDb, member.organizationId, currency, { start, end, from, to }),
    billedPerAd(deps.orgDb, member.organizationId, { start, end }),
  ]);
  const messageCost = await costOfMessages(deps.orgDb, member.organizationId, from, to, billed);
  const ads = rows
    .map((row): AdReportRow => {
      const spent = spend.connected ? Number(row.spend) : null;
      const revenue = Number(row.revenue);
      // An ad without billable messages cost nothing; one with a message Meta has not
      // priced yet has no known cost.
      const messagesCost = messageCost.has(row.ad_id) ? messageCost.get(row.ad_id)! : 0;
      return {
        ad_id: row.ad_id,
        headline: row.headline,
        source_url: row.source_url,
        conversations: Number(row.conversations),
        leads: Number(row.leads),
        bookings: Number(row.bookings),
        sales: Number(row.sales),
        revenue,
        spend: spent,
        message_cost: messagesCost,
        profit:
          spent === null && messagesCost === null
            ? null
            : revenue - (spent ?? 0) - (messagesCost ?? 0),
        cost_per_conversation: spent === null ? null : ratio(spent, Number(row.conversations)),
        cost_per_lead: spent === null ? null : ratio(spent, Number(row.leads)),
        roas: ratio(revenue, spent),
      };
    })
    .sort((a, b) => b.revenue - a.revenue || b.conversations - a.conversations);
  const unpriced = ads.some((ad) => ad.message_cost === null);
  return {
    currency,
    ads,
    message_cost_total: unpriced ? null : ads.reduce((sum, ad) => sum + (ad.message_cost ?? 0), 0),
    ...(spend.error && { spend_error: spend.error }),
    ...(costs.error && { message_cost_error: costs.error }),
  };
}

/** The dashboard's figure: what the organization's WhatsApp messages cost in the period. */
export async function messageCostReport(
  deps: StoreDeps,
  member: Member,
  query: z.output<typeof reportRangeQuery>,
  now = Date.now(),
): Promise<MessageCostSummary> {
  const { from, to } = reportPeriod(query, now);
  const [summary, currency] = await Promise.all([
    messageCostSummary(deps, member, { from, to }, now),
    organizationCurrency(deps),
  ]);
  return { ...summary, currency };
}
