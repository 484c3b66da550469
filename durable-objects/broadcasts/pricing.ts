/**
 * What Meta charges for a broadcast's messages: the organization's own latest rates from
 * Meta's pricing analytics, else Meta's published rate card shipped here, in the
 * organization's currency (decision 0060). Used for the preview's estimate and for each
 * recipient's cost once Meta says the message is billable.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import type { OrganizationDb } from "../db";
import { messageCosts } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import { organizationCurrency } from "../organizations/currency";
import { billingCountry } from "../whatsapp/country";
import type { BroadcastCategory, CountryCost } from "../../contracts/broadcasts";

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
export async function analyticsRates(
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

/**
 * A message's rate in the organization's currency: its own latest figure from Meta for the
 * country, else the card's converted; null when the card cannot be given in that currency.
 */
export function rateFor(
  country: string,
  category: BroadcastCategory,
  known: Map<string, number>,
  currency: string,
) {
  const analytics = known.get(country);
  if (analytics !== undefined) return { rate: analytics, source: "analytics" as const };
  const perUsd = PER_USD[currency];
  const card = (RATE_CARD_USD[country] ?? DEFAULT_RATE_USD)[category];
  return { rate: perUsd === undefined ? null : card * perUsd, source: "rate_card" as const };
}

/** An amount in `from` given in `to` through the dollar; null when either is not in the table. */
export function convertAmount(amount: number, from: string, to: string) {
  if (from === to) return amount;
  const [fromPerUsd, toPerUsd] = [PER_USD[from], PER_USD[to]];
  return fromPerUsd === undefined || toPerUsd === undefined
    ? null
    : (amount / fromPerUsd) * toPerUsd;
}

/** Each country's recipients priced at the best rate known, and the total (null if one lacks it). */
export function estimate(
  recipientsByCountry: Map<string, number>,
  known: Map<string, number>,
  category: BroadcastCategory,
  currency: string,
) {
  const byCountry: Record<string, CountryCost> = {};
  let amount: number | null = 0;
  for (const [country, recipients] of [...recipientsByCountry].sort()) {
    const { rate, source } = rateFor(country, category, known, currency);
    const cost = rate === null ? null : rate * recipients;
    byCountry[country] = {
      recipients,
      rate: rate === null ? null : rounded(rate, 6),
      amount: cost === null ? null : rounded(cost, 2),
      source,
    };
    amount = amount === null || cost === null ? null : amount + cost;
  }
  return { amount: amount === null ? null : rounded(amount, 2), currency, by_country: byCountry };
}

/** Unpriced recipients read per statement when pricing a broadcast's statuses. */
const PRICING_PAGE = 500;

/**
 * Prices the recipients of these broadcasts whose message Meta said is billable (statuses'
 * `pricing`), at the rate of their country and pricing category as the preview estimates it;
 * each recipient once. Done by the `broadcasts` job, with one read of the rates and currency
 * per run rather than per status.
 */
export async function priceRecipients(
  deps: StoreDeps,
  organizationId: string,
  broadcastIds: string[],
) {
  if (broadcastIds.length === 0) return;
  const unpriced = await deps.orgDb.all<{
    broadcast_id: string;
    conversation_id: string;
    phone_number: string | null;
    wa_user_id: string | null;
    pricing_category: string | null;
  }>(sql`
    SELECT r.broadcast_id, r.conversation_id, c.phone_number, c.wa_user_id, m.pricing_category
    FROM broadcast_recipients AS r
      CROSS JOIN messages AS m ON m.organization_id = r.organization_id AND m.wamid = r.wamid
      CROSS JOIN conversations AS c ON c.id = r.conversation_id
    WHERE r.organization_id = ${organizationId}
      AND r.broadcast_id IN (SELECT value FROM json_each(${JSON.stringify(broadcastIds)}))
      AND r.wamid IS NOT NULL AND r.cost IS NULL AND m.billable = 1
    LIMIT ${PRICING_PAGE}`);
  if (unpriced.length === 0) return;
  const currency = await organizationCurrency(deps);
  const rates = new Map<BroadcastCategory, Map<string, number>>();
  const priced = [];
  for (const row of unpriced) {
    const category = row.pricing_category === "utility" ? "UTILITY" : "MARKETING";
    if (!rates.has(category)) {
      rates.set(category, await analyticsRates(deps.orgDb, organizationId, category));
    }
    const country = billingCountry(row.phone_number, row.wa_user_id) ?? "ZZ";
    const { rate } = rateFor(country, category, rates.get(category)!, currency);
    if (rate !== null) priced.push({ b: row.broadcast_id, c: row.conversation_id, cost: rate });
  }
  await deps.orgDb.run(sql`
    UPDATE broadcast_recipients AS r SET cost = p.value ->> 'cost'
    FROM json_each(${JSON.stringify(priced)}) AS p
    WHERE r.broadcast_id = p.value ->> 'b' AND r.conversation_id = p.value ->> 'c'
      AND r.organization_id = ${organizationId} AND r.cost IS NULL`);
}
