/**
 * The booking Flow (contract section 18): what WhatsApp posts to `/webhooks/flows`, what the
 * store answers it, and what the console sends a conversation.
 */
import { z } from "zod/mini";

/** What WhatsApp posts: three base64 strings. Anything else cannot be decrypted (421). */
export const encryptedRequest = z.object({
  encrypted_flow_data: z.string().check(z.minLength(1)),
  encrypted_aes_key: z.string().check(z.minLength(1)),
  initial_vector: z.string().check(z.minLength(1)),
});

/** A decrypted request (data API 3.0). Unknown fields are ignored. */
export const flowExchange = z.object({
  version: z._default(z.string(), "3.0"),
  action: z.enum(["ping", "INIT", "data_exchange", "BACK"]),
  screen: z.optional(z.string()),
  data: z.optional(z.record(z.string(), z.unknown())),
  flow_token: z.optional(z.string().check(z.maxLength(200))),
});
export type FlowExchange = z.output<typeof flowExchange>;

/** The endpoint's answer, before it is encrypted: the next screen and its data. */
export interface FlowAnswer {
  version: string;
  screen?: string;
  data: Record<string, unknown>;
}

/** What the store answers the edge: a screen to encrypt, or the token is not valid (427). */
export type ExchangeOutcome = { answer: FlowAnswer } | { invalidToken: true };

/** How long a token sent with a Flow or a list stays valid (Meta's rule for 427). */
export const FLOW_TOKEN_TTL_MS = 24 * 60 * 60_000;

/** The Flow message's button, and the list's (at most 20 characters each). */
export const FLOW_CTA = "Reservar cita";
export const LIST_BUTTON = "Ver horarios";

/** Slots a fallback list offers (a list message holds at most ten rows). */
export const LIST_SLOTS = 10;

/** The prefix of a fallback list row's id: `cita:<token>:<index>`. */
export const LIST_REPLY_PREFIX = "cita:";

/** `POST /conversations/{id}/booking-flow`. */
export const bookingFlowSendInput = z.object({
  service_id: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
});

/** What the send answers: the message sent, and which of the two it was. */
export interface BookingFlowSent {
  kind: "flow" | "list";
  message_id: string;
}

/** The booking Flow on the account, as `POST /whatsapp/booking-flow` answers it. */
export interface BookingFlowState {
  flow_id: string | null;
  published: boolean;
  error: string | null;
}
