/**
 * The conversation screen's writes (the conversation, its messages, notes, suggestions, sales,
 * bookings and payments), made by its route's `clientAction` (decision 0105). The inbox and the
 * agent chats export the same action, for the changes their rows and panes submit. A
 * conversation or message a change answers is recorded in the live store (the lists show it
 * from there); every answer goes back to the component that asked. A link sent is read by the
 * details' "Pagos", and its later changes come as `payment_update` (decision 0119).
 */
import type {
  ConversationActionResult,
  ConversationChange,
  ConversationIntent,
} from "~/components/conversations/actions";
import type {
  CustomerActionResult,
  CustomerChange,
} from "~/components/conversations/customer-actions";
import type { Conversation, Message } from "../../contracts/conversations";
import { client, data } from "~/lib/api";
import { refusalOf } from "~/lib/forms";
import { live } from "~/lib/live-store";
import { toastDone, toastFailed, toastRefusal } from "~/lib/outcome";

const conversation = client.conversations[":id"];

/** Makes the change and says how it went; a refusal brings the server's Spanish messages. */
export async function customerAction(change: CustomerChange): Promise<CustomerActionResult> {
  const param = { id: change.conversationId };
  try {
    switch (change.intent) {
      case "booking-flow.send": {
        const sent = await data(
          conversation["booking-flow"].$post({
            param,
            json: change.serviceId ? { service_id: change.serviceId } : {},
          }),
        );
        toastDone(
          sent.kind === "flow" ? "Formulario de reservas enviado" : "Horarios libres enviados",
          sent.kind === "flow"
            ? undefined
            : "El formulario no está publicado: el cliente recibió una lista de horarios.",
        );
        break;
      }
      case "payment-link.create": {
        const payment = await data(
          conversation["payment-links"].$post({
            param,
            json: change.values,
            header: { "idempotency-key": change.key },
          }),
        );
        live.payment(payment);
        toastDone("Enlace de pago enviado");
        break;
      }
    }
    return { ok: true, intent: change.intent };
  } catch (error) {
    toastFailed(
      change.intent === "booking-flow.send"
        ? "No se pudo enviar la reserva"
        : "No se pudo enviar el enlace de pago",
      error,
    );
    return { ...refusalOf(error), intent: change.intent };
  }
}

/** The spec's toasts of a message sent (a failure's description is the refusal's message). */
const MESSAGE_WORDS = {
  "message.send": { success: "Mensaje enviado", failure: "Error al enviar el mensaje" },
  "template.send": { success: "Plantilla enviada", failure: "Error al enviar la plantilla" },
  "file.send": { success: "Archivo enviado", failure: "Error al enviar el archivo" },
  "phone.request": {
    success: "Teléfono solicitado al cliente",
    failure: "No se pudo pedir el teléfono",
  },
  "message.retry": { success: "Mensaje enviado", failure: "No se pudo reenviar el mensaje" },
  /** Nothing is said when it works: the thread shows it. */
  "transcript.retry": { success: null, failure: "No se pudo reintentar la transcripción" },
  "reaction.send": { success: null, failure: "Error al enviar la reacción" },
} as const;

type MessageChange = Extract<ConversationChange, { intent: keyof typeof MESSAGE_WORDS }>;

function postMessage(change: MessageChange): Promise<Message> {
  const param = { id: change.conversationId };
  const messages = client.conversations.messages;
  switch (change.intent) {
    case "message.send":
      return data(
        messages.$post({
          json: {
            conversation_id: change.conversationId,
            content: change.content,
            ...(change.fromDraft && { from_draft: true }),
          },
        }),
      );
    case "template.send":
      return data(
        messages.$post({
          json: { conversation_id: change.conversationId, template: change.template },
        }),
      );
    case "file.send": {
      const form = { file: change.file, ...(change.caption && { caption: change.caption }) };
      return data(conversation.media.$post({ param, form }));
    }
    case "phone.request":
      return data(conversation["request-phone"].$post({ param }));
    case "message.retry":
      return data(
        conversation.messages[":messageId"].retry.$post({
          param: { ...param, messageId: change.messageId },
        }),
      );
    case "transcript.retry":
      return data(
        conversation.messages[":messageId"].transcript.$post({
          param: { ...param, messageId: change.messageId },
        }),
      );
    case "reaction.send":
      return data(
        conversation.messages[":messageId"].reaction.$post({
          param: { ...param, messageId: change.messageId },
          json: { emoji: change.emoji },
        }),
      );
  }
}

/**
 * A message sent (or reacted to): the stored copy, or the newer one an event brought while the
 * call travelled, recorded in the live store. A message stored as failed says so.
 */
async function messageAction(change: MessageChange): Promise<ConversationActionResult> {
  const words = MESSAGE_WORDS[change.intent];
  try {
    const asked = live.mark();
    const answer = await postMessage(change);
    const message = live.messageSince(answer.id, asked) ?? answer;
    live.message(message);
    if (message.status === "failed" && words.success) {
      toastFailed(words.failure, message.error ?? undefined);
    } else if (words.success) toastDone(words.success);
    return { ok: true, intent: change.intent, message };
  } catch (error) {
    toastFailed(words.failure, error);
    return { ok: false, intent: change.intent };
  }
}

/** The changes that answer the conversation, with their toasts (`success` null: none). */
type UpdateChange = Extract<
  ConversationChange,
  {
    intent:
      | "conversation.update"
      | "assignee.set"
      | "agent.set"
      | "labels.set"
      | "ai.resume"
      | "meta-ai.return";
  }
>;

function updateWords(change: UpdateChange): { success: string | null; failure: string } {
  switch (change.intent) {
    case "conversation.update":
      return { success: "Conversación actualizada", failure: "Error actualizando conversación" };
    case "assignee.set":
      return {
        success: change.assigneeId ? "Conversación asignada" : "Conversación sin asignar",
        failure: "Error asignando la conversación",
      };
    case "agent.set":
      return change.agentId
        ? { success: "Agente asignado", failure: "Error asignando agente" }
        : { success: "Agente desasignado", failure: "Error desasignando agente" };
    case "labels.set":
      return { success: null, failure: "Error guardando las etiquetas" };
    case "ai.resume":
      return { success: "La IA vuelve a responder", failure: "No se pudo reanudar la IA" };
    case "meta-ai.return":
      return {
        success: "Conversación devuelta a la IA de Meta",
        failure: "No se pudo devolver a la IA de Meta",
      };
  }
}

function patchConversation(change: UpdateChange): Promise<Conversation> {
  const param = { id: change.conversationId };
  switch (change.intent) {
    case "conversation.update":
      return data(conversation.$patch({ param, json: change.changes }));
    case "assignee.set":
      return data(conversation.$patch({ param, json: { assignee_id: change.assigneeId } }));
    case "agent.set":
      return change.agentId
        ? data(conversation.assign.$patch({ param, json: { agent_id: change.agentId } }))
        : data(conversation.unassign.$patch({ param }));
    case "labels.set":
      return data(conversation.labels.$put({ param, json: { label_ids: change.labelIds } }));
    case "ai.resume":
      return data(conversation["resume-ai"].$post({ param }));
    case "meta-ai.return":
      return data(conversation["return-to-meta-ai"].$post({ param }));
  }
}

/** A change of the conversation itself: the updated copy, recorded for the lists. */
async function updateAction(change: UpdateChange): Promise<ConversationActionResult> {
  const { success, failure } = updateWords(change);
  try {
    const updated = await patchConversation(change);
    live.conversation(updated);
    if (success) toastDone(success);
    return { ok: true, intent: change.intent, conversation: updated };
  } catch (error) {
    toastFailed(failure, error);
    return { ok: false, intent: change.intent };
  }
}

/** The suggestion, a note, a sale, a detected purchase, marking read. */
async function otherAction(
  change: Exclude<ConversationChange, MessageChange | UpdateChange>,
): Promise<ConversationActionResult> {
  const { intent } = change;
  const param = { id: change.conversationId };
  switch (intent) {
    case "read.mark":
      return conversation.read.$patch({ param }).then(
        () => ({ ok: true, intent }),
        () => ({ ok: false, intent }),
      );
    case "draft.suggest":
    case "draft.discard":
      try {
        if (intent === "draft.discard") {
          await data(conversation.draft.$delete({ param }));
          return { ok: true, intent, draft: null };
        }
        const { draft } = await data(conversation.draft.$post({ param }));
        return { ok: true, intent, draft };
      } catch (error) {
        toastFailed(
          intent === "draft.suggest"
            ? "No se pudo preparar una sugerencia"
            : "No se pudo descartar la sugerencia",
          error,
        );
        return { ok: false, intent };
      }
    case "note.write":
      try {
        const { message } = await data(
          conversation.notes.$post({ param, json: { content: change.content } }),
        );
        return { ok: true, intent, message };
      } catch (error) {
        toastFailed("Error guardando la nota", error);
        return { ok: false, intent };
      }
    case "sale.create":
    case "suggestion.confirm":
    case "suggestion.dismiss":
      try {
        return { ok: true, intent, ...(await salesChange(change)) };
      } catch (error) {
        toastRefusal(error);
        return { ok: false, intent };
      }
  }
}

/** "Ventas y origen": a sale registered, a detected purchase confirmed or dismissed. */
async function salesChange(
  change: Extract<ConversationChange, { intent: `sale.${string}` | `suggestion.${string}` }>,
): Promise<{ conversation?: Conversation }> {
  const param = { id: change.conversationId };
  switch (change.intent) {
    case "sale.create":
      await data(
        conversation.sales.$post({
          param,
          json: { value: change.value, currency: change.currency },
          header: { "idempotency-key": change.key },
        }),
      );
      toastDone("Venta registrada");
      return {};
    case "suggestion.confirm": {
      const suggestion = { ...param, suggestionId: change.suggestionId };
      await data(conversation.suggestions[":suggestionId"].confirm.$post({ param: suggestion }));
      toastDone("Conversión confirmada");
      // The stage and what Meta was told changed with it: the conversation is read again.
      return { conversation: await data(conversation.$get({ param })) };
    }
    case "suggestion.dismiss":
      await data(
        conversation.suggestions[":suggestionId"].$delete({
          param: { ...param, suggestionId: change.suggestionId },
        }),
      );
      return {};
  }
}

const isMessageChange = (change: ConversationChange): change is MessageChange =>
  change.intent in MESSAGE_WORDS;

const UPDATE_INTENTS: ReadonlySet<string> = new Set<UpdateChange["intent"]>([
  "conversation.update",
  "assignee.set",
  "agent.set",
  "labels.set",
  "ai.resume",
  "meta-ai.return",
]);
const isUpdateChange = (change: ConversationChange): change is UpdateChange =>
  UPDATE_INTENTS.has(change.intent);

/** Makes a change of the conversation and says how it went. */
export function conversationAction(change: ConversationChange): Promise<ConversationActionResult> {
  if (isMessageChange(change)) return messageAction(change);
  if (isUpdateChange(change)) return updateAction(change);
  return otherAction(change);
}

const CUSTOMER_INTENTS: ReadonlySet<string> = new Set<CustomerChange["intent"]>([
  "booking-flow.send",
  "payment-link.create",
]);

/** The change a component submitted: a file comes as a form, every other change as JSON. */
export async function submittedChange<Change>(
  request: Request,
): Promise<Change | Extract<ConversationChange, { intent: "file.send" }>> {
  if (request.headers.get("content-type")?.includes("application/json")) {
    return (await request.json()) as Change;
  }
  const form = await request.formData();
  return {
    intent: "file.send",
    conversationId: String(form.get("conversationId") ?? ""),
    file: form.get("file") as File,
    caption: String(form.get("caption") ?? ""),
  };
}

/** A change of the conversation or for its customer (the details' dialogs). */
export function conversationChangeAction(change: ConversationChange | CustomerChange) {
  return CUSTOMER_INTENTS.has(change.intent)
    ? customerAction(change as CustomerChange)
    : conversationAction(change as ConversationChange);
}

/** The route's action: the change a component submitted. */
export async function conversationClientAction({ request }: { request: Request }) {
  return conversationChangeAction(
    await submittedChange<ConversationChange | CustomerChange>(request),
  );
}

/** Every change of a conversation (a record: a new change must be listed here). */
const CONVERSATION_INTENTS: Record<ConversationIntent, true> = {
  "conversation.update": true,
  "assignee.set": true,
  "agent.set": true,
  "labels.set": true,
  "ai.resume": true,
  "meta-ai.return": true,
  "read.mark": true,
  "note.write": true,
  "draft.suggest": true,
  "draft.discard": true,
  "message.send": true,
  "template.send": true,
  "file.send": true,
  "phone.request": true,
  "message.retry": true,
  "transcript.retry": true,
  "reaction.send": true,
  "sale.create": true,
  "suggestion.confirm": true,
  "suggestion.dismiss": true,
};

/**
 * The `shouldRevalidate` of the lists of conversations (the inbox, the agent chats): each is
 * its loader's answer with the live store's copies laid over it (decision 0104), which these
 * changes record their answers in (or realtime brings), and each reloads by itself when a copy
 * leaves its page stale. So a change of a conversation does not reload them (marking read
 * alone comes at every opening and after every message received); anything else does.
 */
export function notAfterConversationChange({
  json,
  defaultShouldRevalidate,
}: {
  json?: unknown;
  defaultShouldRevalidate: boolean;
}) {
  const intent = (json as { intent?: string } | undefined)?.intent;
  return intent !== undefined && Object.hasOwn(CONVERSATION_INTENTS, intent)
    ? false
    : defaultShouldRevalidate;
}
