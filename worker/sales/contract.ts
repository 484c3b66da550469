/**
 * From the ad to the sale: a conversation's stage, the sales recorded in it and what Meta
 * detected in a click-to-WhatsApp thread (server-contract §10). Shared with the console.
 */
import { z } from "zod";

export const CONVERSATION_STAGES = ["new", "lead", "customer", "lost"] as const;
export type ConversationStage = (typeof CONVERSATION_STAGES)[number];

export const STAGE_LABELS: Record<ConversationStage, string> = {
  new: "Nuevo",
  lead: "Interesado",
  customer: "Cliente",
  lost: "Perdido",
};

/** The events Meta's `automatic_events` webhook reports for a click-to-WhatsApp thread. */
export const DETECTED_EVENTS = ["LeadSubmitted", "Purchase"] as const;
export type DetectedEvent = (typeof DETECTED_EVENTS)[number];

/**
 * One event of Meta's `automatic_events` webhook, as the product reads it (server-contract
 * §10): each field typed, so an odd event is skipped on its own and never fails the delivery.
 */
export const detectedEventPayload = z.object({
  id: z.string().min(1).max(200),
  event_name: z.enum(DETECTED_EVENTS),
  ctwa_clid: z.string().min(1).max(500),
  /** Seconds since the epoch; a number or a string of digits. */
  timestamp: z
    .union([
      z.number().int().positive(),
      z
        .string()
        .regex(/^\d{1,12}$/)
        .transform(Number),
    ])
    .optional(),
  custom_data: z
    .object({
      currency: z
        .string()
        .regex(/^[A-Za-z]{3}$/)
        .transform((code) => code.toUpperCase())
        .optional(),
      value: z
        .union([
          z.number().nonnegative().max(1_000_000_000),
          z
            .string()
            .regex(/^\d{1,10}(\.\d{1,6})?$/)
            .transform(Number),
        ])
        .optional(),
    })
    .optional(),
});
export type DetectedEventPayload = z.output<typeof detectedEventPayload>;

export const SUGGESTION_STATUSES = ["pending", "confirmed", "dismissed"] as const;

export const DEFAULT_CURRENCY = "EUR";

export const currencyField = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, "Moneda ISO 4217 de tres letras (por ejemplo EUR)");

/** A positive amount with at most two decimals, as a string ("35", "35.50"). */
export const moneyField = (label: string) =>
  z
    .string({ error: `${label} es un importe en texto, por ejemplo "35.50"` })
    .trim()
    .regex(/^\d{1,7}(\.\d{1,2})?$/, `${label}: un importe con hasta dos decimales, como "35.50"`)
    .refine((amount) => Number(amount) > 0, `${label} debe ser mayor que 0`);

/** `POST /conversations/{id}/sales`: the amount, and its currency (the organization's by default). */
export const saleInput = z.object({
  value: z
    .number({ error: "El importe debe ser un número" })
    .positive("El importe debe ser mayor que 0")
    .max(1_000_000_000, "El importe es demasiado grande"),
  currency: currencyField.optional(),
});
export type SaleInput = z.input<typeof saleInput>;

/**
 * The `Idempotency-Key` header of a sale or a booking: what makes a retried or double-clicked
 * request one sale, one booking.
 */
export const idempotencyHeaders = z.object({
  "idempotency-key": z
    .string()
    .trim()
    .min(1, "Idempotency-Key no puede estar vacío")
    .max(200, "Idempotency-Key no puede superar 200 caracteres")
    .regex(/^[\x21-\x7e]+$/, "Idempotency-Key solo admite caracteres ASCII visibles")
    .optional(),
});

export interface Suggestion {
  id: string;
  event_name: DetectedEvent;
  value: number | null;
  currency: string | null;
  detected_at: string;
}

/** Where the customer came from: the ad they clicked, or the landing-page visit they made. */
export type ConversationOrigin =
  | {
      type: "ad";
      ad_id: string | null;
      headline: string | null;
      source_url: string | null;
      clicked_at: string;
    }
  | {
      type: "visit";
      source: string | null;
      campaign: string | null;
      landing_page: string | null;
      visited_at: string;
    };
