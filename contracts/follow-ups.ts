/**
 * Follow-ups (contract section 17): rules that write to a customer again when the business
 * spoke last and the customer has not answered for a while. Free text while the 24-hour window
 * is open, an approved template otherwise; once per wait, up to `max_per_conversation`.
 */
import { z } from "zod/mini";
import type { BroadcastCategory } from "./broadcasts";
import { templateSendField } from "./conversations";
import { CONVERSATION_STAGES, type ConversationStage } from "./sales";

/**
 * One follow-up's send for one wait: `sending` while Meta is asked (claimed first, so a wait is
 * answered once whatever restarts happen), then `sent` or `failed`; `skipped` when it could not
 * go (the window closed on a text-only rule, the customer may not receive marketing).
 */
export const FOLLOW_UP_SEND_STATES = ["sending", "sent", "failed", "skipped"] as const;
export type FollowUpSendState = (typeof FOLLOW_UP_SEND_STATES)[number];

/** At least a minute; at most 30 days (a longer silence is a broadcast's audience). */
export const MAX_NO_REPLY_MINUTES = 30 * 24 * 60;
/** Minutes the 24-hour service window lasts: a text-only rule must fire before it closes. */
export const WINDOW_MINUTES = 24 * 60;
/** Times one rule may write to one conversation, over all its waits. */
export const MAX_PER_CONVERSATION = 10;
/** Rules an organization may have (a few steps of a sequence each, not one per customer). */
export const MAX_FOLLOW_UPS = 20;
/** The free text a follow-up sends (WhatsApp's limit for a text message). */
const MAX_TEXT = 4096;

const nameField = z
  .string({ error: "El nombre es obligatorio" })
  .check(
    z.trim(),
    z.minLength(1, "El nombre es obligatorio"),
    z.maxLength(120, "El nombre no puede superar 120 caracteres"),
  );

const textField = z
  .string({ error: "El texto debe ser un texto" })
  .check(
    z.trim(),
    z.minLength(1, "Escribe el texto del seguimiento o quítalo"),
    z.maxLength(MAX_TEXT, `El texto no puede superar ${MAX_TEXT} caracteres`),
  );

const triggerField = z.strictObject(
  {
    no_reply_minutes: z
      .number({ error: "Indica tras cuántos minutos sin respuesta se envía" })
      .check(
        z.int("Los minutos deben ser un número entero"),
        z.gte(1, "Como mínimo 1 minuto sin respuesta"),
        z.lte(MAX_NO_REPLY_MINUTES, "Como mucho 30 días (43200 minutos) sin respuesta"),
      ),
    label_ids: z.optional(
      z
        .array(
          z
            .string()
            .check(z.trim(), z.minLength(1, "Identificador de etiqueta vacío"), z.maxLength(200)),
          {
            error: "Las etiquetas deben ser una lista de identificadores",
          },
        )
        .check(z.maxLength(50, "Como mucho 50 etiquetas")),
    ),
    stages: z.optional(
      z
        .array(z.enum(CONVERSATION_STAGES, { error: "Etapa desconocida" }), {
          error: "Las etapas deben ser una lista",
        })
        .check(z.maxLength(CONVERSATION_STAGES.length)),
    ),
  },
  { error: "El disparador debe ser un objeto con no_reply_minutes" },
);

const maxPerConversationField = z
  .number({ error: "Indica cuántas veces como mucho por conversación" })
  .check(
    z.int("Las veces deben ser un número entero"),
    z.gte(1, "Como mínimo una vez por conversación"),
    z.lte(MAX_PER_CONVERSATION, `Como mucho ${MAX_PER_CONVERSATION} veces por conversación`),
  );

const enabledField = z.boolean({ error: "enabled debe ser verdadero o falso" });

/** What a rule sends: text while the window is open, the template otherwise (one at least). */
const MESSAGE_REQUIRED = "Indica un texto, una plantilla o ambos";
const TEXT_ONLY_TOO_LATE =
  "Un seguimiento solo con texto debe enviarse antes de 24 horas (1440 minutos): después WhatsApp solo admite plantillas.";

export const followUpInput = z
  .object({
    name: nameField,
    enabled: z._default(enabledField, true),
    trigger: triggerField,
    template: z.optional(z.nullable(templateSendField)),
    text: z.optional(z.nullable(textField)),
    max_per_conversation: z._default(maxPerConversationField, 1),
  })
  .check(
    z.refine((input) => Boolean(input.template || input.text), {
      path: ["text"],
      message: MESSAGE_REQUIRED,
    }),
    z.refine((input) => input.template || input.trigger.no_reply_minutes < WINDOW_MINUTES, {
      path: ["trigger", "no_reply_minutes"],
      message: TEXT_ONLY_TOO_LATE,
    }),
  );
export type FollowUpInput = z.infer<typeof followUpInput>;

/**
 * A change: what is given replaces what was (`null` removes the template or the text). The
 * rule it makes is checked whole by `followUpInput` (the service applies it first).
 */
export const followUpUpdateInput = z
  .object({
    name: z.optional(nameField),
    enabled: z.optional(enabledField),
    trigger: z.optional(triggerField),
    template: z.optional(z.nullable(templateSendField)),
    text: z.optional(z.nullable(textField)),
    max_per_conversation: z.optional(maxPerConversationField),
  })
  .check(
    z.refine((input) => Object.values(input).some((value) => value !== undefined), {
      path: ["(body)"],
      message: "Indica qué quieres cambiar",
    }),
  );
export type FollowUpUpdate = z.infer<typeof followUpUpdateInput>;

export interface FollowUp {
  id: string;
  name: string;
  enabled: boolean;
  trigger: {
    no_reply_minutes: number;
    /** Only conversations with any of these labels (empty: any conversation). */
    label_ids: string[];
    /** Only conversations in any of these stages (empty: any stage). */
    stages: ConversationStage[];
  };
  /** Sent outside the 24-hour window (and inside it when there is no text). */
  template: {
    name: string;
    language: string;
    category: BroadcastCategory;
    parameters: string[];
  } | null;
  /** Sent while the 24-hour window is open. */
  text: string | null;
  max_per_conversation: number;
  stats: FollowUpStats;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** What a rule has done, over all its sends. */
export interface FollowUpStats {
  /** Accepted by Meta. */
  sent: number;
  /** Of those, inside a click-to-WhatsApp conversation's 72-hour free window (not billed). */
  free: number;
  /** The customer wrote back within 72 h. */
  replied: number;
  /** Refused by Meta, or not sent for an error. */
  failed: number;
  /** Not sent: the window had closed on a text-only rule, or marketing was not allowed. */
  skipped: number;
}
