/**
 * Each organization's monthly allowance of model tokens. Every model call on its behalf (auto
 * replies, drafts, the sandbox, transcriptions) asks first and adds what it spent after, so one
 * tenant cannot run up the platform's AI bill. Past it, nothing is asked of the model and the
 * team (never the customer) is told (docs/decisions/0029).
 */
import { and, eq, sql } from "drizzle-orm";
import type { OrganizationDb } from "../db";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError } from "../../worker/http/errors";
import { aiCalls, aiUsage, conversationAiCalls } from "../schema";
import type { Completion } from "./client";
import type { AiUsage } from "../../contracts/agents";

/**
 * Model calls one customer's conversation may cause in an hour (replies, an agent's drafts,
 * transcriptions). Within an organization a customer has one conversation, so this bounds
 * the sender too: a chatty or hostile customer cannot spend the organization's month
 * (docs/decisions/0041).
 */
export const AI_CALLS_PER_CONVERSATION_HOUR = 40;
const CONVERSATION_AI_WINDOW_MS = 3_600_000;

/** Why the AI stopped in a conversation for the hour: the team reads it in the thread. */
export const CONVERSATION_AI_LIMIT_REACHED = `Este cliente ha llegado al máximo de ${AI_CALLS_PER_CONVERSATION_HOUR} respuestas y transcripciones de la IA por hora.`;

/**
 * Takes one of the conversation's model calls for this hour; false when none is left. The
 * window is the organization's data, counted in its store in one upsert (decision 0137): a
 * window that ended starts again at 1, else it counts one more.
 */
export async function takeConversationAiCall(
  orgDb: OrganizationDb,
  organizationId: string,
  conversationId: string,
  now = Date.now(),
) {
  const resetAt = now + CONVERSATION_AI_WINDOW_MS;
  const { count: calls, resetAt: windowEnd } = conversationAiCalls;
  const [row] = await orgDb
    .insert(conversationAiCalls)
    .values({ conversationId, organizationId, count: 1, resetAt })
    .onConflictDoUpdate({
      target: conversationAiCalls.conversationId,
      set: {
        count: sql`CASE WHEN ${windowEnd} <= ${now} THEN 1 ELSE ${calls} + 1 END`,
        resetAt: sql`CASE WHEN ${windowEnd} <= ${now} THEN ${resetAt} ELSE ${windowEnd} END`,
      },
    })
    .returning({ count: calls });
  return !row || row.count <= AI_CALLS_PER_CONVERSATION_HOUR;
}

/** Calendar month in UTC, "YYYY-MM": the budget starts again on the 1st. */
export const usageMonth = (now = new Date()) => now.toISOString().slice(0, 7);

/** The month's tokens (the organization's data) against its budget (its global settings). */
export async function readAiUsage(
  { facts, orgDb }: StoreDeps,
  organizationId: string,
  now = new Date(),
) {
  const month = usageMonth(now);
  const [{ organization }, usage] = await Promise.all([
    facts(),
    orgDb.query.aiUsage.findFirst({
      where: and(eq(aiUsage.organizationId, organizationId), eq(aiUsage.month, month)),
    }),
  ]);
  return {
    month,
    tokens_used: usage?.tokensUsed ?? 0,
    budget: organization?.aiMonthlyTokenBudget ?? 0,
  } satisfies AiUsage;
}

/**
 * Whether the organization may still call the model this month. When it may not, its console
 * hears `ai_budget_exhausted` with the month's figures (the console shows one notice a month).
 */
export async function checkAiBudget(deps: StoreDeps, organizationId: string) {
  const usage = await readAiUsage(deps, organizationId);
  if (usage.tokens_used < usage.budget) return true;
  await deps.publish({ type: "ai_budget_exhausted", data: usage });
  return false;
}

/** For calls a member makes (the sandbox, "Sugerir respuesta"): past the budget, 402. */
export async function requireAiBudget(deps: StoreDeps, organizationId: string) {
  if (!(await checkAiBudget(deps, organizationId))) {
    throw new AppError(
      402,
      "ai_budget_exhausted",
      "Se agotó el presupuesto mensual de IA de la organización. La persona propietaria puede ampliarlo en Configuración; se renueva el día 1 de cada mes.",
    );
  }
}

/** Whether the organization may still call the model this month. */
export async function hasAiBudget(deps: StoreDeps, organizationId: string) {
  const usage = await readAiUsage(deps, organizationId);
  return usage.tokens_used < usage.budget;
}

/** Adds a call's tokens to the month's tally (one upsert, safe under concurrent calls). */
export async function addAiUsage(
  db: OrganizationDb,
  organizationId: string,
  usage: { promptTokens: number | null; completionTokens: number | null },
) {
  const tokens = (usage.promptTokens ?? 0) + (usage.completionTokens ?? 0);
  if (tokens <= 0) return;
  await db
    .insert(aiUsage)
    .values({ organizationId, month: usageMonth(), tokensUsed: tokens })
    .onConflictDoUpdate({
      target: [aiUsage.organizationId, aiUsage.month],
      set: { tokensUsed: sql`${aiUsage.tokensUsed} + ${tokens}` },
    });
}

type CallOf = Pick<
  typeof aiCalls.$inferInsert,
  "organizationId" | "agentId" | "conversationId" | "model"
>;

/**
 * The record of one kind of model call: each answer adds its tokens to the month's tally and
 * leaves a row in `ai_calls` (what the agents cost and do); each failure leaves its reason.
 */
export function aiCallLog(db: OrganizationDb, call: CallOf) {
  return {
    async answered(outcome: string, result: Pick<Completion, "usage" | "latencyMs">) {
      await addAiUsage(db, call.organizationId, result.usage);
      await db.insert(aiCalls).values({
        ...call,
        outcome,
        promptTokens: result.usage.promptTokens,
        completionTokens: result.usage.completionTokens,
        latencyMs: result.latencyMs,
      });
    },
    failed: (error: string) =>
      db.insert(aiCalls).values({ ...call, outcome: "failed", latencyMs: 0, error }),
  };
}
