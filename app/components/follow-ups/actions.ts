/**
 * What the Seguimientos screens change, as their routes' actions do it (routes/follow-ups,
 * follow-ups-new, follow-ups-edit): each change is an intent sent as JSON by a fetcher, one
 * call, one toast. React Router reads the screen again after it.
 */
import { toastDone, toastFailed } from "~/lib/outcome";
import type { FollowUp } from "../../../worker/follow-ups/contract";
import type { ConversationStage } from "../../../worker/sales/contract";
import { client, data } from "~/lib/api";
import { refusalOf, type Refusal } from "~/lib/forms";

/** A rule as its form sends it (a type, not an interface: it travels as JSON). */
export type FollowUpBody = {
  name: string;
  enabled: boolean;
  trigger: { no_reply_minutes: number; label_ids: string[]; stages: ConversationStage[] };
  template: { name: string; language: string; parameters: string[] } | null;
  text: string | null;
  max_per_conversation: number;
};

export type FollowUpChange =
  | { intent: "create"; values: FollowUpBody }
  | { intent: "update"; id: string; values: FollowUpBody }
  /** The list's switch. */
  | { intent: "enable"; id: string; enabled: boolean }
  | { intent: "delete"; id: string };

export type FollowUpActionResult =
  | { ok: true; intent: FollowUpChange["intent"]; followUp: FollowUp | null }
  | (Refusal & { intent: FollowUpChange["intent"] });

const rules = client["follow-ups"];
const rule = rules[":id"];

async function perform(change: FollowUpChange): Promise<FollowUp | null> {
  if (change.intent === "create") return data(rules.$post({ json: change.values }));
  const param = { id: change.id };
  switch (change.intent) {
    case "update":
      return data(rule.$patch({ param, json: change.values }));
    case "enable":
      return data(rule.$patch({ param, json: { enabled: change.enabled } }));
    case "delete":
      await data(rule.$delete({ param }));
      return null;
  }
}

/** What the toasts say: when it is done, and when it is not. */
function says(change: FollowUpChange): { done: string; failed: string } {
  switch (change.intent) {
    case "create":
      return { done: "Seguimiento creado", failed: "Error al crear el seguimiento" };
    case "update":
      return { done: "Seguimiento guardado", failed: "Error al guardar el seguimiento" };
    case "enable":
      return change.enabled
        ? { done: "Seguimiento activado", failed: "No se pudo activar el seguimiento" }
        : { done: "Seguimiento desactivado", failed: "No se pudo desactivar el seguimiento" };
    case "delete":
      return { done: "Seguimiento eliminado", failed: "Error al eliminar el seguimiento" };
  }
}

/** Makes the change and says how it went; a refusal brings the server's per-field messages. */
export async function followUpAction(change: FollowUpChange): Promise<FollowUpActionResult> {
  const { done, failed } = says(change);
  try {
    const followUp = await perform(change);
    toastDone(done);
    return { ok: true, intent: change.intent, followUp };
  } catch (error) {
    toastFailed(failed, error);
    return { ...refusalOf(error), intent: change.intent };
  }
}
