import { toast } from "sonner";
import type { Conversation, ConversationStatus } from "../../../worker/conversations/contract";
import { api, errorMessage } from "~/lib/api";

/** Status and assignment changes, with the spec's toasts; resolve to the updated conversation. */
export async function changeStatus(id: string, status: ConversationStatus) {
  try {
    const updated = await api.patch<Conversation>(`/conversations/${id}`, { status });
    toast.success("Conversación actualizada");
    return updated;
  } catch (error) {
    toast.error("Error actualizando conversación", { description: errorMessage(error) });
    return null;
  }
}

export async function changeAgent(id: string, agentId: string | null) {
  try {
    const updated = agentId
      ? await api.patch<Conversation>(`/conversations/${id}/assign`, { agent_id: agentId })
      : await api.patch<Conversation>(`/conversations/${id}/unassign`);
    toast.success(agentId ? "Agente asignado" : "Agente desasignado");
    return updated;
  } catch (error) {
    toast.error(agentId ? "Error asignando agente" : "Error desasignando agente", {
      description: errorMessage(error),
    });
    return null;
  }
}
