/**
 * The monthly AI budget at the door of every model call an agent makes: past it, nothing is
 * asked of the model, and the team (never the customer) is told (docs/decisions/0029).
 */
import { readAiUsage } from "../ai/budget";
import type { Deps } from "../http/deps";
import { AppError } from "../http/errors";
import { publish } from "../realtime/publish";

/**
 * Whether the organization may still call the model this month. When it may not, its console
 * hears `ai_budget_exhausted` with the month's figures (the console shows one notice a month).
 */
export async function checkAiBudget(deps: Deps, organizationId: string) {
  const usage = await readAiUsage(deps.db, organizationId);
  if (usage.tokens_used < usage.budget) return true;
  await publish(deps.env, organizationId, { type: "ai_budget_exhausted", data: usage });
  return false;
}

/** For calls a member makes (the sandbox, "Sugerir respuesta"): past the budget, 402. */
export async function requireAiBudget(deps: Deps, organizationId: string) {
  if (!(await checkAiBudget(deps, organizationId))) {
    throw new AppError(
      402,
      "ai_budget_exhausted",
      "Se agotó el presupuesto mensual de IA de la organización. La persona propietaria puede ampliarlo en Configuración; se renueva el día 1 de cada mes.",
    );
  }
}
