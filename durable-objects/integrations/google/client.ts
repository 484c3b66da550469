/**
 * Google's OAuth 2.0 server and Calendar API v3 as the product calls them (contract section 18):
 * the code exchanged and the access token refreshed at `{GOOGLE_OAUTH_URL}/token`, busy times
 * from `POST {GOOGLE_API_URL}/calendar/v3/freeBusy`, a booking's event inserted, patched and
 * deleted at `/calendar/v3/calendars/{id}/events`. Every failure is one `GoogleError`, its
 * `reason` what the product does about it; Google's own words go to the log only.
 */
import type { Env } from "../../../worker/env";

/** What a failure means to the product. */
export type GoogleFailure =
  /** The grant is gone (revoked, expired, the password changed): disconnect. */
  | "invalid_grant"
  /** The access token was refused: refresh it and try once more. */
  | "unauthorized"
  /** The event (or calendar) is not there, or was deleted. */
  | "not_found"
  /** An event with that id exists already (an earlier insert whose answer was lost). */
  | "conflict"
  /**
   * Google refused the request as it is (400, 422, a 403 that is not a rate limit): sent again
   * unchanged it would be refused again.
   */
  | "refused"
  /** Anything else: Google down, slow, or limiting the rate; tried again later. */
  | "unavailable";

export class GoogleError extends Error {
  constructor(
    readonly reason: GoogleFailure,
    readonly status: number,
    readonly providerMessage: string,
  ) {
    super(`Google Calendar: ${reason} (${status})`);
  }
}

const TIMEOUT_MS = 10_000;
/**
 * Busy times are read while someone waits for slots (WhatsApp gives a Flow's endpoint ten
 * seconds for its whole answer): past this, the own calendar answers alone.
 */
const BUSY_TIMEOUT_MS = 3_000;

export const CONSENT_URL = "https://accounts.google.com/o/oauth2/v2/auth";
export const SCOPES = [
  "https://www.googleapis.com/auth/calendar.events",
  "https://www.googleapis.com/auth/calendar.freebusy",
];

export interface TokenAnswer {
  access_token: string;
  expires_in: number;
  refresh_token?: string;
}

export interface BusyInterval {
  start: string;
  end: string;
}

/** An event as the product writes it: its id is the booking's (decision 0127). */
export interface CalendarEvent {
  summary: string;
  description: string;
  start: { dateTime: string };
  end: { dateTime: string };
}

/** Google's reasons for a 403 that only asks to slow down (Calendar API v3's usage limits). */
const RATE_LIMIT_REASONS = new Set(["rateLimitExceeded", "userRateLimitExceeded", "quotaExceeded"]);

function failureOf(status: number, body: unknown): GoogleFailure {
  const error = (body as { error?: unknown } | null)?.error;
  if (error === "invalid_grant") return "invalid_grant";
  if (status === 401) return "unauthorized";
  if (status === 404 || status === 410) return "not_found";
  if (status === 409) return "conflict";
  if (status === 400 || status === 422) return "refused";
  if (status === 403) {
    const reasons = (error as { errors?: { reason?: unknown }[] } | null)?.errors ?? [];
    const limited = reasons.some((e) => RATE_LIMIT_REASONS.has(String(e?.reason)));
    return limited ? "unavailable" : "refused";
  }
  return "unavailable";
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return null;
  }
}

async function send(url: string, init: RequestInit, timeoutMs = TIMEOUT_MS): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    throw new GoogleError("unavailable", 0, String(error));
  }
  const text = await res.text();
  const body = parseJson(text);
  if (!res.ok) throw new GoogleError(failureOf(res.status, body), res.status, text.slice(0, 500));
  return body;
}

/** The OAuth client's credentials; null when the server has none (not configured). */
export function googleClient(env: Env) {
  if (!env.GOOGLE_CLIENT_ID || !env.GOOGLE_CLIENT_SECRET) return null;
  return { clientId: env.GOOGLE_CLIENT_ID, clientSecret: env.GOOGLE_CLIENT_SECRET };
}

function tokenRequest(env: Env, fields: Record<string, string>) {
  const client = googleClient(env);
  if (!client) throw new GoogleError("unavailable", 0, "GOOGLE_CLIENT_ID is not set");
  return send(`${env.GOOGLE_OAUTH_URL}/token`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      ...fields,
    }),
  }) as Promise<TokenAnswer>;
}

export const exchangeCode = (env: Env, code: string, redirectUri: string) =>
  tokenRequest(env, { grant_type: "authorization_code", code, redirect_uri: redirectUri });

export const refreshAccess = (env: Env, refreshToken: string) =>
  tokenRequest(env, { grant_type: "refresh_token", refresh_token: refreshToken });

/** Gives the grant back to Google when a manager disconnects; a failure changes nothing here. */
export async function revokeGrant(env: Env, token: string) {
  await send(`${env.GOOGLE_OAUTH_URL}/revoke`, {
    method: "POST",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ token }),
  }).catch((error: unknown) => console.warn("google revoke", error));
}

/** Calendar API v3 calls with one access token. */
export function calendarApi(env: Env, accessToken: string) {
  const base = `${env.GOOGLE_API_URL}/calendar/v3`;
  const call = (method: string, path: string, body?: unknown, timeoutMs?: number) =>
    send(
      `${base}${path}`,
      {
        method,
        headers: {
          Authorization: `Bearer ${accessToken}`,
          ...(body !== undefined && { "Content-Type": "application/json" }),
        },
        ...(body !== undefined && { body: JSON.stringify(body) }),
      },
      timeoutMs,
    );
  const events = (calendarId: string) => `/calendars/${encodeURIComponent(calendarId)}/events`;
  return {
    /** The busy intervals of one calendar in [timeMin, timeMax). */
    async freeBusy(calendarId: string, timeMin: string, timeMax: string) {
      const answer = (await call(
        "POST",
        "/freeBusy",
        { timeMin, timeMax, items: [{ id: calendarId }] },
        BUSY_TIMEOUT_MS,
      )) as {
        calendars?: Record<string, { busy?: BusyInterval[]; errors?: { reason: string }[] }>;
      };
      const calendar = answer.calendars?.[calendarId];
      // A calendar Google cannot read is an error inside a 200 (`notFound`, `backendError`).
      if (!calendar || calendar.errors?.length) {
        throw new GoogleError("unavailable", 200, JSON.stringify(calendar?.errors ?? null));
      }
      return calendar.busy ?? [];
    },
    insertEvent: (calendarId: string, id: string, event: CalendarEvent) =>
      call("POST", events(calendarId), { id, ...event }),
    patchEvent: (calendarId: string, id: string, event: CalendarEvent) =>
      call("PATCH", `${events(calendarId)}/${encodeURIComponent(id)}`, event),
    deleteEvent: (calendarId: string, id: string) =>
      call("DELETE", `${events(calendarId)}/${encodeURIComponent(id)}`),
  };
}

export type CalendarApi = ReturnType<typeof calendarApi>;
