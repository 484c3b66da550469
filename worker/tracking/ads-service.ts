/**
 * The ads report (server-contract §10): one row per ad that brought conversations, leads,
 * sales or spend in a date range. Conversations come from the `conversation_start`
 * conversions the webhook records once per ad click; leads and sales are attributed to the
 * ad of the click they carry (`ctwa_clid`); spend is read from Meta's Marketing API at ad
 * level, one day per row, and kept so that a view does not call Meta again.
 */
import { and, between, eq, inArray, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { z } from "zod";
import type { Db } from "../db/client";
import { adSpend, adSpendSyncs, organizations } from "../db/schema";
import type { Member } from "../http/context";
import type { Deps } from "../http/deps";
import { GraphError } from "../meta/graph";
import type { AdReportRow, AdsReport } from "./ads-contract";
import type { dateRangeQuery } from "./contract";
import { pixelSender } from "./meta-service";
import { dayRange } from "./service";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Today's and yesterday's spend still move: read again when older than this. */
const RECENT_SPEND_TTL_MS = 60 * 60 * 1000;
/** A day is final once Meta has had this long after its end to settle it. */
const SPEND_SETTLES_MS = 2 * DAY_MS;
/** Rows per upsert batch (D1 takes at most 100 bound parameters per statement). */
const SPEND_ROWS_PER_STATEMENT = 12;

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

/** Every day from `from` to `to` (YYYY-MM-DD, inclusive). */
function daysBetween(from: string, to: string) {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

/** Whether a day's spend read at `fetchedAt` can still be shown at `now`. */
function isFresh(day: string, fetchedAt: string, now: number) {
  const read = Date.parse(fetchedAt);
  const settled = read >= Date.parse(`${day}T00:00:00Z`) + DAY_MS + SPEND_SETTLES_MS;
  return settled || now - read < RECENT_SPEND_TTL_MS;
}

/**
 * Reads from Meta the spend of the days in [from, to] not known yet (or still moving) and
 * keeps it. Returns whether an ad account is connected, and Meta's error when the read failed.
 */
async function refreshSpend(
  deps: Deps,
  organizationId: string,
  from: string,
  to: string,
  now: number,
): Promise<{ connected: boolean; error?: string }> {
  const pixel = await pixelSender(deps, organizationId);
  const adAccountId = pixel?.row.adAccountId;
  if (!pixel || !adAccountId) return { connected: false };

  const days = daysBetween(from, to).filter((day) => day <= new Date(now).toISOString());
  if (days.length === 0) return { connected: true };
  const synced = await deps.db
    .select()
    .from(adSpendSyncs)
    .where(
      and(eq(adSpendSyncs.organizationId, organizationId), between(adSpendSyncs.day, from, to)),
    );
  const fresh = new Set(synced.filter((s) => isFresh(s.day, s.fetchedAt, now)).map((s) => s.day));
  const stale = days.filter((day) => !fresh.has(day));
  if (stale.length === 0) return { connected: true };
  const since = stale[0]!;
  const until = stale.at(-1)!;

  const rows: (typeof adSpend.$inferInsert)[] = [];
  const fetchedAt = new Date(now).toISOString();
  try {
    let after: string | undefined;
    do {
      const page = await pixel.graph.request<InsightsPage>(
        "GET",
        `${adAccountId}/insights`,
        undefined,
        {
          level: "ad",
          fields: "ad_id,ad_name,spend,account_currency",
          time_increment: "1",
          time_range: JSON.stringify({ since, until }),
          limit: "500",
          after,
        },
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
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    console.warn("ad insights", error.providerMessage);
    return { connected: true, error: error.message };
  }

  const refreshed = daysBetween(since, until);
  const statements: BatchItem<"sqlite">[] = [
    // A day read again replaces what was kept for it (an ad may have lost its spend).
    deps.db
      .delete(adSpend)
      .where(and(eq(adSpend.organizationId, organizationId), inArray(adSpend.day, refreshed))),
    ...chunks(rows, SPEND_ROWS_PER_STATEMENT).map((chunk) => deps.db.insert(adSpend).values(chunk)),
    ...chunks(refreshed, 30).map((chunk) =>
      deps.db
        .insert(adSpendSyncs)
        .values(chunk.map((day) => ({ organizationId, day, fetchedAt })))
        .onConflictDoUpdate({
          target: [adSpendSyncs.organizationId, adSpendSyncs.day],
          set: { fetchedAt },
        }),
    ),
  ];
  await deps.db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  return { connected: true };
}

function chunks<T>(items: T[], size: number) {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

/** A row as SQL returns it: the report's row before the ratios. */
type ReportRow = Omit<AdReportRow, "cost_per_conversation" | "cost_per_lead" | "roas">;

/** Conversations, leads, sales and revenue per ad in [start, end), spend per ad in [from, to]. */
async function reportRows(
  db: Db,
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
    spent AS (
      SELECT ad_id, sum(spend) AS spend, max(ad_name) AS ad_name FROM ad_spend
      WHERE organization_id = ${organizationId} AND day BETWEEN ${range.from} AND ${range.to}
      GROUP BY ad_id
    ),
    ads AS (SELECT ad_id FROM started UNION SELECT ad_id FROM results UNION SELECT ad_id FROM spent)
    SELECT a.ad_id,
      coalesce(
        (SELECT headline FROM clicks AS k WHERE k.ad_id = a.ad_id AND headline IS NOT NULL
          ORDER BY event_time DESC LIMIT 1),
        s.ad_name) AS headline,
      (SELECT source_url FROM clicks AS k WHERE k.ad_id = a.ad_id AND source_url IS NOT NULL
        ORDER BY event_time DESC LIMIT 1) AS source_url,
      coalesce(st.conversations, 0) AS conversations,
      coalesce(r.leads, 0) AS leads,
      coalesce(r.sales, 0) AS sales,
      coalesce(r.revenue, 0) AS revenue,
      coalesce(s.spend, 0) AS spend
    FROM ads AS a
      LEFT JOIN started AS st ON st.ad_id = a.ad_id
      LEFT JOIN results AS r ON r.ad_id = a.ad_id
      LEFT JOIN spent AS s ON s.ad_id = a.ad_id
  `);
}

export async function adsReport(
  deps: Deps,
  member: Member,
  query: z.output<typeof dateRangeQuery>,
  now = Date.now(),
): Promise<AdsReport> {
  const { start, end } = dayRange(query, new Date(now));
  const from = start.slice(0, 10);
  const to = new Date(Date.parse(end) - DAY_MS).toISOString().slice(0, 10);
  const organization = await deps.db.query.organizations.findFirst({
    where: eq(organizations.id, member.organizationId),
    columns: { currency: true },
  });
  const currency = organization?.currency ?? "EUR";
  const spend = await refreshSpend(deps, member.organizationId, from, to, now);
  const rows = await reportRows(deps.db, member.organizationId, currency, {
    start,
    end,
    from,
    to,
  });
  const ads = rows
    .map((row): AdReportRow => {
      const spent = spend.connected ? Number(row.spend) : null;
      const revenue = Number(row.revenue);
      return {
        ad_id: row.ad_id,
        headline: row.headline,
        source_url: row.source_url,
        conversations: Number(row.conversations),
        leads: Number(row.leads),
        sales: Number(row.sales),
        revenue,
        spend: spent,
        cost_per_conversation: spent === null ? null : ratio(spent, Number(row.conversations)),
        cost_per_lead: spent === null ? null : ratio(spent, Number(row.leads)),
        roas: ratio(revenue, spent),
      };
    })
    .sort((a, b) => b.revenue - a.revenue || b.conversations - a.conversations);
  return { currency, ads, ...(spend.error && { spend_error: spend.error }) };
}
