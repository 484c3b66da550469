/**
 * The agents screen's writes and the sandbox's test ("Probar agente", also on the agent chats),
 * made by the routes' `clientAction` (decision 0105).
 */
import { toastDone, toastFailed } from "~/lib/outcome";
import { client, data, errorMessage } from "~/lib/api";
import { serverFieldErrors } from "~/lib/forms";
import {
  type AgentChange,
  type AgentActionResult,
  type AgentTest,
  type AgentTestResult,
} from "~/components/agents/actions";

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

/** "Probar agente": the agent answers the transcript; a refusal is said in the sandbox. */
export async function agentTestAction({ id, messages }: AgentTest): Promise<AgentTestResult> {
  try {
    const answer = await data(agent.test.$post({ param: { id }, json: { messages } }));
    return { ok: true, intent: "test", answer };
  } catch (error) {
    return { ok: false, intent: "test", message: errorMessage(error) };
  }
}

/** The agents route's action: a change of an agent, or a test of one. */
export async function agentsClientAction({ request }: { request: Request }) {
  const change = (await request.json()) as AgentChange | AgentTest;
  return change.intent === "test" ? agentTestAction(change) : agentAction(change);
}
