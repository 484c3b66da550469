/**
 * A broadcast's audience and its preview (contract section 17, decision 0060): the
 * organization's conversations its criteria select, read in one query over the conversations
 * (labels and undeliverable numbers by index, never one query per conversation); who of them
 * consent leaves out and why; and what Meta would charge for the rest.
 */
import { and, eq, gte, inArray, isNotNull, isNull, lt, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import type { OrganizationDb } from "../db";
import { conversations, labels } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError } from "../../worker/http/errors";
import { organizationCurrency } from "../organizations/currency";
import { marketingRefusal, type MarketingExclusion } from "../whatsapp/consent";
import { billingCountry } from "../whatsapp/country";
import type {
  AudienceAd,
  AudienceCriteria,
  BroadcastCategory,
  BroadcastPreview,
  SkippedCounts,
} from "../../contracts/broadcasts";
import { analyticsRates, estimate } from "./pricing";
import {
  frequencySince,
  marketingAllowance,
  readMarketingLimits,
  recentMarketing,
} from "./marketing-limits";

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

/**
 * Refuses labels that are not the organization's: its own are all a broadcast's audience or a
 * follow-up's rule (`of` says which, in the message) may name.
 */
export async function checkOwnLabels(
  db: OrganizationDb,
  organizationId: string,
  labelIds: string[] | undefined,
  of: "de la audiencia" | "de la regla",
) {
  const wanted = [...new Set(labelIds ?? [])];
  if (wanted.length === 0) return;
  const found = await db
    .select({ id: labels.id })
    .from(labels)
    .where(and(eq(labels.organizationId, organizationId), inJson(labels.id, wanted)));
  if (found.length !== wanted.length) {
    throw new AppError(
      422,
      "unknown_label",
      `Alguna de las etiquetas ${of} no existe en tu organización.`,
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
      id: conversations.id,
      phoneNumber: conversations.phoneNumber,
      waUserId: conversations.waUserId,
      marketingOptedOutAt: conversations.marketingOptedOutAt,
      marketingLimitedUntil: conversations.marketingLimitedUntil,
      undeliverable,
    })
    .from(conversations)
    .where(audienceCondition(organizationId, audience));
}

/**
 * The audience with why each customer is left out: consent (opted out, Meta's 24-hour limit, a
 * country Meta serves no marketing) for a marketing template only; a number Meta reported
 * undeliverable, or the owner's frequency cap reached (decision 0080), for both.
 */
async function screenedAudience(
  db: OrganizationDb,
  organizationId: string,
  broadcast: { audience: AudienceCriteria; category: BroadcastCategory },
  now: number,
) {
  const { marketing_frequency: frequency } = await readMarketingLimits(db, organizationId);
  const [customers, recent] = await Promise.all([
    audienceCustomers(db, organizationId, broadcast.audience),
    recentMarketing(db, organizationId, frequencySince(frequency, now)),
  ]);
  const kind = { marketingTemplate: broadcast.category === "MARKETING", followUp: false };
  return customers.map((customer) => {
    const skip: MarketingExclusion | "frequency" | null =
      marketingRefusal(customer, kind, now) ??
      (customer.undeliverable
        ? "unreachable"
        : (recent.get(customer.id) ?? 0) >= frequency.max
          ? "frequency"
          : null);
    return { customer, skip };
  });
}

/** The audience as a broadcast's recipients: each conversation, and why it is left out (or null). */
export async function audienceRecipients(
  db: OrganizationDb,
  organizationId: string,
  broadcast: { audience: AudienceCriteria; category: BroadcastCategory },
  now = Date.now(),
) {
  const screened = await screenedAudience(db, organizationId, broadcast, now);
  return screened.map(({ customer, skip }) => ({ id: customer.id, skip }));
}

/** Who would receive the broadcast now, who is left out and why, and what Meta would charge. */
export async function previewAudience(
  deps: StoreDeps,
  organizationId: string,
  broadcast: { audience: AudienceCriteria; category: BroadcastCategory },
  now = Date.now(),
): Promise<BroadcastPreview> {
  const [screened, known, currency, marketing] = await Promise.all([
    screenedAudience(deps.orgDb, organizationId, broadcast, now),
    analyticsRates(deps.orgDb, organizationId, broadcast.category),
    organizationCurrency(deps),
    marketingAllowance(deps, organizationId, now),
  ]);
  const skipped: SkippedCounts = { opted_out: 0, limited: 0, unreachable: 0, frequency: 0 };
  const recipientsByCountry = new Map<string, number>();
  let recipients = 0;
  for (const { customer, skip } of screened) {
    if (skip) {
      skipped[skip] += 1;
      continue;
    }
    recipients += 1;
    // "ZZ" as in the analytics: a customer whose country neither identifier tells.
    const country = billingCountry(customer.phoneNumber, customer.waUserId) ?? "ZZ";
    recipientsByCountry.set(country, (recipientsByCountry.get(country) ?? 0) + 1);
  }
  return {
    recipients,
    skipped,
    estimated_cost: estimate(recipientsByCountry, known, broadcast.category, currency),
    marketing,
  };
}

/** Ads listed for the audience's ad criterion, most conversations first. */
const AUDIENCE_ADS_LIMIT = 100;

/**
 * The click-to-WhatsApp ads the organization's conversations came from, with the headline Meta
 * gave and how many conversations each brought: what the ad criterion chooses from, read from
 * the conversations' own index (never from Meta).
 */
export async function audienceAds(
  db: OrganizationDb,
  organizationId: string,
): Promise<AudienceAd[]> {
  const rows = await db
    .select({
      adId: conversations.adId,
      headline: sql<string | null>`max(${conversations.adHeadline})`,
      conversations: sql<number>`count(*)`,
    })
    .from(conversations)
    .where(and(eq(conversations.organizationId, organizationId), isNotNull(conversations.adId)))
    .groupBy(conversations.adId)
    .orderBy(sql`count(*) DESC`, conversations.adId)
    .limit(AUDIENCE_ADS_LIMIT);
  return rows.map((row) => ({
    ad_id: row.adId!,
    headline: row.headline,
    conversations: row.conversations,
  }));
}
