/** Shapes of the conversation and message calls, shared by the API and the console. */
import { z } from "zod/mini";
import type { LabelRef } from "./team-inbox";
import {
  CONVERSATION_STAGES,
  type ConversationOrigin,
  type ConversationStage,
  type Suggestion,
} from "./sales";

export const CONVERSATION_STATUSES = ["open", "pending", "assigned", "closed"] as const;
export const PRIORITIES = ["urgent", "high", "medium", "low"] as const;
/** `internal`: a team note in the thread ("Nota interna"), never sent to WhatsApp. */
export const MESSAGE_DIRECTIONS = ["inbound", "outbound", "internal"] as const;
/**
 * Who wrote a message: the customer, the AI agent, a team member in the console, the owner in
 * the WhatsApp Business app ("Enviado desde el móvil") or Meta's own AI ("IA de Meta").
 */
export const SENDER_TYPES = [
  "customer",
  "bot",
  "agent",
  "phone",
  "meta_ai",
  /** A broadcast's template (contract section 17). */
  "broadcast",
  /** A follow-up rule's message (contract section 17). */
  "follow_up",
  /** A booking's reminder, and what its buttons send (contract section 18, decision 0122). */
  "reminder",
] as const;
/** Who answers on the number for a customer (Meta's handover): this app or Meta's own AI. */
export const THREAD_CONTROLLERS = ["app", "meta_ai"] as const;
/**
 * Why a customer receives no marketing (contract section 17): Meta's `user_preferences` stop,
 * a marketing template Meta refused with 131050, or an opt-out word they wrote (BAJA, STOP...).
 */
export const MARKETING_OPT_OUT_SOURCES = ["meta", "failed_131050", "keyword"] as const;
export type MarketingOptOutSource = (typeof MARKETING_OPT_OUT_SOURCES)[number];
export const MESSAGE_STATUSES = ["pending", "sent", "delivered", "read", "failed"] as const;
/** Where a voice note's transcription stands (null for messages that are not audio). */
export const TRANSCRIPT_STATUSES = ["pending", "done", "failed"] as const;

export type ConversationStatus = (typeof CONVERSATION_STATUSES)[number];
export type Priority = (typeof PRIORITIES)[number];
export type MessageStatus = (typeof MESSAGE_STATUSES)[number];

export const CONVERSATION_PAGE_SIZE = 20;
export const MESSAGE_PAGE_SIZE = 20;
/** WhatsApp's limits for a text message body and a media caption. */
export const MAX_MESSAGE_LENGTH = 4096;
export const MAX_CAPTION_LENGTH = 1024;

const id = z.string().check(z.trim(), z.minLength(1), z.maxLength(64));

/** `agent_id=unassigned` (or `unassigned=true`) selects conversations without an agent. */
export const conversationListQuery = z.object({
  search: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  q: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  status: z.optional(z.enum(CONVERSATION_STATUSES)),
  priority: z.optional(z.enum(PRIORITIES)),
  stage: z.optional(z.enum(CONVERSATION_STAGES)),
  agent_id: z.optional(id),
  unassigned: z.optional(z.enum(["true", "false"])),
  /** The person holding it: `me`, `none` or a member's user id. */
  assignee_id: z.optional(z.union([z.enum(["me", "none"]), id])),
  label_id: z.optional(id),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), CONVERSATION_PAGE_SIZE),
  page: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(1_000_000)), 1),
});
export type ConversationListQuery = z.input<typeof conversationListQuery>;

/** Digits with country code, as WhatsApp ids are: "+34 600 00 00 00" → "34600000000". */
export const phoneNumberField = z.pipe(
  z.pipe(
    z.string({ error: "El teléfono es obligatorio" }),
    z.transform((value) => value.replace(/[\s().+-]/g, "")),
  ),
  z.string().check(z.regex(/^[1-9]\d{6,14}$/, "Introduce un teléfono con prefijo de país")),
);

const contactName = z.string().check(z.trim(), z.maxLength(120, "El nombre es demasiado largo"));

export const conversationCreateInput = z.object({
  phone_number: phoneNumberField,
  contact_name: z.optional(contactName),
  agent_id: z.nullish(id),
  priority: z.optional(z.enum(PRIORITIES)),
});

export const conversationUpdateInput = z.object({
  status: z.optional(z.enum(CONVERSATION_STATUSES)),
  priority: z.optional(z.enum(PRIORITIES)),
  stage: z.optional(z.enum(CONVERSATION_STAGES)),
  agent_id: z.nullish(id),
  /** The team member who holds it ("Sin asignar": null). */
  assignee_id: z.optional(z.nullable(id)),
  contact_name: z.optional(contactName),
});

export const assignInput = z.object({ agent_id: id });

export const messagesQuery = z.object({
  before: z.optional(id),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), MESSAGE_PAGE_SIZE),
  page: z.optional(z.coerce.number().check(z.int(), z.gte(1))),
});

const textContent = z
  .string({ error: "El mensaje es obligatorio" })
  .check(
    z.trim(),
    z.minLength(1, "El mensaje no puede estar vacío"),
    z.maxLength(MAX_MESSAGE_LENGTH, `El mensaje no puede superar ${MAX_MESSAGE_LENGTH} caracteres`),
  );

/** A template to send (the only kind of message WhatsApp accepts outside the 24-hour window). */
export const templateSendField = z.object({
  name: z.string().check(z.trim(), z.minLength(1, "Elige una plantilla"), z.maxLength(512)),
  language: z
    .string()
    .check(z.trim(), z.minLength(2, "Falta el idioma de la plantilla"), z.maxLength(15)),
  parameters: z._default(
    z
      .array(
        z
          .string()
          .check(z.trim(), z.minLength(1, "Rellena todos los parámetros"), z.maxLength(1024)),
        {
          error: "Los parámetros deben ser una lista de textos",
        },
      )
      .check(z.maxLength(20)),
    [],
  ),
});

/** Free text (`content`) or a template (`template`), never both. */
export const sendMessageInput = z
  .object({
    conversation_id: id,
    content: z.optional(textContent),
    template: z.optional(templateSendField),
    /** The text is the AI's suggestion ("Sugerencia de IA"), maybe edited by the person. */
    from_draft: z._default(z.boolean({ error: "from_draft debe ser verdadero o falso" }), false),
  })
  .check(
    z.refine((input) => (input.content === undefined) !== (input.template === undefined), {
      path: ["content"],
      message: "Envía un texto (content) o una plantilla (template)",
    }),
    z.refine((input) => !input.from_draft || input.content !== undefined, {
      path: ["from_draft"],
      message: "Una sugerencia de IA se envía como texto (content)",
    }),
  );

/** What a message with a file reads as when it came without a caption. */
export const MEDIA_PLACEHOLDERS = {
  image: "📷 Imagen",
  video: "🎬 Vídeo",
  voice: "🎤 Nota de voz",
  audio: "🎵 Audio",
  sticker: "Sticker",
} as const;
export const DOCUMENT_PLACEHOLDER_PREFIX = "📄 ";

/** `POST /conversations/{id}/media`: a multipart form with the file and an optional caption. */
export const mediaUploadForm = z.object({
  file: z.instanceof(File, { error: "Adjunta un archivo (campo file)." }),
  caption: z._default(
    z
      .string()
      .check(
        z.trim(),
        z.maxLength(
          MAX_CAPTION_LENGTH,
          `El texto no puede superar ${MAX_CAPTION_LENGTH} caracteres`,
        ),
      ),
    "",
  ),
});

export const reactionInput = z.object({
  emoji: z.string({ error: "Falta el emoji" }).check(
    z.maxLength(16, "Una reacción es un solo emoji"),
    z.refine(
      (value) => [...new Intl.Segmenter().segment(value)].length <= 1,
      "Una reacción es un solo emoji",
    ),
  ),
});

/**
 * The largest file the console sends: the Worker holds it in memory (128 MB in all) while it
 * is uploaded to Meta, so documents stop at 16 MB although WhatsApp takes up to 100 MB.
 */
export const MAX_UPLOAD_BYTES = 16 * 1024 * 1024;
export const MEDIA_TOO_LARGE = "El archivo supera el máximo que admite la consola (16 MB).";

/**
 * What WhatsApp accepts as an attachment, by message type (Meta's limits, and ours for
 * documents). The console checks them before uploading; the server checks them again.
 */
export const MEDIA_LIMITS = {
  image: { mimeTypes: ["image/jpeg", "image/png"], maxBytes: 5 * 1024 * 1024 },
  video: { mimeTypes: ["video/mp4", "video/3gpp"], maxBytes: 16 * 1024 * 1024 },
  audio: {
    mimeTypes: ["audio/aac", "audio/amr", "audio/mpeg", "audio/mp4", "audio/ogg"],
    maxBytes: 16 * 1024 * 1024,
  },
  document: {
    mimeTypes: [
      "application/pdf",
      "text/plain",
      "application/msword",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      "application/vnd.ms-excel",
      "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
      "application/vnd.ms-powerpoint",
      "application/vnd.openxmlformats-officedocument.presentationml.presentation",
    ],
    maxBytes: MAX_UPLOAD_BYTES,
  },
} as const;
export type OutboundMediaType = keyof typeof MEDIA_LIMITS;

const megabytes = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/**
 * The message type a file is sent as, or the Spanish reason WhatsApp would refuse it.
 * Shared by the composer (before uploading) and the server.
 */
export function outboundMediaType(file: {
  type: string;
  size: number;
}): { type: OutboundMediaType } | { error: string; tooLarge: boolean } {
  const mime = file.type.split(";")[0]!.trim().toLowerCase();
  const entry = (
    Object.entries(MEDIA_LIMITS) as [OutboundMediaType, (typeof MEDIA_LIMITS)[OutboundMediaType]][]
  ).find(([, limit]) => (limit.mimeTypes as readonly string[]).includes(mime));
  if (!entry) {
    return {
      error:
        "WhatsApp no admite este tipo de archivo. Envía una imagen (JPG o PNG), un PDF u otro documento, un audio o un vídeo MP4.",
      tooLarge: false,
    };
  }
  const [type, limit] = entry;
  if (file.size === 0) return { error: "El archivo está vacío.", tooLarge: false };
  if (file.size > limit.maxBytes) {
    return {
      error: `El archivo supera el máximo de WhatsApp para este tipo (${megabytes(limit.maxBytes)}).`,
      tooLarge: true,
    };
  }
  return { type };
}

export type ConversationCreateInput = z.input<typeof conversationCreateInput>;
export type ConversationUpdateInput = z.input<typeof conversationUpdateInput>;
export type SendMessageInput = z.input<typeof sendMessageInput>;

export interface Conversation {
  id: string;
  /**
   * The customer: `phone_number` is null while a customer with a WhatsApp username withholds
   * it; `user_id` is their business-scoped user id (BSUID).
   */
  contact: {
    name: string | null;
    phone_number: string | null;
    username: string | null;
    user_id: string | null;
  };
  phone_number: string | null;
  contact_name: string | null;
  platform: "whatsapp";
  status: ConversationStatus;
  priority: Priority;
  /** Nuevo, Interesado, Cliente or Perdido: where the customer is on the way to a sale. */
  stage: ConversationStage;
  unread_count: number;
  agent_id: string | null;
  /** The team member holding it (a user id); while set, the AI stays silent. */
  assignee_id: string | null;
  labels: LabelRef[];
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
  /** The AI's answer waiting for a person to edit and send it, or discard it. */
  ai_draft: AiDraft | null;
  /** Someone answered from the WhatsApp Business app: the AI is silent here until then. */
  ai_paused_until: string | null;
  /** Who answers on the number for this customer: this app or Meta's own AI. */
  controlled_by: (typeof THREAD_CONTROLLERS)[number];
  /** The customer opted out of marketing ("No quiere recibir promociones"): since when, and how. */
  marketing_opt_out: { at: string; source: MarketingOptOutSource } | null;
  /** Meta refused them marketing (131049, its per-user limit): no marketing send until then. */
  marketing_limited_until: string | null;
  created_at: string;
  /** Changed at each write: of two copies, the console keeps the one with the later time. */
  updated_at: string;
}

/** `GET /conversations/{id}`: the conversation, with what Meta detected and nobody confirmed. */
export interface ConversationDetail extends Conversation {
  suggestions: Suggestion[];
  origin: ConversationOrigin | null;
  billing: ConversationBilling;
}

/** What Meta bills for the conversation's messages (per-message pricing). */
export interface ConversationBilling {
  billable_messages: number;
  /** Billable messages by Meta's pricing category (`service`, `marketing`, `utility`, ...). */
  by_category: Record<string, number>;
  /** End of the free 72-hour window a click-to-WhatsApp conversation earned, if it did. */
  free_entry_point_until: string | null;
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

/** A reaction on a message: `from` is the customer's WhatsApp id, or "business" for the team's. */
export interface Reaction {
  emoji: string;
  from: string;
  at: string;
}

/** A knowledge entry an AI answer used ("Fuentes"). */
export interface AiSource {
  id: string;
  title: string;
}

/** The agent's answer waiting for a person: shown in the composer as "Sugerencia de IA". */
export interface AiDraft {
  content: string;
  agent_id: string;
  sources: AiSource[];
  created_at: string;
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
  /** Meta's code of a failure (131050...), or the product's (`not_connected`, `unexpected`). */
  error_code: string | null;
  media: { id: string; mime_type: string | null } | null;
  reactions: Reaction[];
  /** What an audio says, once transcribed; `transcript_error` says why it could not be. */
  transcript: string | null;
  transcript_status: (typeof TRANSCRIPT_STATUSES)[number] | null;
  transcript_error: string | null;
  /** The knowledge entries an AI answer used. */
  ai_sources: AiSource[];
  /** Sent by a person from the AI's suggestion. */
  suggested_by_ai: boolean;
  /** The team member who wrote it (replies and internal notes); null for the customer and the AI. */
  author_id: string | null;
  /** An internal note's mentioned members (user ids). */
  mentions: string[];
  /** The customer edited it ("editado"): `content` is the latest version. */
  edited: boolean;
  /** The customer deleted it ("Mensaje eliminado"): its content and media are gone. */
  deleted: boolean;
  /** Imported from the WhatsApp Business app's history. */
  imported: boolean;
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
