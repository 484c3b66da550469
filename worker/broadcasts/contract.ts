/**
 * Broadcasts ("Difusiones", contract section 17): one approved template sent to a segment of
 * the organization's customers. This slice keeps the broadcast, its audience and its preview;
 * sending, pacing and results come next.
 */
import { z } from "zod";
import { templateSendField } from "../conversations/contract";
import { CONVERSATION_STAGES, type ConversationStage } from "../sales/contract";

/** A broadcast's life: edited while `draft` or `scheduled`, then sent, paused or cancelled. */
export const BROADCAST_STATUSES = [
  "draft",
  "scheduled",
  "sending",
  "paused",
  "completed",
  "cancelled",
] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

/** The statuses a manager may still edit or delete a broadcast in. */
export const EDITABLE_STATUSES: readonly BroadcastStatus[] = ["draft", "scheduled"];

/** The template categories a broadcast may use (Meta's, as the templates list writes them). */
export const BROADCAST_CATEGORIES = ["MARKETING", "UTILITY"] as const;
export type BroadcastCategory = (typeof BROADCAST_CATEGORIES)[number];

/**
 * One recipient's way through a send (next slice): `pending` until sent, then Meta's statuses;
 * `skipped` when consent left them out at send time, `limited` on 131049 (never retried).
 */
export const RECIPIENT_STATES = [
  "pending",
  "sent",
  "delivered",
  "read",
  "failed",
  "skipped",
  "limited",
] as const;
export type RecipientState = (typeof RECIPIENT_STATES)[number];

/** How many ids one criterion may list (a segment, not a customer list). */
const MAX_CRITERION_IDS = 50;

const idList = (what: string) =>
  z
    .array(z.string().trim().min(1, `Identificador de ${what} vacío`).max(200), {
      error: `Los ${what} deben ser una lista de identificadores`,
    })
    .min(1, `Indica al menos un ${what} o quita el criterio`)
    .max(MAX_CRITERION_IDS, `Como mucho ${MAX_CRITERION_IDS} ${what}`);

/** A day (`2026-11-20`) or an instant (`2026-11-20T10:00:00Z`, with its offset), as ISO UTC. */
const isoInstant = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .refine(
      (text) =>
        /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(text) &&
        !Number.isNaN(Date.parse(text)),
      message,
    )
    .transform((text) => new Date(Date.parse(text)).toISOString());

/**
 * Who a broadcast goes to: every criterion given must hold (AND), each list is any of its
 * values. Evaluated when asked (preview, send), never stored as conversation ids.
 */
export const audienceField = z
  .strictObject(
    {
      label_ids: idList("etiquetas").optional(),
      stages: z
        .array(z.enum(CONVERSATION_STAGES, { error: "Etapa desconocida" }), {
          error: "Las etapas deben ser una lista",
        })
        .min(1, "Indica al menos una etapa o quita el criterio")
        .max(CONVERSATION_STAGES.length)
        .optional(),
      ad_ids: idList("anuncios").optional(),
      last_inbound_before: isoInstant(
        "last_inbound_before debe ser una fecha ISO (por ejemplo 2026-11-20)",
      ).optional(),
      last_inbound_after: isoInstant(
        "last_inbound_after debe ser una fecha ISO (por ejemplo 2026-11-20)",
      ).optional(),
      has_phone: z.boolean({ error: "has_phone debe ser verdadero o falso" }).optional(),
    },
    { error: "La audiencia debe ser un objeto con criterios conocidos" },
  )
  .refine(
    (a) =>
      !a.last_inbound_before ||
      !a.last_inbound_after ||
      a.last_inbound_after < a.last_inbound_before,
    {
      path: ["last_inbound_after"],
      message: "last_inbound_after debe ser anterior a last_inbound_before",
    },
  );
export type Audience = z.infer<typeof audienceField>;

const nameField = z
  .string({ error: "El nombre es obligatorio" })
  .trim()
  .min(1, "El nombre es obligatorio")
  .max(120, "El nombre no puede superar 120 caracteres");

/** When to send it (UTC ISO); checked to be in the future by the service. */
const sendAtField = isoInstant("send_at debe ser una fecha y hora ISO").nullable();

export const broadcastInput = z.object({
  name: nameField,
  template: templateSendField,
  audience: audienceField.default({}),
  send_at: sendAtField.optional(),
});
export type BroadcastInput = z.infer<typeof broadcastInput>;

export const broadcastUpdateInput = z
  .object({
    name: nameField.optional(),
    template: templateSendField.optional(),
    audience: audienceField.optional(),
    send_at: sendAtField.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    path: ["(body)"],
    message: "Indica qué quieres cambiar",
  });
export type BroadcastUpdate = z.infer<typeof broadcastUpdateInput>;

/** `GET /broadcasts`: newest first, `before` being the id of the last one already shown. */
export const broadcastListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50),
  before: z.uuid({ error: "before debe ser el id de una difusión" }).optional(),
});

/** The audience as the API answers it (the criteria given, nothing else). */
export interface AudienceCriteria {
  label_ids?: string[];
  stages?: ConversationStage[];
  ad_ids?: string[];
  last_inbound_before?: string;
  last_inbound_after?: string;
  has_phone?: boolean;
}

export interface Broadcast {
  id: string;
  name: string;
  status: BroadcastStatus;
  template: {
    name: string;
    language: string;
    category: BroadcastCategory;
    parameters: string[];
  };
  audience: AudienceCriteria;
  send_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** Why a customer of the audience is left out of the send. */
export interface SkippedCounts {
  opted_out: number;
  limited: number;
  unreachable: number;
}

/** A country's part of the estimate (`ZZ`: a customer whose country is unknown). */
export interface CountryCost {
  recipients: number;
  /** Per message, in the organization's currency; null: no rate in it (see `source`). */
  rate: number | null;
  amount: number | null;
  /** The organization's own latest figures from Meta, or the rate card the product ships. */
  source: "analytics" | "rate_card";
}

export interface BroadcastPreview {
  recipients: number;
  skipped: SkippedCounts;
  estimated_cost: {
    /** Null when a country's rate could not be given in the organization's currency. */
    amount: number | null;
    currency: string;
    by_country: Record<string, CountryCost>;
  };
}
