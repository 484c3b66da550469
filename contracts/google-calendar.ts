/**
 * Google Calendar (contract section 18, decisions 0124-0127): what the console reads of the
 * organization's connection and what it may change. Shared with the console.
 */
import { z } from "zod/mini";

/** `PUT /integrations/google`: the calendar whose busy times count and where events go. */
export const googleCalendarInput = z.object({
  calendar_id: z
    .string({ error: "El calendario es obligatorio" })
    .check(
      z.trim(),
      z.minLength(1, "El calendario es obligatorio"),
      z.maxLength(300, "El calendario no puede superar 300 caracteres"),
      z.regex(/^[\x21-\x7e]+$/, "El calendario solo admite caracteres ASCII visibles"),
    ),
});

/** `GET /integrations/google`: never a token. */
export interface GoogleIntegration {
  /** The server has Google's OAuth client (GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET). */
  configured: boolean;
  connected: boolean;
  calendar_id: string | null;
  connected_at: string | null;
  connected_by: string | null;
  /** Google refused the grant: the banner owners and admins see until they connect again. */
  revoked_at: string | null;
  /** Events owed to Google and not yet written (retried by the store). */
  pending_events: number;
  /** Events Google refused as they were: written again when their booking changes. */
  refused_events: number;
}

/** How availability used Google Calendar: its busy times, or not (and why, in Spanish). */
export type GoogleBusyUse = "applied" | "unavailable" | null;

export const GOOGLE_NOT_CONFIGURED =
  "Google Calendar no está configurado en el servidor (faltan GOOGLE_CLIENT_ID y GOOGLE_CLIENT_SECRET).";
export const GOOGLE_UNAVAILABLE_NOTICE =
  "No se pudo consultar Google Calendar: los huecos se calculan solo con la agenda propia.";
export const GOOGLE_REVOKED_BANNER =
  "Google Calendar se desconectó porque Google retiró el permiso. Las citas siguen en la agenda propia; vuelve a conectarlo.";

/** Why Google's redirect did not connect: the Agenda says it (`/agenda?google_error=<code>`). */
export const GOOGLE_CONNECT_ERRORS = {
  access_denied: "No se concedió el acceso a Google Calendar.",
  no_code: "Google no devolvió un código de autorización. Vuelve a conectar desde la Agenda.",
  invalid_state: "La solicitud de conexión no es válida o ha caducado.",
  token_exchange_failed:
    "No se pudo canjear el código de Google. Vuelve a intentarlo desde la Agenda.",
  no_refresh_token:
    "Google no concedió acceso sin conexión al calendario. Vuelve a conectar y acepta los permisos.",
} as const;
export type GoogleConnectError = keyof typeof GOOGLE_CONNECT_ERRORS;
