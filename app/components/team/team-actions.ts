/** The team inbox's calls from a conversation: who holds it, its labels, an internal note. */
import { toast } from "sonner";
import { client, data, errorMessage } from "~/lib/api";

const conversation = client.conversations[":id"];

/** Resolves to the updated conversation, or null when the change failed (and says why). */
export async function assignPerson(id: string, assigneeId: string | null) {
  try {
    const updated = await data(
      conversation.$patch({ param: { id }, json: { assignee_id: assigneeId } }),
    );
    toast.success(assigneeId ? "Conversación asignada" : "Conversación sin asignar");
    return updated;
  } catch (error) {
    toast.error("Error asignando la conversación", { description: errorMessage(error) });
    return null;
  }
}

export async function setLabels(id: string, labelIds: string[]) {
  try {
    return await data(conversation.labels.$put({ param: { id }, json: { label_ids: labelIds } }));
  } catch (error) {
    toast.error("Error guardando las etiquetas", { description: errorMessage(error) });
    return null;
  }
}

/** The note as the thread shows it, or null when it could not be saved. */
export async function writeNote(id: string, content: string) {
  try {
    return (await data(conversation.notes.$post({ param: { id }, json: { content } }))).message;
  } catch (error) {
    toast.error("Error guardando la nota", { description: errorMessage(error) });
    return null;
  }
}
