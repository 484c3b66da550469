import { format } from "date-fns";
import { es } from "date-fns/locale";
import type { Conversation, Message } from "../../../contracts/conversations";

/**
 * Who sent an outbound message, when it was not a person of the team: the product's AI, the
 * owner from the WhatsApp Business app, Meta's own AI (contract section 16), a broadcast or a
 * follow-up (section 17), a booking's reminder (section 18). A person of the team needs no mark: theirs is the usual outbound
 * bubble.
 */
const SENDER_LABELS: Partial<Record<Message["sender_type"], string>> = {
  bot: "Agente IA",
  phone: "Enviado desde el móvil",
  meta_ai: "IA de Meta",
  broadcast: "Difusión",
  follow_up: "Seguimiento",
  reminder: "Recordatorio",
};

export const senderLabel = (message: Pick<Message, "direction" | "sender_type">) =>
  message.direction === "outbound" ? (SENDER_LABELS[message.sender_type] ?? null) : null;

/** The small words after a message's time: "editado", "importado". */
export function messageNotes(message: Pick<Message, "edited" | "deleted" | "imported">) {
  const notes: string[] = [];
  if (message.edited && !message.deleted) notes.push("editado");
  if (message.imported) notes.push("importado");
  return notes;
}

/**
 * Who answers the customer now, as the conversation screen says it above the messages:
 * - `meta_ai`: Meta's own AI holds the thread ("Tomar la conversación");
 * - `paused`: someone answered from the phone, the AI is silent until `until` ("Reanudar IA");
 * - `returnable`: the app holds a thread Meta's AI answered before ("Devolver a la IA de Meta");
 * - null: nothing to say.
 */
export type ThreadControl =
  { kind: "meta_ai" } | { kind: "paused"; until: string } | { kind: "returnable" } | null;

export function threadControl(
  conversation: Pick<Conversation, "ai_paused_until" | "controlled_by">,
  messages: readonly Pick<Message, "sender_type">[] | null,
  now: number,
): ThreadControl {
  if (conversation.controlled_by === "meta_ai") return { kind: "meta_ai" };
  const until = conversation.ai_paused_until;
  if (until && Date.parse(until) > now) return { kind: "paused", until };
  if (messages?.some((m) => m.sender_type === "meta_ai")) return { kind: "returnable" };
  return null;
}

/** "La IA está en pausa hasta las 18:30: alguien respondió desde el móvil." */
export function pausedText(until: string, now: number) {
  const end = new Date(until);
  const sameDay = end.toDateString() === new Date(now).toDateString();
  const when = format(end, sameDay ? "HH:mm" : "d MMM, HH:mm", { locale: es });
  return `La IA está en pausa hasta ${sameDay ? "las " : "el "}${when}: alguien respondió desde el móvil.`;
}

/** The customer wrote, but only in the WhatsApp Business app's history (which opens no window). */
export const wroteInHistory = (
  messages: readonly Pick<Message, "direction" | "imported">[] | null,
) => messages?.some((m) => m.direction === "inbound" && m.imported) === true;
