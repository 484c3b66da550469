/**
 * What a person changes in a conversation, as the route's action does it
 * (`routes/conversation-action.ts`, decision 0105): the changes' types and the fetcher hooks
 * the screens submit them with. The conversation, the inbox and the agent chats share the one
 * action (each route exports it), so a component submits to the route it is drawn in.
 */
import { useCallback, useEffect, useRef } from "react";
import { useFetcher, type SubmitTarget } from "react-router";
import type {
  AiDraft,
  Conversation,
  ConversationStatus,
  ConversationUpdateInput,
  Message,
} from "../../../contracts/conversations";
import { live } from "~/lib/live-store";
import type { TemplateToSend } from "./template-picker";

/** Every change names its conversation. */
type On<T> = T & { conversationId: string };

export type ConversationChange = On<
  /** Status, stage, priority, contact name. */
  | { intent: "conversation.update"; changes: ConversationUpdateInput }
  /** Who of the team holds it (null: nobody). */
  | { intent: "assignee.set"; assigneeId: string | null }
  | { intent: "agent.set"; agentId: string | null }
  | { intent: "labels.set"; labelIds: string[] }
  /** "Reanudar IA": the AI answers again in a conversation someone answered from the phone. */
  | { intent: "ai.resume" }
  /** "Devolver a la IA de Meta": Meta's own AI answers this customer again. */
  | { intent: "meta-ai.return" }
  /** Marking read is silent: a failure says nothing (the spec's rule). */
  | { intent: "read.mark" }
  /** "Nota interna": a note for the team, never sent to WhatsApp. */
  | { intent: "note.write"; content: string }
  /** "Sugerir respuesta" and "Descartar" on the AI's suggestion. */
  | { intent: "draft.suggest" }
  | { intent: "draft.discard" }
  /** `fromDraft`: the text is the AI's suggestion, maybe edited ("Sugerido por IA"). */
  | { intent: "message.send"; content: string; fromDraft: boolean }
  | { intent: "template.send"; template: TemplateToSend }
  /** A file, with the text as its caption (sent as a form: the only change that is not JSON). */
  | { intent: "file.send"; file: File; caption: string }
  /** "Pedir teléfono": WhatsApp's button for a customer known only by their username. */
  | { intent: "phone.request" }
  /** "Reintentar" on a failed message: the server sends the same message again. */
  | { intent: "message.retry"; messageId: string }
  /** "Reintentar transcripción": the voice note shows "Transcribiendo…" until the words come. */
  | { intent: "transcript.retry"; messageId: string }
  | { intent: "reaction.send"; messageId: string; emoji: string }
  /** "Registrar venta"; `key`: the Idempotency-Key, drawn once per dialog opened. */
  | { intent: "sale.create"; value: number; currency: string; key: string }
  /** A purchase Meta detected, confirmed (the answer brings the conversation again) or dismissed. */
  | { intent: "suggestion.confirm"; suggestionId: string }
  | { intent: "suggestion.dismiss"; suggestionId: string }
>;

export type ConversationIntent = ConversationChange["intent"];

/** What a change answers: the conversation, the message or the suggestion it left. */
export type ConversationActionResult =
  | {
      ok: true;
      intent: ConversationIntent;
      conversation?: Conversation;
      message?: Message;
      draft?: AiDraft | null;
    }
  | { ok: false; intent: ConversationIntent };

/** The file goes as a form (a `File` does not travel in JSON); every other change as JSON. */
function submission(change: ConversationChange) {
  if (change.intent !== "file.send") {
    // A plain object (its types are interfaces, which TypeScript does not read as JSON).
    const body = change as unknown as SubmitTarget;
    return { body, options: { method: "post", encType: "application/json" } } as const;
  }
  const form = new FormData();
  form.set("intent", change.intent);
  form.set("conversationId", change.conversationId);
  form.set("caption", change.caption);
  form.set("file", change.file);
  return { body: form, options: { method: "post", encType: "multipart/form-data" } } as const;
}

/**
 * A component's way to the route's action: `run` submits a change (a fetcher) and resolves
 * with its result once the action answered; `busy` while the action runs, `pending` the
 * change on its way (what a screen draws meanwhile). One fetcher: a second change submitted before the first
 * answered replaces it, and both callers hear the later answer.
 */
export function useConversationChange() {
  const fetcher = useFetcher<ConversationActionResult>();
  const waiting = useRef<((result: ConversationActionResult) => void)[]>([]);
  useEffect(() => {
    if (!fetcher.data) return;
    const result = fetcher.data;
    for (const resolve of waiting.current.splice(0)) resolve(result);
  }, [fetcher.data]);
  const { submit } = fetcher;
  const run = useCallback(
    (change: ConversationChange) =>
      new Promise<ConversationActionResult>((resolve) => {
        waiting.current.push(resolve);
        const { body, options } = submission(change);
        void submit(body, options);
      }),
    [submit],
  );
  // A file goes as a form: only the JSON changes are drawn while on their way.
  // While the action runs; the screen's reload after it does not hold the component back.
  const busy = fetcher.state === "submitting";
  const pending = busy ? ((fetcher.json as ConversationChange | undefined) ?? null) : null;
  return { run, busy, pending };
}

const conversationOf = (result: ConversationActionResult) =>
  result.ok ? (result.conversation ?? null) : null;

/**
 * The conversation's own changes (header, details, inbox row, shortcuts), each resolving to
 * the updated conversation, or null when it failed (the action said why).
 */
export function useConversationWrites() {
  const { run } = useConversationChange();
  const to = (change: ConversationChange) => run(change).then(conversationOf);
  return {
    update: (conversationId: string, changes: ConversationUpdateInput) =>
      to({ intent: "conversation.update", conversationId, changes }),
    changeStatus: (conversationId: string, status: ConversationStatus) =>
      to({ intent: "conversation.update", conversationId, changes: { status } }),
    assignPerson: (conversationId: string, assigneeId: string | null) =>
      to({ intent: "assignee.set", conversationId, assigneeId }),
    changeAgent: (conversationId: string, agentId: string | null) =>
      to({ intent: "agent.set", conversationId, agentId }),
    setLabels: (conversationId: string, labelIds: string[]) =>
      to({ intent: "labels.set", conversationId, labelIds }),
    resumeAi: (conversationId: string) => to({ intent: "ai.resume", conversationId }),
    returnToMetaAi: (conversationId: string) => to({ intent: "meta-ai.return", conversationId }),
  };
}

/**
 * What the team sends in a conversation (text, template, file, reaction), through the route's
 * action, which says how it went. Each message stored goes to `onStored`, or the newer copy an
 * event brought meanwhile (the realtime event may bring it too: lists keep messages by id). Each kind has its own fetcher, so a reaction
 * never replaces a message on its way; `sending` is the text message on its way (the composer
 * holds it until it is stored).
 */
export function useReplyActions(conversationId: string, onStored: (message: Message) => void) {
  const text = useConversationChange();
  const template = useConversationChange();
  const file = useConversationChange();
  const phone = useConversationChange();
  const retry = useConversationChange();
  const transcript = useConversationChange();
  const reaction = useConversationChange();
  const stored = useRef(onStored);
  stored.current = onStored;

  const deliver = async (
    change: ReturnType<typeof useConversationChange>,
    sent: ConversationChange,
  ) => {
    const asked = live.mark();
    const result = await change.run(sent);
    // A status an event brought between the action's answer and now (delivered, read) wins.
    if (result.ok && result.message)
      stored.current(live.messageSince(result.message.id, asked) ?? result.message);
    return result.ok;
  };

  return {
    send: (content: string, fromDraft = false) =>
      deliver(text, { intent: "message.send", conversationId, content, fromDraft }),
    sendTemplate: (chosen: TemplateToSend) =>
      deliver(template, { intent: "template.send", conversationId, template: chosen }),
    sendFile: (chosen: File, caption: string) =>
      deliver(file, { intent: "file.send", conversationId, file: chosen, caption }),
    requestPhone: () => deliver(phone, { intent: "phone.request", conversationId }),
    retry: (message: Message) =>
      deliver(retry, { intent: "message.retry", conversationId, messageId: message.id }),
    retryTranscript: async (message: Message) => {
      await deliver(transcript, {
        intent: "transcript.retry",
        conversationId,
        messageId: message.id,
      });
    },
    react: async (message: Message, emoji: string) => {
      await deliver(reaction, {
        intent: "reaction.send",
        conversationId,
        messageId: message.id,
        emoji,
      });
    },
    /** The text on its way, from the fetcher's pending submission. */
    sending: text.pending?.intent === "message.send" ? text.pending.content : null,
  };
}

export type ReplyActions = ReturnType<typeof useReplyActions>;
