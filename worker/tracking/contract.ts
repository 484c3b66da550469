/** Shapes of the tracking calls, shared by the API, the console and the embeddable script. */
import { z } from "zod";

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

const param = z.string().trim().max(500, "Parámetro demasiado largo");

export const trackingParamsField = z
  .object(
    Object.fromEntries(TRACKING_PARAM_KEYS.map((k) => [k, param.optional()])) as Record<
      (typeof TRACKING_PARAM_KEYS)[number],
      z.ZodOptional<typeof param>
    >,
  )
  .transform((params) =>
    Object.fromEntries(Object.entries(params).filter(([, v]) => typeof v === "string" && v !== "")),
  ) as z.ZodType<Partial<Record<(typeof TRACKING_PARAM_KEYS)[number], string>>>;

export const trackingSessionInput = z
  .object({
    tracking_params: trackingParamsField,
    user_agent: z.string().max(1000).optional(),
    referrer: z.string().max(2000).optional(),
    landing_page: z.string().max(2000).optional(),
  })
  .refine((s) => SESSION_TRIGGER_KEYS.some((k) => s.tracking_params[k]), {
    path: ["tracking_params"],
    message: `Se necesita al menos uno de: ${SESSION_TRIGGER_KEYS.join(", ")}`,
  });

const phone = z
  .string()
  .transform((v) => v.replace(/[\s().+-]/g, ""))
  .pipe(z.string().regex(/^[1-9]\d{6,14}$/, "Introduce un teléfono con prefijo de país"));

export const trackingSessionUpdateInput = z.object({ phone_number: phone });

export const conversionInput = z.object({
  event_name: z.enum(CONVERSION_EVENTS, { error: "Evento no válido" }),
  phone_number: phone.optional(),
  tracking_params: trackingParamsField.optional(),
  tracking_session_id: z.string().max(64).optional(),
  conversion_value: z.number().min(0).max(1e9).optional(),
  currency: z
    .string()
    .regex(/^[A-Z]{3}$/, "Moneda ISO 4217 de tres letras")
    .optional(),
  custom_data: z.record(z.string(), z.unknown()).optional(),
});

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Fecha con formato AAAA-MM-DD")
  .refine((v) => {
    const time = Date.parse(`${v}T00:00:00.000Z`);
    return Number.isFinite(time) && new Date(time).toISOString().startsWith(v);
  }, "La fecha no existe");

export const dateRangeQuery = z
  .object({
    date_from: day.optional(),
    date_to: day.optional(),
    event_name: z.enum(CONVERSION_EVENTS).optional(),
  })
  .refine((q) => !q.date_from || !q.date_to || q.date_from <= q.date_to, {
    path: ["date_from"],
    message: "La fecha inicial debe ser anterior a la final",
  });

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

export interface TrackingStats {
  total_sessions: number;
  total_conversions: number;
  conversion_rate: number;
  total_value: number;
  by_source: Record<string, number>;
  by_campaign: Record<string, number>;
}
