/** The follow-ups screen's writes, made by its route's `clientAction` (decision 0105). */
import { toastDone, toastFailed } from "~/lib/outcome";
import type { FollowUp } from "../../contracts/follow-ups";
import { client, data } from "~/lib/api";
import { refusalOf } from "~/lib/forms";
import { type FollowUpChange, type FollowUpActionResult } from "~/components/follow-ups/actions";

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
