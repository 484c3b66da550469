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

export const SUGGESTION_STATUSES = ["pending", "confirmed", "dismissed"] as const;

export const DEFAULT_CURRENCY = "EUR";

export const currencyField = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, "Moneda ISO 4217 de tres letras (por ejemplo EUR)");
