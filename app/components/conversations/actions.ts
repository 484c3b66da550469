import { toastDone, toastFailed } from "~/lib/outcome";
import {
  type ConversationStatus,
  type ConversationUpdateInput,
  type Message,
} from "../../../worker/conversations/contract";
import type { TemplateToSend } from "./template-picker";
import { client, data } from "~/lib/api";
import { live } from "~/lib/live-store";

const conversation = client.conversations[":id"];

/**
 * Status, stage, priority and contact name changes, with the spec's toasts; resolve to the
 * updated conversation (null when the change failed).
 */
export async function updateConversation(id: string, changes: ConversationUpdateInput) {
  try {
    const updated = await data(conversation.$patch({ param: { id }, json: changes }));
    toastDone("Conversación actualizada");
    return updated;
  } catch (error) {
    toastFailed("Error actualizando conversación", error);
    return null;
  }
}

export const changeStatus = (id: string, status: ConversationStatus) =>
  updateConversation(id, { status });

export async function changeAgent(id: string, agentId: string | null) {
  try {
    const updated = agentId
      ? await data(conversation.assign.$patch({ param: { id }, json: { agent_id: agentId } }))
      : await data(conversation.unassign.$patch({ param: { id } }));
    toastDone(agentId ? "Agente asignado" : "Agente desasignado");
    return updated;
  } catch (error) {
    toastFailed(agentId ? "Error asignando agente" : "Error desasignando agente", error);
    return null;
  }
}

/**
 * What the team sends in a conversation (text, template, file, reaction), with the spec's
 * toasts. Each stored message goes to `onStored` (the realtime event may bring it too: lists
 * keep messages by id), or the newer copy an event brought while the call travelled.
 */
export function replyActions(conversationId: string, onStored: (message: Message) => void) {
  async function stored(call: () => Promise<Message>) {
    const asked = live.mark();
    const answer = await call();
    const message = live.messageSince(answer.id, asked) ?? answer;
    onStored(message);
    return message;
  }

  async function deliver(
    post: () => Promise<Message>,
    texts: { success: string; failure: string },
  ) {
    try {
      const message = await stored(post);
      if (message.status === "failed") toastFailed(texts.failure, message.error ?? undefined);
      else toastDone(texts.success);
      return true;
    } catch (error) {
      toastFailed(texts.failure, error);
      return false;
    }
  }

  return {
    /** `fromDraft`: the text is the AI's suggestion, maybe edited ("Sugerido por IA"). */
    send: (content: string, fromDraft = false) =>
      deliver(
        () =>
          data(
            client.conversations.messages.$post({
              json: {
                conversation_id: conversationId,
                content,
                ...(fromDraft && { from_draft: true }),
              },
            }),
          ),
        { success: "Mensaje enviado", failure: "Error al enviar el mensaje" },
      ),
    sendTemplate: (template: TemplateToSend) =>
      deliver(
        () =>
          data(
            client.conversations.messages.$post({
              json: { conversation_id: conversationId, template },
            }),
          ),
        { success: "Plantilla enviada", failure: "Error al enviar la plantilla" },
      ),
    sendFile: (file: File, caption: string) => {
      const form = { file, ...(caption && { caption }) };
      const upload = () => data(conversation.media.$post({ param: { id: conversationId }, form }));
      return deliver(upload, {
        success: "Archivo enviado",
        failure: "Error al enviar el archivo",
      });
    },
    /** "Pedir teléfono": WhatsApp's button for a customer known only by their username. */
    requestPhone: () =>
      deliver(() => data(conversation["request-phone"].$post({ param: { id: conversationId } })), {
        success: "Teléfono solicitado al cliente",
        failure: "No se pudo pedir el teléfono",
      }),
    /** "Reintentar" on a failed message: the server sends the same message again. */
    retry: (message: Message) =>
      deliver(
        () =>
          data(
            conversation.messages[":messageId"].retry.$post({
              param: { id: conversationId, messageId: message.id },
            }),
          ),
        { success: "Mensaje enviado", failure: "No se pudo reenviar el mensaje" },
      ),
    /** "Reintentar transcripción": the voice note shows "Transcribiendo…" until the words come. */
    retryTranscript: async (message: Message) => {
      try {
        await stored(() =>
          data(
            conversation.messages[":messageId"].transcript.$post({
              param: { id: conversationId, messageId: message.id },
            }),
          ),
        );
      } catch (error) {
        toastFailed("No se pudo reintentar la transcripción", error);
      }
    },
    react: async (message: Message, emoji: string) => {
      try {
        await stored(() =>
          data(
            conversation.messages[":messageId"].reaction.$post({
              param: { id: conversationId, messageId: message.id },
              json: { emoji },
            }),
          ),
        );
      } catch (error) {
        toastFailed("Error al enviar la reacción", error);
      }
    },
  };
}

export type ReplyActions = ReturnType<typeof replyActions>;

/** "Reanudar IA": the AI answers again in a conversation someone answered from the phone. */
export async function resumeAi(id: string) {
  try {
    const updated = await data(conversation["resume-ai"].$post({ param: { id } }));
    toastDone("La IA vuelve a responder");
    return updated;
  } catch (error) {
    toastFailed("No se pudo reanudar la IA", error);
    return null;
  }
}

/** "Devolver a la IA de Meta": Meta's own AI answers this customer again (thread control). */
export async function returnToMetaAi(id: string) {
  try {
    const updated = await data(conversation["return-to-meta-ai"].$post({ param: { id } }));
    toastDone("Conversación devuelta a la IA de Meta");
    return updated;
  } catch (error) {
    toastFailed("No se pudo devolver a la IA de Meta", error);
    return null;
  }
}
