/**
 * What WhatsApp messages cost (server-contract §13): Meta's pricing analytics of the
 * organization's own number (a WhatsApp Business Account may hold other organizations'
 * numbers), kept per organization, day, category and country like ad spend. A billable
 * message costs its day's `cost / volume` for its category and its customer's country; the
 * month's total is what Meta reports.
 */
import { and, between, eq, inArray, sql } from "drizzle-orm";
import { orgBatch, type OrganizationDb } from "../db";
import { messageCosts, messageCostSyncs } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { connectedSender } from "../whatsapp/connection-service";
import { pricingCategoryOf } from "../../contracts/whatsapp";
import { billingCountry } from "../whatsapp/country";
import { chunks, DAY_MS, staleSpan } from "./daily-figures";
import { refreshFigures } from "./daily-figures";

/** Rows per insert (D1 takes at most 100 bound parameters per statement). */
const COST_ROWS_PER_STATEMENT = 14;

const NO_NUMBER =
  "No se conoce el número de WhatsApp conectado: vuelve a conectarlo para ver lo que cuestan sus mensajes.";

const unixDay = (day: string) => Date.parse(`${day}T00:00:00Z`) / 1000;

export interface CostRefresh {
  /** Whether a WhatsApp number is connected (no number, no costs to read). */
  connected: boolean;
  /** Why fresh figures are missing, in Spanish (Meta's refusal, a limit). */
  error?: string;
}

/**
 * Reads from Meta the costs of the organization's number for the days in [from, to] not known
 * yet (or still moving) and keeps them: only billed data points (`REGULAR`; the free types
 * cost nothing).
 */
export async function refreshMessageCosts(
  deps: StoreDeps,
  member: Member,
  from: string,
  to: string,
  now: number,
): Promise<CostRefresh> {
  const { organizationId } = member;
  const sender = await connectedSender(deps, organizationId);
  if (!sender) return { connected: false };
  // Meta names a number in analytics by its digits; without it the whole account would be read.
  const phoneNumber = sender.connection.phoneNumber?.replace(/\D/g, "");
  if (!phoneNumber) return { connected: true, error: NO_NUMBER };
  const synced = await deps.orgDb
    .select()
    .from(messageCostSyncs)
    .where(
      and(
        eq(messageCostSyncs.organizationId, organizationId),
        between(messageCostSyncs.day, from, to),
      ),
    );
  const span = staleSpan(from, to, synced, now);
  if (!span) return { connected: true };

  const fetchedAt = new Date(now).toISOString();
  const { error } = await refreshFigures(deps, member, {
    name: "costs",
    span,
    now,
    rowsPerStatement: COST_ROWS_PER_STATEMENT,
    async read(call) {
      const answer = await call(() =>
        sender.graph.pricingAnalytics(
          sender.connection.businessAccountId,
          phoneNumber,
          unixDay(span.since),
          unixDay(span.until) + DAY_MS / 1000,
        ),
      );
      const totals = new Map<string, typeof messageCosts.$inferInsert>();
      for (const series of answer.pricing_analytics?.data ?? []) {
        for (const point of series.data_points ?? []) {
          const category = pricingCategoryOf(point.pricing_category);
          const billed = String(point.pricing_type ?? "").toUpperCase() === "REGULAR";
          const volume = Number(point.volume);
          const cost = Number(point.cost);
          if (!category || !billed || typeof point.start !== "number") continue;
          if (!Number.isFinite(volume) || !Number.isFinite(cost) || volume <= 0 || cost < 0)
            continue;
          const day = new Date(point.start * 1000).toISOString().slice(0, 10);
          const country = /^[A-Z]{2}$/.test(point.country ?? "") ? point.country! : "ZZ";
          const key = `${day}|${category}|${country}`;
          const row = totals.get(key) ?? {
            organizationId,
            day,
            category,
            country,
            volume: 0,
            cost: 0,
            fetchedAt,
          };
          row.volume += volume;
          row.cost += cost;
          totals.set(key, row);
        }
      }
      return [...totals.values()];
    },
    replace: (days, rows) => [
      deps.orgDb
        .delete(messageCosts)
        .where(
          and(eq(messageCosts.organizationId, organizationId), inArray(messageCosts.day, days)),
        ),
      ...chunks(rows, COST_ROWS_PER_STATEMENT).map((chunk) =>
        deps.orgDb.insert(messageCosts).values(chunk),
      ),
      deps.orgDb
        .insert(messageCostSyncs)
        .values(days.map((day) => ({ organizationId, day, fetchedAt })))
        .onConflictDoUpdate({
          target: [messageCostSyncs.organizationId, messageCostSyncs.day],
          set: { fetchedAt },
        }),
    ],
  });
  return { connected: true, ...(error && { error }) };
}

/**
 * Unit costs kept for [from, to]: by day, category and country, and by day and category over
 * every country (for a customer whose country cannot be told).
 */
async function unitCosts(db: OrganizationDb, organizationId: string, from: string, to: string) {
  const rows = await db
    .select()
    .from(messageCosts)
    .where(
      and(eq(messageCosts.organizationId, organizationId), between(messageCosts.day, from, to)),
    );
  const exact = new Map<string, number>();
  const perCategory = new Map<string, { volume: number; cost: number }>();
  for (const row of rows) {
    exact.set(`${row.day}|${row.category}|${row.country}`, row.cost / row.volume);
    const all = perCategory.get(`${row.day}|${row.category}`) ?? { volume: 0, cost: 0 };
    all.volume += row.volume;
    all.cost += row.cost;
    perCategory.set(`${row.day}|${row.category}`, all);
  }
  return (day: string, category: string, country: string | null) => {
    const unit = country === null ? undefined : exact.get(`${day}|${category}|${country}`);
    if (unit !== undefined) return unit;
    const all = perCategory.get(`${day}|${category}`);
    return all ? all.cost / all.volume : null;
  };
}

/** Billable messages grouped as they are priced, with the key they are reported under. */
export interface BilledMessages {
  key: string;
  day: string;
  category: string | null;
  phone_number: string | null;
  wa_user_id: string | null;
  messages: number;
}

/**
 * The cost of each key's billable messages: null for a key with a message Meta has not
 * priced yet (its day not read, or no figure for its category).
 */
export async function costOfMessages(
  db: OrganizationDb,
  organizationId: string,
  from: string,
  to: string,
  billed: BilledMessages[],
) {
  const unitCost = await unitCosts(db, organizationId, from, to);
  const costs = new Map<string, number | null>();
  for (const row of billed) {
    const before = costs.get(row.key);
    if (before === null) continue;
    const unit = row.category
      ? unitCost(row.day, row.category, billingCountry(row.phone_number, row.wa_user_id))
      : null;
    costs.set(row.key, unit === null ? null : (before ?? 0) + unit * Number(row.messages));
  }
  return costs;
}

/** What the organization's messages cost in [from, to], by category, as Meta reports it. */
export async function messageCostSummary(
  deps: StoreDeps,
  member: Member,
  range: { from: string; to: string },
  now: number,
) {
  const { organizationId } = member;
  const refresh = await refreshMessageCosts(deps, member, range.from, range.to, now);
  const filter = and(
    eq(messageCosts.organizationId, organizationId),
    between(messageCosts.day, range.from, range.to),
  );
  const { orgDb } = deps;
  const [byCategory, readDays] = await orgBatch(orgDb, [
    orgDb
      .select({
        category: messageCosts.category,
        cost: sql<number>`sum(${messageCosts.cost})`,
        messages: sql<number>`sum(${messageCosts.volume})`,
      })
      .from(messageCosts)
      .where(filter)
      .groupBy(messageCosts.category),
    orgDb
      .select({ n: sql<number>`count(*)` })
      .from(messageCostSyncs)
      .where(
        and(
          eq(messageCostSyncs.organizationId, organizationId),
          between(messageCostSyncs.day, range.from, range.to),
        ),
      ),
  ]);
  const readable = refresh.connected && (readDays[0]?.n ?? 0) > 0;
  return {
    total: readable ? byCategory.reduce((sum, row) => sum + Number(row.cost), 0) : null,
    billable_messages: byCategory.reduce((sum, row) => sum + Number(row.messages), 0),
    by_category: Object.fromEntries(byCategory.map((row) => [row.category, Number(row.cost)])),
    ...(refresh.error && { error: refresh.error }),
  };
}
