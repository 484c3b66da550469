/**
 * Conversions API events, built from a stored conversion exactly as Meta documents them.
 * Pure functions: what is sent, and whether Meta would accept it, decided before any call.
 */
import { sha256Hex } from "../../worker/auth/tokens";
import type { conversions } from "../schema";
import type { ConversionEvent } from "../../contracts/tracking";
import { DEFAULT_CURRENCY } from "../../contracts/sales";

type ConversionRow = typeof conversions.$inferSelect;

/** Meta refuses events older than seven days. */
export const MAX_EVENT_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/** Meta refuses a request with more than 1,000 events. */
export const MAX_EVENTS_PER_REQUEST = 1000;

/**
 * Meta's standard event for each of ours, on the web and for click-to-WhatsApp. The other
 * events (clicks, conversation starts, messages) stay in our analytics: Meta counts
 * conversations itself. Click-to-WhatsApp takes only LeadSubmitted, Purchase, AddToCart,
 * InitiateCheckout and ViewContent, and refuses a whole request for any other name
 * (subcode 2804066): a `contact` from an ad click stays in our analytics.
 */
const META_EVENT_NAMES: Partial<
  Record<ConversionEvent, { website: string; business_messaging?: string }>
> = {
  lead: { website: "Lead", business_messaging: "LeadSubmitted" },
  purchase: { website: "Purchase", business_messaging: "Purchase" },
  contact: { website: "Contact" },
};

export type MetaChannel = "website" | "business_messaging";

/** Whether Meta takes this event on that channel (the pixel, or the WABA's dataset). */
export const isSentToMeta = (eventName: ConversionEvent, channel: MetaChannel) =>
  META_EVENT_NAMES[eventName]?.[channel] !== undefined;

/** Digits only, country code kept, no leading zeros: the form Meta hashes phones in. */
export function normalizePhone(phone: string) {
  return phone.replace(/\D/g, "").replace(/^0+/, "");
}

/** The `fbc` click id: `fb.1.<time of the click in ms>.<fbclid>`. */
export const fbcOf = (clickTimeMs: number, fbclid: string) => `fb.1.${clickTimeMs}.${fbclid}`;

const toSeconds = (iso: string) => Math.floor(Date.parse(iso) / 1000);

function customData(row: ConversionRow) {
  return {
    ...row.customData,
    ...(row.conversionValue !== null && { value: row.conversionValue }),
    currency: row.currency ?? DEFAULT_CURRENCY,
  };
}

/** Why Meta would refuse the event, in words the console shows; null when it is fine. */
function purchaseProblem(row: ConversionRow) {
  return row.eventName === "purchase" && row.conversionValue === null
    ? "Una compra necesita un valor para enviarse a Meta."
    : null;
}

export type BuiltEvent = { event: Record<string, unknown> } | { problem: string };

/** A web event for the pixel; `clickTimeMs` is when the fbclid was first seen. */
export async function websiteEvent(row: ConversionRow, clickTimeMs: number | null) {
  const problem = purchaseProblem(row);
  if (problem) return { problem };
  if (!row.clientUserAgent || !row.sourceUrl) {
    return {
      problem: "Faltan el navegador o la página de la visita: Meta los exige en los eventos web.",
    };
  }
  const fbclid = row.trackingParams?.fbclid;
  const userData: Record<string, unknown> = { client_user_agent: row.clientUserAgent };
  if (row.clientIp) userData.client_ip_address = row.clientIp;
  if (row.phoneNumber) userData.ph = [await sha256Hex(normalizePhone(row.phoneNumber))];
  if (fbclid) userData.fbc = fbcOf(clickTimeMs ?? Date.parse(row.eventTime), fbclid);
  return {
    event: {
      event_name: META_EVENT_NAMES[row.eventName]!.website,
      event_time: toSeconds(row.eventTime),
      event_id: row.eventId,
      action_source: "website",
      event_source_url: row.sourceUrl,
      user_data: userData,
      custom_data: customData(row),
    },
  };
}

/** A click-to-WhatsApp event for the WhatsApp Business Account's dataset. */
export function businessMessagingEvent(row: ConversionRow, wabaId: string): BuiltEvent {
  const eventName = META_EVENT_NAMES[row.eventName]?.business_messaging;
  if (!eventName) {
    return { problem: "Meta no admite este evento en los anuncios que abren WhatsApp." };
  }
  const problem = purchaseProblem(row);
  if (problem) return { problem };
  return {
    event: {
      event_name: eventName,
      event_time: toSeconds(row.eventTime),
      event_id: row.eventId,
      action_source: "business_messaging",
      messaging_channel: "whatsapp",
      user_data: { whatsapp_business_account_id: wabaId, ctwa_clid: row.ctwaClid },
      custom_data: customData(row),
    },
  };
}

/** Minutes to wait before the n-th retry: 1, 4, 16, 64, 256, then every 6 hours. */
export function retryDelayMs(attempts: number) {
  return Math.min(60_000 * 4 ** Math.max(0, attempts - 1), 6 * 60 * 60 * 1000);
}
