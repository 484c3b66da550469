/**
 * From the ad to the sale: a conversation's stage, the sales recorded in it and what Meta
 * detected in a click-to-WhatsApp thread (server-contract §10). Shared with the console.
 */
import { z } from "zod/mini";

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
  id: z.string().check(z.minLength(1), z.maxLength(200)),
  event_name: z.enum(DETECTED_EVENTS),
  ctwa_clid: z.string().check(z.minLength(1), z.maxLength(500)),
  /** Seconds since the epoch; a number or a string of digits. */
  timestamp: z.optional(
    z.union([
      z.number().check(z.int(), z.positive()),
      z.pipe(z.string().check(z.regex(/^\d{1,12}$/)), z.transform(Number)),
    ]),
  ),
  custom_data: z.optional(
    z.object({
      currency: z.optional(
        z.pipe(
          z.string().check(z.regex(/^[A-Za-z]{3}$/)),
          z.transform((code) => code.toUpperCase()),
        ),
      ),
      value: z.optional(
        z.union([
          z.number().check(z.nonnegative(), z.lte(1_000_000_000)),
          z.pipe(z.string().check(z.regex(/^\d{1,10}(\.\d{1,6})?$/)), z.transform(Number)),
        ]),
      ),
    }),
  ),
});
export type DetectedEventPayload = z.output<typeof detectedEventPayload>;

export const SUGGESTION_STATUSES = ["pending", "confirmed", "dismissed"] as const;

export const DEFAULT_CURRENCY = "EUR";

export const currencyField = z
  .string()
  .check(
    z.trim(),
    z.toUpperCase(),
    z.regex(/^[A-Z]{3}$/, "Moneda ISO 4217 de tres letras (por ejemplo EUR)"),
  );

/** A positive amount with at most two decimals, as a string ("35", "35.50"). */
export const moneyField = (label: string) =>
  z.string({ error: `${label} es un importe en texto, por ejemplo "35.50"` }).check(
    z.trim(),
    z.regex(/^\d{1,7}(\.\d{1,2})?$/, `${label}: un importe con hasta dos decimales, como "35.50"`),
    z.refine((amount) => Number(amount) > 0, `${label} debe ser mayor que 0`),
  );

/** `POST /conversations/{id}/sales`: the amount, and its currency (the organization's by default). */
export const saleInput = z.object({
  value: z
    .number({ error: "El importe debe ser un número" })
    .check(
      z.positive("El importe debe ser mayor que 0"),
      z.lte(1_000_000_000, "El importe es demasiado grande"),
    ),
  currency: z.optional(currencyField),
});
export type SaleInput = z.input<typeof saleInput>;

/**
 * The `Idempotency-Key` header of a sale or a booking: what makes a retried or double-clicked
 * request one sale, one booking.
 */
export const idempotencyHeaders = z.object({
  "idempotency-key": z.optional(
    z
      .string()
      .check(
        z.trim(),
        z.minLength(1, "Idempotency-Key no puede estar vacío"),
        z.maxLength(200, "Idempotency-Key no puede superar 200 caracteres"),
        z.regex(/^[\x21-\x7e]+$/, "Idempotency-Key solo admite caracteres ASCII visibles"),
      ),
  ),
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
