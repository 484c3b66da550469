/** The team inbox's calls from a conversation: who holds it, its labels, an internal note. */
import { toastDone, toastFailed } from "~/lib/outcome";
import { client, data } from "~/lib/api";

const conversation = client.conversations[":id"];

/** Resolves to the updated conversation, or null when the change failed (and says why). */
export async function assignPerson(id: string, assigneeId: string | null) {
  try {
    const updated = await data(
      conversation.$patch({ param: { id }, json: { assignee_id: assigneeId } }),
    );
    toastDone(assigneeId ? "Conversación asignada" : "Conversación sin asignar");
    return updated;
  } catch (error) {
    toastFailed("Error asignando la conversación", error);
    return null;
  }
}

export async function setLabels(id: string, labelIds: string[]) {
  try {
    return await data(conversation.labels.$put({ param: { id }, json: { label_ids: labelIds } }));
  } catch (error) {
    toastFailed("Error guardando las etiquetas", error);
    return null;
  }
}

/** The note as the thread shows it, or null when it could not be saved. */
export async function writeNote(id: string, content: string) {
  try {
    return (await data(conversation.notes.$post({ param: { id }, json: { content } }))).message;
  } catch (error) {
    toastFailed("Error guardando la nota", error);
    return null;
  }
}
