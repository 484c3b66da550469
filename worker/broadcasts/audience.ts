/**
 * A broadcast's audience and its preview (contract section 17, decision 0060): the
 * organization's conversations its criteria select, read in one query over the conversations
 * (labels and undeliverable numbers by index, never one query per conversation); who of them
 * consent leaves out and why; and what Meta would charge for the rest.
 */
import { and, eq, gte, inArray, isNotNull, isNull, lt, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { OrganizationDb } from "../db/client";
import { conversations, labels, messageCosts } from "../db/schema";
import type { Deps } from "../http/deps";
import { AppError } from "../http/errors";
import { organizationCurrency } from "../organizations/service";
import { marketingExclusion, type MarketingExclusion } from "../whatsapp/consent";
import { billingCountry } from "../whatsapp/country";
import type {
  AudienceCriteria,
  BroadcastCategory,
  BroadcastPreview,
  CountryCost,
  SkippedCounts,
} from "./contract";

/** A list bound as one JSON parameter, whatever its length (D1 binds at most 100). */
const inJson = (column: SQLiteColumn, values: string[]) =>
  sql`${column} IN (SELECT value FROM json_each(${JSON.stringify(values)}))`;

/**
 * Meta reported the customer undeliverable (131026: no WhatsApp, an old app, blocked) since
 * they last wrote: a customer who wrote afterwards is reachable again. Read through the
 * partial index `messages_undeliverable_idx`, which holds only those failures.
 *
 * This and the labels' subquery name the outer table in plain SQL: drizzle writes a column of
 * a one-table query unqualified, which inside a subquery would mean the subquery's own column.
 */
const undeliverable = sql<number>`EXISTS (
  SELECT 1 FROM messages AS m
  WHERE m.conversation_id = conversations.id AND m.error_code = '131026'
    AND m.created_at > coalesce(conversations.last_inbound_at, ''))`;

/** The conversations the criteria select: all of them hold (AND), each list is any of. */
export function audienceCondition(organizationId: string, audience: AudienceCriteria): SQL {
  const criteria: (SQL | undefined)[] = [
    eq(conversations.organizationId, organizationId),
    eq(conversations.platform, "whatsapp"),
  ];
  if (audience.label_ids) {
    criteria.push(sql`EXISTS (
      SELECT 1 FROM conversation_labels AS cl
      WHERE cl.conversation_id = conversations.id
        AND cl.label_id IN (SELECT value FROM json_each(${JSON.stringify(audience.label_ids)})))`);
  }
  if (audience.stages) criteria.push(inArray(conversations.stage, audience.stages));
  if (audience.ad_ids) criteria.push(inJson(conversations.adId, audience.ad_ids));
  if (audience.last_inbound_before) {
    criteria.push(lt(conversations.lastInboundAt, audience.last_inbound_before));
  }
  if (audience.last_inbound_after) {
    criteria.push(gte(conversations.lastInboundAt, audience.last_inbound_after));
  }
  if (audience.has_phone !== undefined) {
    criteria.push(
      audience.has_phone ? isNotNull(conversations.phoneNumber) : isNull(conversations.phoneNumber),
    );
  }
  return and(...criteria)!;
}

/** Labels of the audience that are not the organization's: its own are all that may be used. */
export async function checkAudienceLabels(
  db: OrganizationDb,
  organizationId: string,
  audience: AudienceCriteria,
) {
  const wanted = [...new Set(audience.label_ids ?? [])];
  if (wanted.length === 0) return;
  const found = await db
    .select({ id: labels.id })
    .from(labels)
    .where(and(eq(labels.organizationId, organizationId), inJson(labels.id, wanted)));
  if (found.length !== wanted.length) {
    throw new AppError(
      422,
      "unknown_label",
      "Alguna de las etiquetas de la audiencia no existe en tu organización.",
    );
  }
}

/** Each customer of the audience with what consent and Meta's reports say of them. */
export function audienceCustomers(
  db: OrganizationDb,
  organizationId: string,
  audience: AudienceCriteria,
) {
  return db
    .select({
      phoneNumber: conversations.phoneNumber,
      waUserId: conversations.waUserId,
      marketingOptedOutAt: conversations.marketingOptedOutAt,
      marketingLimitedUntil: conversations.marketingLimitedUntil,
      undeliverable,
    })
    .from(conversations)
    .where(audienceCondition(organizationId, audience));
}
type AudienceCustomer = Awaited<ReturnType<typeof audienceCustomers>>[number];

/**
 * Why a customer is left out: consent (opted out, Meta's 24-hour limit, a country Meta serves
 * no marketing) for a marketing template only; a number Meta reported undeliverable for both.
 */
function exclusionOf(
  customer: AudienceCustomer,
  category: BroadcastCategory,
  now: number,
): MarketingExclusion | null {
  const consent = category === "MARKETING" ? marketingExclusion(customer, now) : null;
  return consent ?? (customer.undeliverable ? "unreachable" : null);
}

// ---------------------------------------------------------------------------------------------
// What Meta would charge.

/**
 * Meta's published per-message rates in USD, for when the organization's own figures do not
 * have a country yet. Source: Meta's rate card as gathered in the product's research notes
 * (research-whatsapp-2026.md section 1.2, read 2026-11-26: AR, BR, CL and CO from the
 * October 2026 card; ES, MX and PE indicative, from the July 2025 card; US and the default,
 * "Other", from the July 2025 card). An estimate: Meta's invoice is what counts.
 */
const RATE_CARD_USD: Record<string, Record<BroadcastCategory, number>> = {
  ES: { MARKETING: 0.0615, UTILITY: 0.02 },
  MX: { MARKETING: 0.0305, UTILITY: 0.0085 },
  CO: { MARKETING: 0.0125, UTILITY: 0.0008 },
  AR: { MARKETING: 0.0618, UTILITY: 0.026 },
  CL: { MARKETING: 0.0889, UTILITY: 0.02 },
  PE: { MARKETING: 0.0703, UTILITY: 0.02 },
  US: { MARKETING: 0.025, UTILITY: 0.0034 },
  BR: { MARKETING: 0.0625, UTILITY: 0.0068 },
};
const DEFAULT_RATE_USD: Record<BroadcastCategory, number> = { MARKETING: 0.0604, UTILITY: 0.0077 };

/**
 * Units of each currency per US dollar, approximate (November 2026), to give the rate card in
 * the organization's currency. A currency not listed gets no card rate (null), not a guess.
 */
const PER_USD: Record<string, number> = {
  USD: 1,
  EUR: 0.86,
  GBP: 0.76,
  MXN: 18.5,
  COP: 3900,
  ARS: 1450,
  CLP: 940,
  PEN: 3.5,
  BRL: 5.4,
};

/** The pricing categories Meta's analytics bill a template of that category under. */
const PRICING_CATEGORIES: Record<BroadcastCategory, string[]> = {
  // Sent through the Marketing Messages API it is billed as `marketing_lite`, at the same price.
  MARKETING: ["marketing", "marketing_lite"],
  UTILITY: ["utility"],
};

/**
 * The latest rate the organization's pricing analytics know for each country: cost over
 * volume of the latest day that has the category and country (SQLite answers the other
 * columns of a `max()` group from the row holding the maximum).
 */
async function analyticsRates(
  db: OrganizationDb,
  organizationId: string,
  category: BroadcastCategory,
) {
  const rows = await db
    .select({
      country: messageCosts.country,
      day: sql<string>`max(${messageCosts.day})`,
      cost: messageCosts.cost,
      volume: messageCosts.volume,
    })
    .from(messageCosts)
    .where(
      and(
        eq(messageCosts.organizationId, organizationId),
        inArray(messageCosts.category, PRICING_CATEGORIES[category]),
      ),
    )
    .groupBy(messageCosts.country);
  return new Map(rows.map((row) => [row.country, row.cost / row.volume]));
}

const rounded = (amount: number, decimals: number) => Number(amount.toFixed(decimals));

/** Each country's recipients priced at the best rate known, and the total (null if one lacks it). */
function estimate(
  recipientsByCountry: Map<string, number>,
  known: Map<string, number>,
  category: BroadcastCategory,
  currency: string,
) {
  const perUsd = PER_USD[currency];
  const byCountry: Record<string, CountryCost> = {};
  let amount: number | null = 0;
  for (const [country, recipients] of [...recipientsByCountry].sort()) {
    const analytics = known.get(country);
    const card = (RATE_CARD_USD[country] ?? DEFAULT_RATE_USD)[category];
    const rate = analytics ?? (perUsd === undefined ? null : card * perUsd);
    const cost = rate === null ? null : rate * recipients;
    byCountry[country] = {
      recipients,
      rate: rate === null ? null : rounded(rate, 6),
      amount: cost === null ? null : rounded(cost, 2),
      source: analytics === undefined ? "rate_card" : "analytics",
    };
    amount = amount === null || cost === null ? null : amount + cost;
  }
  return { amount: amount === null ? null : rounded(amount, 2), currency, by_country: byCountry };
}

/** Who would receive the broadcast now, who is left out and why, and what Meta would charge. */
export async function previewAudience(
  deps: Deps,
  organizationId: string,
  broadcast: { audience: AudienceCriteria; category: BroadcastCategory },
  now = Date.now(),
): Promise<BroadcastPreview> {
  const [customers, known, currency] = await Promise.all([
    audienceCustomers(deps.orgDb, organizationId, broadcast.audience),
    analyticsRates(deps.orgDb, organizationId, broadcast.category),
    organizationCurrency(deps.db, organizationId),
  ]);
  const skipped: SkippedCounts = { opted_out: 0, limited: 0, unreachable: 0 };
  const recipientsByCountry = new Map<string, number>();
  for (const customer of customers) {
    const exclusion = exclusionOf(customer, broadcast.category, now);
    if (exclusion) {
      skipped[exclusion] += 1;
      continue;
    }
    // "ZZ" as in the analytics: a customer whose country neither identifier tells.
    const country = billingCountry(customer.phoneNumber, customer.waUserId) ?? "ZZ";
    recipientsByCountry.set(country, (recipientsByCountry.get(country) ?? 0) + 1);
  }
  const recipients = customers.length - skipped.opted_out - skipped.limited - skipped.unreachable;
  return {
    recipients,
    skipped,
    estimated_cost: estimate(recipientsByCountry, known, broadcast.category, currency),
  };
}
