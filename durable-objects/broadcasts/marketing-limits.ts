/**
 * What the owner allows marketing (contract section 17, 2026-11-28; decision 0080): a monthly
 * budget of sends and of their estimated cost, and a cap of marketing messages per customer in
 * a number of days (2 in 7 unless set). Both are counted from the rows the store keeps of every
 * send, never from counters of their own: a broadcast's recipients (one row per customer and
 * broadcast, claimed before Meta is asked) and the follow-ups' sends of a marketing template
 * (one row per wait answered). A claimed send counts until Meta refuses it, so a retry, a
 * restart or a throttled send that goes back to pending is never counted twice nor missed.
 */
import { eq, sql } from "drizzle-orm";
import type { OrganizationDb } from "../db";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError, forbidden } from "../../worker/http/errors";
import type { Member } from "../../worker/http/context";
import { organizationCurrency } from "../organizations/currency";
import { billingCountry } from "../whatsapp/country";
import type {
  BroadcastCategory,
  MarketingAllowanceView,
  MarketingBudget,
  MarketingFrequency,
  MarketingLimits,
} from "../../contracts/broadcasts";
import { DEFAULT_MARKETING_FREQUENCY, marketingLimits } from "../schema";
import { analyticsRates, convertAmount, rateFor } from "./pricing";

const DAY_MS = 24 * 60 * 60_000;

// ---------------------------------------------------------------------------------------------
// The settings.

/** The organization's limits as set, or the defaults (no budget, 2 in 7 days). */
export async function readMarketingLimits(
  db: OrganizationDb,
  organizationId: string,
): Promise<MarketingLimits> {
  const [row] = await db
    .select()
    .from(marketingLimits)
    .where(eq(marketingLimits.organizationId, organizationId));
  const budget: MarketingBudget | null =
    row && row.currency && (row.monthlySends !== null || row.monthlyCost !== null)
      ? { monthly_sends: row.monthlySends, monthly_cost: row.monthlyCost, currency: row.currency }
      : null;
  return {
    marketing_budget: budget,
    marketing_frequency: row
      ? { max: row.frequencyMax, days: row.frequencyDays }
      : { ...DEFAULT_MARKETING_FREQUENCY },
  };
}

/**
 * The owner's change of the limits (`PATCH /organizations/{id}`, which the edge hands to the
 * store with the rest of the request). A budget is in the organization's currency when set.
 */
export async function changeMarketingLimits(
  db: OrganizationDb,
  member: Member,
  change: {
    budget: MarketingBudget | null | undefined;
    frequency: MarketingFrequency | undefined;
    currency: string;
  },
) {
  if (member.role !== "owner") {
    throw forbidden("Solo la persona propietaria puede cambiar el presupuesto de marketing.");
  }
  if (change.budget && change.budget.currency !== change.currency) {
    throw new AppError(
      422,
      "validation_error",
      "Datos inválidos. Verifica la información ingresada.",
      [
        {
          path: "marketing_budget.currency",
          message: `El presupuesto va en la moneda de la organización (${change.currency})`,
        },
      ],
    );
  }
  const budget =
    change.budget === undefined
      ? {}
      : {
          monthlySends: change.budget?.monthly_sends ?? null,
          monthlyCost: change.budget?.monthly_cost ?? null,
          currency: change.budget?.currency ?? null,
        };
  const frequency = change.frequency && {
    frequencyMax: change.frequency.max,
    frequencyDays: change.frequency.days,
  };
  const updatedAt = new Date().toISOString();
  await db
    .insert(marketingLimits)
    .values({ organizationId: member.organizationId, ...budget, ...frequency, updatedAt })
    .onConflictDoUpdate({
      target: marketingLimits.organizationId,
      set: { ...budget, ...frequency, updatedAt },
    });
}

// ---------------------------------------------------------------------------------------------
// The sends that count.

/**
 * Every marketing send of the organization since `since` (one row each: its conversation, the
 * category it is priced at, whether Meta does not bill it): each broadcast recipient Meta took
 * or that is claimed (or was interrupted while Meta was asked), and each follow-up of a
 * marketing template likewise. `conversationId` narrows it to one customer.
 */
function marketingSends(organizationId: string, since: string, conversationId?: string) {
  const oneRecipient = conversationId ? sql`AND r.conversation_id = ${conversationId}` : sql``;
  const oneWait = conversationId ? sql`AND s.conversation_id = ${conversationId}` : sql``;
  return sql`
    SELECT r.conversation_id, b.template_category AS category, 0 AS free
    FROM broadcast_recipients AS r JOIN broadcasts AS b ON b.id = r.broadcast_id
    WHERE r.organization_id = ${organizationId} ${oneRecipient}
      AND (r.sent_at >= ${since} OR (r.sent_at IS NULL AND r.updated_at >= ${since}
        AND (r.state = 'sending' OR r.error_code = 'interrupted')))
    UNION ALL
    SELECT s.conversation_id, 'MARKETING', s.free
    FROM follow_up_sends AS s JOIN follow_ups AS f ON f.id = s.follow_up_id
      LEFT JOIN messages AS m ON m.id = s.message_id
    WHERE s.organization_id = ${organizationId} ${oneWait}
      AND f.template_category = 'MARKETING' AND coalesce(s.sent_at, s.created_at) >= ${since}
      AND (s.state = 'sending' OR s.error_code = 'interrupted'
        OR (m.type = 'template' AND m.wamid IS NOT NULL))`;
}

/** The instant from which the frequency cap counts a customer's marketing. */
export const frequencySince = (frequency: MarketingFrequency, at: number) =>
  new Date(at - frequency.days * DAY_MS).toISOString();

/** How many marketing messages each customer got since `since`, by conversation. */
export async function recentMarketing(db: OrganizationDb, organizationId: string, since: string) {
  const rows = await db.all<{ conversation_id: string; n: number }>(sql`
    SELECT conversation_id, count(*) AS n FROM (${marketingSends(organizationId, since)})
    GROUP BY conversation_id`);
  return new Map(rows.map((row) => [row.conversation_id, row.n]));
}

/** Whether one customer already got the marketing the cap allows in its days. */
export async function overFrequency(
  db: OrganizationDb,
  organizationId: string,
  conversationId: string,
  frequency: MarketingFrequency,
  at = Date.now(),
) {
  const since = frequencySince(frequency, at);
  const [row] = await db.all<{ n: number }>(sql`
    SELECT count(*) AS n FROM (${marketingSends(organizationId, since, conversationId)})`);
  return (row?.n ?? 0) >= frequency.max;
}

// ---------------------------------------------------------------------------------------------
// The month's budget.

/** The first instant of the calendar month (UTC) of `at`. */
const monthStart = (at: number) => {
  const date = new Date(at);
  return new Date(Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1)).toISOString();
};

/** The rates a send is priced at (as the preview estimates), in the organization's currency. */
async function pricingOf(deps: StoreDeps, organizationId: string) {
  const [currency, marketing, utility] = await Promise.all([
    organizationCurrency(deps),
    analyticsRates(deps.orgDb, organizationId, "MARKETING"),
    analyticsRates(deps.orgDb, organizationId, "UTILITY"),
  ]);
  const known = { MARKETING: marketing, UTILITY: utility };
  return {
    currency,
    /** One send's estimated cost; null when no rate can be given in the currency. */
    rate(category: BroadcastCategory, customer: { phone: string | null; userId: string | null }) {
      const country = billingCountry(customer.phone, customer.userId) ?? "ZZ";
      return rateFor(country, category, known[category], currency).rate;
    },
  };
}

/**
 * The organization's limits with what this month used of the budget. Sends are read grouped by
 * what prices them (category, whether free, the identifiers' prefixes that give the country),
 * never one row per send.
 */
async function allowanceAt(deps: StoreDeps, organizationId: string, at: number) {
  const limits = await readMarketingLimits(deps.orgDb, organizationId);
  const budget = limits.marketing_budget;
  if (!budget) return { limits, budget: null };
  const pricing = await pricingOf(deps, organizationId);
  const month = monthStart(at);
  const groups = await deps.orgDb.all<{
    category: BroadcastCategory;
    free: number;
    phone: string | null;
    user_id: string | null;
    n: number;
  }>(sql`
    SELECT s.category, s.free, substr(c.phone_number, 1, 4) AS phone,
      substr(c.wa_user_id, 1, 3) AS user_id, count(*) AS n
    FROM (${marketingSends(organizationId, month)}) AS s
      JOIN conversations AS c ON c.id = s.conversation_id
    GROUP BY 1, 2, 3, 4`);
  let sends = 0;
  let cost: number | null = 0;
  for (const group of groups) {
    sends += group.n;
    if (group.free) continue;
    const rate = pricing.rate(group.category, { phone: group.phone, userId: group.user_id });
    cost = cost === null || rate === null ? null : cost + rate * group.n;
  }
  const costUsed = cost === null ? null : convertAmount(cost, pricing.currency, budget.currency);
  return {
    limits,
    pricing,
    budget: {
      ...budget,
      month: month.slice(0, 7),
      sends_used: sends,
      cost_used: costUsed === null ? null : round(costUsed),
      sends_left: budget.monthly_sends === null ? null : Math.max(0, budget.monthly_sends - sends),
      cost_left:
        budget.monthly_cost === null || costUsed === null
          ? null
          : round(Math.max(0, budget.monthly_cost - costUsed)),
    },
  };
}

const round = (amount: number) => Number(amount.toFixed(2));

/** What the console shows where a broadcast is prepared: the budget left and the cap. */
export async function marketingAllowance(
  deps: StoreDeps,
  organizationId: string,
  at = Date.now(),
): Promise<MarketingAllowanceView> {
  const { limits, budget } = await allowanceAt(deps, organizationId, at);
  return { budget, frequency: limits.marketing_frequency };
}

/** An amount as the refusals say it ("18,45 EUR"). */
export const spanishAmount = (value: number, currency: string) =>
  `${value.toLocaleString("es-ES", { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency}`;
/** A count as the refusals say it. */
export const spanishCount = (value: number) => value.toLocaleString("es-ES");

const budgetRefused = (refusals: { path: string; message: string }[]) =>
  new AppError(
    422,
    "marketing_budget",
    `Esta difusión supera el presupuesto mensual de marketing: ${refusals
      .map((r) => r.message.charAt(0).toLowerCase() + r.message.slice(1))
      .join("; ")}.`,
    refusals,
  );

/**
 * Refuses (422 `marketing_budget`) a broadcast whose recipients or estimated cost would pass
 * what is left of the month's budget, saying the figures. A cost cap with a cost that cannot
 * be estimated in the budget's currency is refused too: a cap nobody can check is no cap.
 */
export function assertWithinBudget(
  { budget }: MarketingAllowanceView,
  broadcast: { recipients: number; cost: number | null; currency: string },
) {
  if (!budget) return;
  const refusals = [];
  if (budget.sends_left !== null && broadcast.recipients > budget.sends_left) {
    refusals.push({
      path: "monthly_sends",
      message: `Tiene ${spanishCount(broadcast.recipients)} destinatarios y quedan ${spanishCount(budget.sends_left)} envíos de ${spanishCount(budget.monthly_sends!)} este mes`,
    });
  }
  if (budget.monthly_cost !== null) {
    const cost =
      broadcast.cost === null
        ? null
        : convertAmount(broadcast.cost, broadcast.currency, budget.currency);
    if (cost === null || budget.cost_left === null) {
      refusals.push({
        path: "monthly_cost",
        message: `No se puede estimar su coste en ${budget.currency} para compararlo con el presupuesto`,
      });
    } else if (cost > budget.cost_left) {
      refusals.push({
        path: "monthly_cost",
        message: `Costaría unos ${spanishAmount(cost, budget.currency)} y quedan ${spanishAmount(budget.cost_left, budget.currency)} de ${spanishAmount(budget.monthly_cost, budget.currency)} este mes`,
      });
    }
  }
  if (refusals.length > 0) throw budgetRefused(refusals);
}

/** Refuses (422) going on with a broadcast once the month's budget is spent. */
export function assertBudgetLeft({ budget }: MarketingAllowanceView) {
  if (!budget) return;
  const spent = [];
  if (budget.sends_left === 0) {
    spent.push({
      path: "monthly_sends",
      message: `Ya se usaron los ${spanishCount(budget.monthly_sends!)} envíos de este mes`,
    });
  }
  if (budget.monthly_cost !== null && (budget.cost_left === null || budget.cost_left <= 0)) {
    spent.push({
      path: "monthly_cost",
      message: `Ya se gastaron los ${spanishAmount(budget.monthly_cost, budget.currency)} de este mes`,
    });
  }
  if (spent.length > 0) throw budgetRefused(spent);
}

/**
 * The budget a run of sends may still use, taken a send at a time before Meta is asked (the
 * run's sends are in flight together; JavaScript takes each without a gap). `take` answers
 * false once a send would pass it: the send stays pending and the budget is `reached`.
 */
export interface RunBudget {
  take(
    category: BroadcastCategory,
    customer: { phone: string | null; userId: string | null },
    free?: boolean,
  ): boolean;
  reached: boolean;
}

/** A run's budget, from what this month used until now. */
export async function runBudget(
  deps: StoreDeps,
  organizationId: string,
  at: number,
): Promise<RunBudget> {
  const allowance = await allowanceAt(deps, organizationId, at);
  // No budget: nothing to take (and nothing priced).
  if (!allowance.budget) return { reached: false, take: () => true };
  const { budget, pricing } = allowance;
  let sendsLeft = budget.sends_left ?? Infinity;
  let costLeft: number | null = budget.monthly_cost === null ? Infinity : budget.cost_left;
  const run: RunBudget = {
    reached: sendsLeft <= 0 || costLeft === null || costLeft <= 0,
    take(category, customer, free = false) {
      if (run.reached) return false;
      const rate = free || costLeft === Infinity ? 0 : pricing.rate(category, customer);
      const cost = rate === null ? null : convertAmount(rate, pricing.currency, budget.currency);
      if (sendsLeft < 1 || cost === null || costLeft === null || cost > costLeft) {
        run.reached = true;
        return false;
      }
      sendsLeft -= 1;
      costLeft -= cost;
      return true;
    },
  };
  return run;
}
