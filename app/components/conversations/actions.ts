import { toast } from "sonner";
import {
  MESSAGE_PAGE_SIZE,
  type ConversationStatus,
  type ConversationUpdateInput,
  type Message,
} from "../../../worker/conversations/contract";
import type { TemplateToSend } from "./template-picker";
import { client, data, errorMessage } from "~/lib/api";
import { live } from "~/lib/live-store";

const conversation = client.conversations[":id"];

/**
 * Status, stage, priority and contact name changes, with the spec's toasts; resolve to the
 * updated conversation (null when the change failed).
 */
export async function updateConversation(id: string, changes: ConversationUpdateInput) {
  try {
    const updated = await data(conversation.$patch({ param: { id }, json: changes }));
    toast.success("Conversación actualizada");
    return updated;
  } catch (error) {
    toast.error("Error actualizando conversación", { description: errorMessage(error) });
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
    toast.success(agentId ? "Agente asignado" : "Agente desasignado");
    return updated;
  } catch (error) {
    toast.error(agentId ? "Error asignando agente" : "Error desasignando agente", {
      description: errorMessage(error),
    });
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
      if (message.status === "failed")
        toast.error(texts.failure, { description: message.error ?? undefined });
      else toast.success(texts.success);
      return true;
    } catch (error) {
      toast.error(texts.failure, { description: errorMessage(error) });
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
        toast.error("No se pudo reintentar la transcripción", {
          description: errorMessage(error),
        });
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
        toast.error("Error al enviar la reacción", { description: errorMessage(error) });
      }
    },
  };
}

export type ReplyActions = ReturnType<typeof replyActions>;

/** The spec's delay before marking read after a realtime message. */
export const MARK_READ_DELAY_MS = 500;

/** Marks the conversation read; a failure is silent (the spec's rule). Resolves whether it worked. */
export const markRead = (id: string) =>
  conversation.read.$patch({ param: { id } }).then(
    () => true,
    () => false,
  );

/** The newest page of a conversation's messages, as the screens first load it. */
export const fetchNewestPage = (conversationId: string) =>
  data(
    conversation.messages.$get({
      param: { id: conversationId },
      query: { limit: String(MESSAGE_PAGE_SIZE) },
    }),
  );

/**
 * Whether the newest page fetched again after a reconnection shares no message with what
 * was shown: more was missed than a page holds, so the old list must give way to the page
 * (older messages come back with "Cargar mensajes anteriores") rather than leave a hole.
 */
export function missedMoreThanAPage(shown: Message[], page: Message[]) {
  const ids = new Set(shown.map((m) => m.id));
  return shown.length > 0 && !page.some((m) => ids.has(m.id));
}

const inTimeOrder = (a: Message, b: Message) =>
  a.created_at.localeCompare(b.created_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * `current` with `page` merged in by id, oldest first, without the messages of `dropped`.
 * The page's copy wins, except over a copy an event brought after the page was asked for
 * (`liveSince`): the page may have been read before that change (a status, a transcript).
 * Nothing appears twice, and what arrived live while the page was fetched stays.
 */
export function mergeMessages(
  current: Message[],
  page: Message[],
  dropped: Message[] = [],
  liveSince: ReadonlyMap<string, Message> = new Map(),
) {
  const fresh = page.map((m) => liveSince.get(m.id) ?? m);
  const replaced = new Set([...fresh, ...dropped].map((m) => m.id));
  return [...current.filter((m) => !replaced.has(m.id)), ...fresh].sort(inTimeOrder);
}

/** The list with `message` replaced (same id) or added at the end. */
export const upsertMessage = (current: Message[], message: Message) =>
  current.some((m) => m.id === message.id)
    ? current.map((m) => (m.id === message.id ? message : m))
    : [...current, message];
