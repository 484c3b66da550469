/** Shapes of the Meta pixel calls, shared by the API and the console. */
import { z } from "zod/mini";
import { metaAccessToken } from "./meta-token";

const pixelId = z
  .string({ error: "El identificador del pixel es obligatorio" })
  .check(z.trim(), z.regex(/^\d{5,20}$/, "El identificador del pixel son solo dígitos"));

export const pixelConfigInput = z.object({
  pixel_id: pixelId,
  access_token: metaAccessToken,
});

export const pixelConfigUpdateInput = z.partial(pixelConfigInput);

/** Connect by pixel id (with the token of the organization's Facebook Login) or by a login code. */
export const pixelConnectInput = z.union([
  z.object({ code: z.string().check(z.trim(), z.minLength(1), z.maxLength(2000)) }),
  z.object({ pixel_id: pixelId }),
]);

export interface PixelConfig {
  id: string;
  pixel_id: string;
  ad_account_id: string | null;
  status: "connected" | "connecting" | "disconnected" | "error";
  test_event_code: string | null;
  created_at: string;
}

export interface PixelTestResult {
  success: boolean;
  pixel_name?: string;
  error?: string;
}

/** Meta's `action_source` values. */
const ACTION_SOURCES = [
  "website",
  "app",
  "email",
  "phone_call",
  "chat",
  "physical_store",
  "system_generated",
  "business_messaging",
  "other",
] as const;

const SEVEN_DAYS_S = 7 * 24 * 60 * 60;

/** One Conversions API event as Meta documents it; Meta's optional fields pass through. */
const metaEvent = z.looseObject({
  event_name: z.string().check(z.trim(), z.minLength(1, "Falta event_name"), z.maxLength(100)),
  event_time: z.number({ error: "event_time son segundos desde 1970" }).check(
    z.int("event_time son segundos desde 1970"),
    z.refine((t) => {
      const now = Date.now() / 1000;
      return t >= now - SEVEN_DAYS_S && t <= now + 60;
    }, "Meta solo acepta eventos de los últimos 7 días"),
  ),
  event_id: z.optional(z.string().check(z.maxLength(200))),
  action_source: z.enum(ACTION_SOURCES, { error: "action_source no válido" }),
  event_source_url: z.optional(z.url("event_source_url no es una URL").check(z.maxLength(2000))),
  user_data: z.record(z.string(), z.unknown(), { error: "Falta user_data" }),
  custom_data: z.optional(z.record(z.string(), z.unknown())),
});

/** `POST /tracking/facebook-conversions`: events sent as given to a pixel. */
export const facebookConversionsInput = z.object({
  pixel_id: pixelId,
  access_token: pixelConfigInput.shape.access_token,
  events: z
    .array(metaEvent, { error: "events debe ser una lista" })
    .check(
      z.minLength(1, "Envía al menos un evento"),
      z.maxLength(1000, "Meta acepta como mucho 1.000 eventos por petición"),
    ),
});

export interface TestConversionResult {
  success: boolean;
  test_event_code?: string;
  events_received?: number;
  fbtrace_id?: string | null;
  error?: string;
}
