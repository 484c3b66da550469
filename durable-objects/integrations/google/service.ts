/**
 * Google Calendar (contract section 18, decisions 0124-0127): connecting it with Google's
 * OAuth 2.0 web server flow (a state bound to the session and organization, single use), the
 * grant sealed in the store and refreshed, the calendar chosen, busy times for availability, and
 * `invalid_grant` disconnecting it with a banner while bookings go on in the own calendar.
 */
import { googleCallbackUrl } from "../../../worker/http/callback-urls";
import { and, eq, gt, sql } from "drizzle-orm";
import { recordAudit } from "../../audit/service";
import { signOAuthState } from "../../../worker/auth/oauth-state";
import type { OrganizationDb } from "../../db";
import { googleBookingEvents, googleCalendars } from "../../schema";
import type { Member } from "../../../worker/http/context";
import type { StoreDeps } from "../../../worker/http/deps";
import { AppError, notFound } from "../../../worker/http/errors";
import { decryptSecret, encryptSecret } from "../../meta/secrets";
import {
  CONSENT_URL,
  SCOPES,
  GoogleError,
  calendarApi,
  exchangeCode,
  googleClient,
  refreshAccess,
  revokeGrant,
  type BusyInterval,
  type CalendarApi,
} from "./client";
import {
  GOOGLE_NOT_CONFIGURED,
  type GoogleBusyUse,
  type GoogleConnectError,
  type GoogleIntegration,
} from "../../../contracts/google-calendar";

type CalendarRow = typeof googleCalendars.$inferSelect;

/** How long a consent URL's state is taken (Google's code itself lives about ten minutes). */
const STATE_MS = 10 * 60_000;
/** An access token is refreshed this long before Google says it ends. */
const REFRESH_MARGIN_MS = 60_000;
/** How long a `freeBusy` answer serves the same calendar and range (decision 0126). */
export const BUSY_CACHE_MS = 30_000;

const notConfigured = () => new AppError(503, "google_not_configured", GOOGLE_NOT_CONFIGURED);

const readRow = async (db: OrganizationDb, organizationId: string) =>
  (
    await db
      .select()
      .from(googleCalendars)
      .where(eq(googleCalendars.organizationId, organizationId))
  )[0];

async function writeRow(
  db: OrganizationDb,
  organizationId: string,
  columns: Partial<Omit<CalendarRow, "organizationId">>,
) {
  const values = { ...columns, updatedAt: new Date().toISOString() };
  await db
    .insert(googleCalendars)
    .values({ organizationId, ...values })
    .onConflictDoUpdate({ target: googleCalendars.organizationId, set: values });
}

const isConnected = (
  row: CalendarRow | undefined,
): row is CalendarRow & {
  refreshTokenEncrypted: string;
} => Boolean(row?.refreshTokenEncrypted);

/** The grant forgotten: what `DELETE` and a refused grant both clear. */
const DISCONNECTED = {
  refreshTokenEncrypted: null,
  accessTokenEncrypted: null,
  accessExpiresAt: null,
  busyKey: null,
  busyJson: null,
  busyReadAt: null,
};

/** `GET /integrations/google`. */
export async function getIntegration(
  { env, orgDb }: StoreDeps,
  member: Member,
): Promise<GoogleIntegration> {
  const row = await readRow(orgDb, member.organizationId);
  const { pending, refused } = await eventsOwed(orgDb, member.organizationId);
  const connected = isConnected(row);
  return {
    configured: googleClient(env) !== null,
    connected,
    calendar_id: connected ? row.calendarId : null,
    connected_at: connected ? row.connectedAt : null,
    connected_by: connected ? row.connectedBy : null,
    revoked_at: connected ? null : (row?.revokedAt ?? null),
    pending_events: pending,
    refused_events: refused,
  };
}

/**
 * Bookings whose event Google still owes (retried by the store's `google_events` job), and those
 * whose last write Google refused as it was (decision 0154).
 */
async function eventsOwed(db: OrganizationDb, organizationId: string) {
  const [counted] = await db
    .select({
      pending: sql<number>`count(*) FILTER (WHERE ${googleBookingEvents.dirty})`,
      refused: sql<number>`count(*) FILTER (WHERE NOT ${googleBookingEvents.dirty}
        AND ${googleBookingEvents.lastError} IS NOT NULL)`,
    })
    .from(googleBookingEvents)
    .where(eq(googleBookingEvents.organizationId, organizationId));
  return { pending: Number(counted?.pending ?? 0), refused: Number(counted?.refused ?? 0) };
}

// ── Connecting: the consent URL, its state and the callback ─────────────────────────────

/**
 * `GET /integrations/google/authorize`: Google's consent URL. Its state is signed, names the
 * member, their session and organization and the hash of a nonce only this browser holds (a
 * cookie the route sets), and its id is the one the store waits for: the callback takes it once,
 * within ten minutes, and a newer consent URL replaces it (decision 0125).
 */
export async function authorize({ env, orgDb }: StoreDeps, member: Member) {
  const client = googleClient(env);
  if (!client) throw notConfigured();
  const stateId = crypto.randomUUID();
  const { state, nonce } = await signOAuthState(env, "google-oauth-state", member, {
    id: stateId,
    lifetimeMs: STATE_MS,
  });
  await writeRow(orgDb, member.organizationId, {
    stateId,
    stateExpiresAt: new Date(Date.now() + STATE_MS).toISOString(),
  });
  const url = new URL(CONSENT_URL);
  url.searchParams.set("client_id", client.clientId);
  url.searchParams.set("redirect_uri", googleCallbackUrl(env));
  url.searchParams.set("response_type", "code");
  url.searchParams.set("scope", SCOPES.join(" "));
  // A refresh token, and again on a second consent (Google gives it on the first otherwise).
  url.searchParams.set("access_type", "offline");
  url.searchParams.set("prompt", "consent");
  url.searchParams.set("include_granted_scopes", "true");
  url.searchParams.set("state", state);
  return { url: url.toString(), nonce };
}

/**
 * In the store, the callback's second half: the state taken (once: a second callback with it
 * finds nothing), the code exchanged once, the grant sealed, the events owed written.
 */
export async function connectWithCode(
  deps: StoreDeps,
  member: Member,
  { stateId, code }: { stateId: string; code: string },
): Promise<{ connected: true } | { error: GoogleConnectError }> {
  const fail = (error: GoogleConnectError) => ({ error });
  const { orgDb, env } = deps;
  const now = new Date().toISOString();
  // Taken in one statement: two callbacks racing with one state cannot both pass.
  const taken = await orgDb
    .update(googleCalendars)
    .set({ stateId: null, stateExpiresAt: null, updatedAt: now })
    .where(
      and(
        eq(googleCalendars.organizationId, member.organizationId),
        eq(googleCalendars.stateId, stateId),
        gt(googleCalendars.stateExpiresAt, now),
      ),
    )
    .returning({ organizationId: googleCalendars.organizationId });
  if (taken.length === 0) return fail("invalid_state");
  let tokens;
  try {
    tokens = await exchangeCode(env, code, googleCallbackUrl(env));
  } catch (error) {
    console.warn(
      "google code exchange",
      error instanceof GoogleError ? error.providerMessage : error,
    );
    return fail("token_exchange_failed");
  }
  if (!tokens.refresh_token) return fail("no_refresh_token");
  await writeRow(orgDb, member.organizationId, {
    refreshTokenEncrypted: await encryptSecret(tokens.refresh_token, env.ENCRYPTION_KEY),
    accessTokenEncrypted: await encryptSecret(tokens.access_token, env.ENCRYPTION_KEY),
    accessExpiresAt: new Date(Date.now() + tokens.expires_in * 1000).toISOString(),
    connectedBy: member.userId,
    connectedAt: now,
    revokedAt: null,
    busyKey: null,
    busyJson: null,
    busyReadAt: null,
  });
  await recordAudit(orgDb, {
    action: "organization.update",
    organizationId: member.organizationId,
    userId: member.userId,
    metadata: { fields: ["google_calendar"], connected: true },
    ip: member.ip,
  });
  // Events owed while it was disconnected are written now.
  await deps.schedule("google_events", Date.now());
  return { connected: true };
}

/** `PUT /integrations/google {calendar_id}`. */
export async function chooseCalendar(
  deps: StoreDeps,
  member: Member,
  { calendar_id }: { calendar_id: string },
) {
  const row = await readRow(deps.orgDb, member.organizationId);
  if (!isConnected(row)) throw notFound("Google Calendar no está conectado.");
  await writeRow(deps.orgDb, member.organizationId, {
    calendarId: calendar_id,
    busyKey: null,
    busyJson: null,
    busyReadAt: null,
  });
  await recordAudit(deps.orgDb, {
    action: "organization.update",
    organizationId: member.organizationId,
    userId: member.userId,
    metadata: { fields: ["google_calendar"], calendar_id },
    ip: member.ip,
  });
  return getIntegration(deps, member);
}

/** `DELETE /integrations/google`: the grant given back to Google and forgotten here. */
export async function disconnect(deps: StoreDeps, member: Member) {
  const row = await readRow(deps.orgDb, member.organizationId);
  if (!isConnected(row)) throw notFound("Google Calendar no está conectado.");
  await writeRow(deps.orgDb, member.organizationId, { ...DISCONNECTED, revokedAt: null });
  await revokeGrant(
    deps.env,
    await decryptSecret(row.refreshTokenEncrypted, deps.env.ENCRYPTION_KEY),
  );
  await recordAudit(deps.orgDb, {
    action: "organization.update",
    organizationId: member.organizationId,
    userId: member.userId,
    metadata: { fields: ["google_calendar"], connected: false },
    ip: member.ip,
  });
}

// ── Calling Google with the organization's grant ─────────────────────────────────────────

/**
 * Google refused the grant (`invalid_grant`): it is dropped, the trail says so, and owners and
 * admins see the banner (`revoked_at`) until they connect again. Bookings go on.
 */
async function grantRefused(deps: StoreDeps, organizationId: string) {
  await writeRow(deps.orgDb, organizationId, {
    ...DISCONNECTED,
    revokedAt: new Date().toISOString(),
  });
  await recordAudit(deps.orgDb, {
    action: "organization.update",
    organizationId,
    metadata: { fields: ["google_calendar"], connected: false, reason: "invalid_grant" },
  });
}

async function accessToken(
  deps: StoreDeps,
  row: CalendarRow & { refreshTokenEncrypted: string },
  fresh: boolean,
) {
  const { env, orgDb } = deps;
  if (
    !fresh &&
    row.accessTokenEncrypted &&
    row.accessExpiresAt &&
    Date.parse(row.accessExpiresAt) - REFRESH_MARGIN_MS > Date.now()
  ) {
    return decryptSecret(row.accessTokenEncrypted, env.ENCRYPTION_KEY);
  }
  const refreshed = await refreshAccess(
    env,
    await decryptSecret(row.refreshTokenEncrypted, env.ENCRYPTION_KEY),
  );
  await writeRow(orgDb, row.organizationId, {
    accessTokenEncrypted: await encryptSecret(refreshed.access_token, env.ENCRYPTION_KEY),
    accessExpiresAt: new Date(Date.now() + refreshed.expires_in * 1000).toISOString(),
    // Google may rotate the refresh token; the new one is kept.
    ...(refreshed.refresh_token && {
      refreshTokenEncrypted: await encryptSecret(refreshed.refresh_token, env.ENCRYPTION_KEY),
    }),
  });
  return refreshed.access_token;
}

/**
 * Runs `work` with the connected calendar: the access token refreshed when it ends, and once
 * more when Google refuses it. Null when it is not connected. An `invalid_grant` disconnects
 * (`grantRefused`) and is thrown on.
 */
export async function withCalendar<T>(
  deps: StoreDeps,
  organizationId: string,
  work: (api: CalendarApi, calendarId: string) => Promise<T>,
): Promise<{ value: T } | null> {
  const row = await readRow(deps.orgDb, organizationId);
  if (!isConnected(row) || !googleClient(deps.env)) return null;
  try {
    try {
      const api = calendarApi(deps.env, await accessToken(deps, row, false));
      return { value: await work(api, row.calendarId) };
    } catch (error) {
      if (!(error instanceof GoogleError) || error.reason !== "unauthorized") throw error;
      const api = calendarApi(deps.env, await accessToken(deps, row, true));
      return { value: await work(api, row.calendarId) };
    }
  } catch (error) {
    if (error instanceof GoogleError && error.reason === "invalid_grant") {
      await grantRefused(deps, organizationId);
    }
    throw error;
  }
}

/**
 * The chosen calendar's busy intervals meeting [start, end), for availability: `applied` with
 * them, `unavailable` (none) when Google failed, null when it is not connected. Never throws: a
 * Google failure leaves availability to the own calendar (decision 0126).
 */
export async function googleBusy(
  deps: StoreDeps,
  organizationId: string,
  range: { start: number; end: number },
): Promise<{ use: GoogleBusyUse; busy: { start: number; end: number }[] }> {
  const row = await readRow(deps.orgDb, organizationId);
  if (!isConnected(row)) return { use: null, busy: [] };
  const timeMin = new Date(range.start).toISOString();
  const timeMax = new Date(range.end).toISOString();
  const key = `${row.calendarId} ${timeMin} ${timeMax}`;
  const asIntervals = (list: BusyInterval[]) =>
    list.map((b) => ({ start: Date.parse(b.start), end: Date.parse(b.end) }));
  if (
    row.busyKey === key &&
    row.busyJson &&
    row.busyReadAt &&
    Date.now() - Date.parse(row.busyReadAt) < BUSY_CACHE_MS
  ) {
    return { use: "applied", busy: asIntervals(JSON.parse(row.busyJson) as BusyInterval[]) };
  }
  try {
    const read = await withCalendar(deps, organizationId, (api, calendarId) =>
      api.freeBusy(calendarId, timeMin, timeMax),
    );
    if (!read) return { use: null, busy: [] };
    await writeRow(deps.orgDb, organizationId, {
      busyKey: key,
      busyJson: JSON.stringify(read.value),
      busyReadAt: new Date().toISOString(),
    });
    return { use: "applied", busy: asIntervals(read.value) };
  } catch (error) {
    console.warn("google freeBusy", error instanceof GoogleError ? error.message : error);
    return { use: "unavailable", busy: [] };
  }
}
