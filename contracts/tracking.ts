/** Shapes of the tracking calls, shared by the API, the console and the embeddable script. */
import { z } from "zod/mini";

export const TRACKING_PARAM_KEYS = [
  "fbclid",
  "gclid",
  "utm_source",
  "utm_medium",
  "utm_campaign",
  "utm_term",
  "utm_content",
  "ref",
  "ad_id",
  "campaign_id",
  "adset_id",
] as const;

/** A session is only worth creating when the visit came from somewhere we can attribute. */
export const SESSION_TRIGGER_KEYS = [
  "fbclid",
  "gclid",
  "utm_source",
  "ref",
  "ad_id",
  "campaign_id",
] as const;

export const CONVERSION_EVENTS = [
  "whatsapp_click",
  "conversation_start",
  "first_message",
  "lead",
  "contact",
  "message_sent",
  "purchase",
] as const;
export type ConversionEvent = (typeof CONVERSION_EVENTS)[number];

/**
 * What a landing page may record with the public key alone: the visit's steps, never a lead,
 * a contact, a message or a sale (those need a signed-in member).
 */
export const PUBLIC_KEY_EVENTS = [
  "whatsapp_click",
  "conversation_start",
  "first_message",
] as const satisfies readonly ConversionEvent[];

/** custom_data keys that carry money: refused with the public key, like conversion_value. */
export const VALUE_KEYS = ["value", "currency", "predicted_ltv"] as const;

// tracking_params keeps only the keys above (zod drops the others), each at most 500
// characters: at most 11 × 500 characters in all.
const param = z.string().check(z.trim(), z.maxLength(500, "Parámetro demasiado largo"));

type TrackingParamsShape = Partial<Record<(typeof TRACKING_PARAM_KEYS)[number], string>>;

export const trackingParamsField = z.pipe(
  z.object(
    Object.fromEntries(TRACKING_PARAM_KEYS.map((k) => [k, z.optional(param)])) as Record<
      (typeof TRACKING_PARAM_KEYS)[number],
      z.ZodMiniOptional<typeof param>
    >,
  ),
  z.transform((params) =>
    Object.fromEntries(Object.entries(params).filter(([, v]) => typeof v === "string" && v !== "")),
  ),
) as z.ZodMiniType<TrackingParamsShape, TrackingParamsShape>;

export const trackingSessionInput = z
  .object({
    tracking_params: trackingParamsField,
    user_agent: z.optional(z.string().check(z.maxLength(1000))),
    referrer: z.optional(z.string().check(z.maxLength(2000))),
    landing_page: z.optional(z.string().check(z.maxLength(2000))),
  })
  .check(
    z.refine((s) => SESSION_TRIGGER_KEYS.some((k) => s.tracking_params[k]), {
      path: ["tracking_params"],
      message: `Se necesita al menos uno de: ${SESSION_TRIGGER_KEYS.join(", ")}`,
    }),
  );

const phone = z.pipe(
  z.pipe(
    z.string(),
    z.transform((v) => v.replace(/[\s().+-]/g, "")),
  ),
  z.string().check(z.regex(/^[1-9]\d{6,14}$/, "Introduce un teléfono con prefijo de país")),
);

export const trackingSessionUpdateInput = z.object({ phone_number: phone });

/**
 * custom_data is a flat record (Meta's custom_data fields, a lead's name or company): at most
 * 50 keys of up to 100 characters, each value a text of up to 1000 characters, a number, a
 * boolean or null, and at most 4 KB as JSON. Lists and nested objects are refused.
 */
export const CUSTOM_DATA_LIMITS = { keys: 50, keyLength: 100, textLength: 1000, bytes: 4096 };

const isFlatValue = (value: unknown) =>
  value === null || ["string", "number", "boolean"].includes(typeof value);

/** Why custom_data is refused, in the words of the 422; null when it is within the limits. */
export function customDataProblem(data: Record<string, unknown>): string | null {
  const { keys, keyLength, textLength, bytes } = CUSTOM_DATA_LIMITS;
  const entries = Object.entries(data);
  if (entries.length > keys) return `custom_data admite como mucho ${keys} campos.`;
  if (entries.some(([key]) => key.length === 0 || key.length > keyLength)) {
    return `Cada campo de custom_data necesita un nombre de 1 a ${keyLength} caracteres.`;
  }
  if (!entries.every(([, value]) => isFlatValue(value))) {
    return "custom_data solo admite textos, números, verdadero/falso o null (sin listas ni objetos).";
  }
  if (entries.some(([, value]) => typeof value === "string" && value.length > textLength)) {
    return `Cada texto de custom_data admite como mucho ${textLength} caracteres.`;
  }
  if (new TextEncoder().encode(JSON.stringify(data)).length > bytes) {
    return `custom_data no puede superar 4 KB (${bytes} bytes en JSON).`;
  }
  return null;
}

const customDataField = z.record(z.string(), z.unknown()).check(
  z.superRefine((data, ctx) => {
    const problem = customDataProblem(data);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  }),
);

export const conversionInput = z.object({
  event_name: z.enum(CONVERSION_EVENTS, { error: "Evento no válido" }),
  phone_number: z.optional(phone),
  tracking_params: z.optional(trackingParamsField),
  tracking_session_id: z.optional(z.string().check(z.maxLength(64))),
  conversion_value: z.optional(z.number().check(z.gte(0), z.lte(1e9))),
  currency: z.optional(z.string().check(z.regex(/^[A-Z]{3}$/, "Moneda ISO 4217 de tres letras"))),
  custom_data: z.optional(customDataField),
});

const day = z.string().check(
  z.regex(/^\d{4}-\d{2}-\d{2}$/, "Fecha con formato AAAA-MM-DD"),
  z.refine((v) => {
    const time = Date.parse(`${v}T00:00:00.000Z`);
    return Number.isFinite(time) && new Date(time).toISOString().startsWith(v);
  }, "La fecha no existe"),
);

const dateRangeFields = z.object({
  date_from: z.optional(day),
  date_to: z.optional(day),
  event_name: z.optional(z.enum(CONVERSION_EVENTS)),
});

const isOrdered = (q: { date_from?: string; date_to?: string }) =>
  !q.date_from || !q.date_to || q.date_from <= q.date_to;
const unordered = { path: ["date_from"], message: "La fecha inicial debe ser anterior a la final" };

export const dateRangeQuery = dateRangeFields.check(z.refine(isOrdered, unordered));

/** The longest period read from Meta at once (its pricing analytics look back 90 days). */
export const MAX_REPORT_DAYS = 90;
const withinCap = (q: { date_from?: string; date_to?: string }) => {
  if (!q.date_from) return true;
  const to = q.date_to ?? new Date().toISOString().slice(0, 10);
  return Date.parse(to) - Date.parse(q.date_from) < MAX_REPORT_DAYS * 86_400_000;
};

/** A period of Meta's figures (ads, message costs): ordered and at most 90 days. */
export const reportRangeQuery = dateRangeQuery.check(
  z.refine(withinCap, {
    path: ["date_from"],
    message: `El periodo no puede superar ${MAX_REPORT_DAYS} días.`,
  }),
);

export const CONVERSIONS_PAGE_SIZE = 50;

/** `before` is the id of the last conversion already shown; the next page is older than it. */
export const conversionsQuery = z
  .extend(dateRangeFields, {
    limit: z._default(
      z.coerce.number().check(z.int(), z.gte(1), z.lte(200)),
      CONVERSIONS_PAGE_SIZE,
    ),
    before: z.optional(z.uuid()),
  })
  .check(z.refine(isOrdered, unordered));

export type TrackingParams = Partial<Record<(typeof TRACKING_PARAM_KEYS)[number], string>>;

export interface TrackingSession {
  id: string;
  tracking_params: TrackingParams;
  user_agent: string | null;
  referrer: string | null;
  landing_page: string | null;
  phone_number: string | null;
  /** Short code the decorated WhatsApp link carries, matched back by the webhook. */
  ref_code: string | null;
  created_at: string;
}

/**
 * What a page holding only the public key sees of its session: never the phone. Marked absent
 * (not just left out) so that a route answering either keeps both shapes in its type.
 */
export type PublicTrackingSession = Omit<TrackingSession, "phone_number"> & {
  phone_number?: never;
};

export interface Conversion {
  id: string;
  event_name: ConversionEvent;
  event_id: string;
  phone_number: string | null;
  tracking_params: TrackingParams | null;
  conversion_value: number | null;
  currency: string | null;
  custom_data: Record<string, unknown> | null;
  event_time: string;
  capi_status: "not_sent" | "pending" | "sent" | "failed" | "expired";
  capi_result: Record<string, unknown> | null;
}

/** One page of conversions, newest first. */
export interface ConversionPage {
  conversions: Conversion[];
  has_more: boolean;
}

/**
 * What a page holding only the public key learns of the conversion it recorded: the same
 * whether or not the phone it named belongs to a customer.
 */
export interface RecordedConversion {
  id: string;
  event_name: ConversionEvent;
}

export interface TrackingStats {
  total_sessions: number;
  total_conversions: number;
  conversion_rate: number;
  total_value: number;
  by_source: Record<string, number>;
  by_campaign: Record<string, number>;
  /** Conversions per UTC day ("YYYY-MM-DD"), days without any left out. */
  by_day: Record<string, number>;
}
