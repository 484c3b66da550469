/** The broadcasts screen's writes, made by its route's `clientAction` (decision 0105). */
import { toastDone, toastFailed } from "~/lib/outcome";
import type { Broadcast } from "../../contracts/broadcasts";
import { client, data } from "~/lib/api";
import { refusalOf } from "~/lib/forms";
import { live } from "~/lib/live-store";
import { type BroadcastChange, type BroadcastActionResult } from "~/components/broadcasts/actions";

const FAILURES: Record<BroadcastChange["intent"], string> = {
  create: "Error al guardar la difusión",
  update: "Error al guardar la difusión",
  delete: "Error al eliminar la difusión",
  send: "No se pudo enviar la difusión",
  pause: "No se pudo pausar la difusión",
  resume: "No se pudo reanudar la difusión",
  cancel: "No se pudo cancelar la difusión",
};

const one = client.broadcasts[":id"];

async function perform(change: BroadcastChange): Promise<Broadcast | null> {
  const param = "id" in change ? { id: change.id } : { id: "" };
  switch (change.intent) {
    case "create":
      return data(client.broadcasts.$post({ json: change.values }));
    case "update":
      return data(one.$patch({ param, json: change.values }));
    case "delete":
      await data(one.$delete({ param }));
      return null;
    case "send":
      return data(one.send.$post({ param, json: change.confirm }));
    case "pause":
      return data(one.pause.$post({ param }));
    case "resume":
      return data(one.resume.$post({ param }));
    case "cancel":
      return data(one.cancel.$post({ param }));
  }
}

/** What the toast says once the change is made. */
function success(change: BroadcastChange, broadcast: Broadcast | null) {
  switch (change.intent) {
    case "create":
      return "Difusión guardada como borrador";
    case "update":
      return "Difusión guardada";
    case "delete":
      return "Difusión eliminada";
    case "send":
      return broadcast?.status === "scheduled"
        ? "Difusión programada"
        : "La difusión se está enviando";
    case "pause":
      return "Difusión en pausa";
    case "resume":
      return "Difusión reanudada";
    case "cancel":
      return "Difusión cancelada";
  }
}

/**
 * Makes the change and says how it went (toast); the broadcast the API answered is recorded in
 * the live store, so the screen never shows an older copy after it. A refusal brings the
 * server's per-field messages.
 */
export async function broadcastAction(change: BroadcastChange): Promise<BroadcastActionResult> {
  try {
    const answered = await perform(change);
    const broadcast = answered && live.broadcast(answered);
    toastDone(success(change, broadcast));
    return { ok: true, intent: change.intent, broadcast };
  } catch (error) {
    toastFailed(FAILURES[change.intent], error);
    return { ...refusalOf(error), intent: change.intent };
  }
}
