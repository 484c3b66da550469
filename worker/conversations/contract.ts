/** Shapes of the conversation and message calls, shared by the API and the console. */
import { z } from "zod";

export const CONVERSATION_STATUSES = ["open", "pending", "assigned", "closed"] as const;
export const PRIORITIES = ["urgent", "high", "medium", "low"] as const;
export const MESSAGE_DIRECTIONS = ["inbound", "outbound"] as const;
export const SENDER_TYPES = ["customer", "bot", "agent"] as const;
export const MESSAGE_STATUSES = ["pending", "sent", "delivered", "read", "failed"] as const;

export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
export type Priority = (typeof PRIORITIES)[number];
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const CONVERSATION_PAGE_SIZE = 20;
export const MESSAGE_PAGE_SIZE = 20;
/** WhatsApp's limit for a text message body. */
export const MAX_MESSAGE_LENGTH = 4096;

const id = z.string().trim().min(1).max(64);

/** `agent_id=unassigned` (or `unassigned=true`) selects conversations without an agent. */
export const conversationListQuery = z.object({
  search: z.string().trim().max(200).optional(),
  q: z.string().trim().max(200).optional(),
  status: z.enum(CONVERSATION_STATUSES).optional(),
  priority: z.enum(PRIORITIES).optional(),
  agent_id: id.optional(),
  unassigned: z.enum(["true", "false"]).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(CONVERSATION_PAGE_SIZE),
  page: z.coerce.number().int().min(1).max(1_000_000).default(1),
});
export type ConversationListQuery = z.input<typeof conversationListQuery>;

/** Digits with country code, as WhatsApp ids are: "+34 600 00 00 00" → "34600000000". */
export const phoneNumberField = z
  .string({ error: "El teléfono es obligatorio" })
  .transform((value) => value.replace(/[\s().+-]/g, ""))
  .pipe(z.string().regex(/^[1-9]\d{6,14}$/, "Introduce un teléfono con prefijo de país"));

const contactName = z.string().trim().max(120, "El nombre es demasiado largo");

export const conversationCreateInput = z.object({
  phone_number: phoneNumberField,
  contact_name: contactName.optional(),
  agent_id: id.nullish(),
  priority: z.enum(PRIORITIES).optional(),
});

export const conversationUpdateInput = z.object({
  status: z.enum(CONVERSATION_STATUSES).optional(),
  priority: z.enum(PRIORITIES).optional(),
  agent_id: id.nullish(),
  contact_name: contactName.optional(),
});

export const assignInput = z.object({ agent_id: id });

export const messagesQuery = z.object({
  before: id.optional(),
  limit: z.coerce.number().int().min(1).max(100).default(MESSAGE_PAGE_SIZE),
  page: z.coerce.number().int().min(1).optional(),
});

export const sendMessageInput = z.object({
  conversation_id: id,
  content: z
    .string({ error: "El mensaje es obligatorio" })
    .trim()
    .min(1, "El mensaje no puede estar vacío")
    .max(MAX_MESSAGE_LENGTH, `El mensaje no puede superar ${MAX_MESSAGE_LENGTH} caracteres`),
});

export type ConversationCreateInput = z.input<typeof conversationCreateInput>;
export type ConversationUpdateInput = z.input<typeof conversationUpdateInput>;
export type SendMessageInput = z.input<typeof sendMessageInput>;

export interface Conversation {
  id: string;
  contact: { name: string | null; phone_number: string };
  phone_number: string;
  contact_name: string | null;
  platform: "whatsapp";
  status: ConversationStatus;
  priority: Priority;
  unread_count: number;
  agent_id: string | null;
  last_message_at: string;
  last_message: string | null;
  fbclid: string | null;
  ctwa_clid: string | null;
  ad_id: string | null;
  ad_headline: string | null;
  /** When the 24-hour customer-service window closes (null: the customer never wrote). */
  window_expires_at: string | null;
  /** Last failure of the AI reply, shown to the team; null when healthy. */
  ai_error: string | null;
  created_at: string;
}

export interface ConversationList {
  conversations: Conversation[];
  total: number;
  page: number;
  limit: number;
}

export interface ConversationStats {
  total: number;
  unassigned: number;
  unread: number;
  by_status: Record<ConversationStatus, number>;
  by_priority: Record<Priority, number>;
}

export interface Reaction {
  emoji: string;
  from: string;
  at: string;
}

export interface Message {
  id: string;
  conversation_id: string;
  content: string;
  type: string;
  direction: (typeof MESSAGE_DIRECTIONS)[number];
  sender_type: (typeof SENDER_TYPES)[number];
  status: MessageStatus;
  error: string | null;
  media: { id: string; mime_type: string | null } | null;
  reactions: Reaction[];
  created_at: string;
}

export interface MessagePage {
  messages: Message[];
  has_more: boolean;
  total: number;
}

/** Payloads of the realtime events about conversations. */
export interface MessageEvent {
  message: Message;
  conversation: Conversation;
}
export interface ConversationEvent {
  conversation: Conversation;
}
export interface MessageStatusEvent {
  message: Message;
}
