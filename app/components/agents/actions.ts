/** What the agents screen changes, as its route action does it (app/routes/agents.tsx). */
import { toastDone, toastFailed } from "~/lib/outcome";
import { client } from "~/lib/api";
import { serverFieldErrors, type FieldErrors } from "~/lib/forms";
import type { Agent } from "../../../worker/agents/contract";

/** An agent as its dialog edits it, and as the create and update calls send it. */
export type AgentFormValues = Pick<
  Agent,
  | "name"
  | "model"
  | "temperature"
  | "system_prompt"
  | "is_active"
  | "can_mark_leads"
  | "mode"
  | "knowledge_ids"
>;

/** What a fetcher submits to the agents route (as JSON). */
export type AgentChange =
  | { intent: "create"; values: AgentFormValues }
  | { intent: "update"; id: string; values: AgentFormValues }
  | { intent: "delete"; id: string };

export type AgentActionResult =
  | { ok: true; intent: AgentChange["intent"] }
  | { ok: false; intent: AgentChange["intent"]; fieldErrors: FieldErrors };

/** The spec's toasts, per change. */
const TOASTS = {
  create: { success: "Agente creado correctamente", failure: "Error al crear agente" },
  update: { success: "Agente actualizado correctamente", failure: "Error al actualizar agente" },
  delete: { success: "Agente eliminado correctamente", failure: "Error al eliminar agente" },
} as const;

const agent = client.agents[":id"];

function perform(change: AgentChange) {
  switch (change.intent) {
    case "create":
      return client.agents.$post({ json: { ...change.values, is_active: true } });
    case "update":
      return agent.$patch({ param: { id: change.id }, json: change.values });
    case "delete":
      return agent.$delete({ param: { id: change.id } });
  }
}

/** Makes the change and says how it went (toast); a refusal brings its per-field messages. */
export async function agentAction(change: AgentChange): Promise<AgentActionResult> {
  const toasts = TOASTS[change.intent];
  try {
    await perform(change);
    toastDone(toasts.success);
    return { ok: true, intent: change.intent };
  } catch (error) {
    toastFailed(toasts.failure, error);
    return { ok: false, intent: change.intent, fieldErrors: serverFieldErrors(error) };
  }
}
