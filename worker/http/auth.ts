/**
 * Who may call what, enforced here and nowhere else:
 * - `requireCaller`: a valid bearer token backed by a live server-side session, for the edge's
 *   own routes (what is global: the account, a new organization, an invitation accepted).
 * - An organization's routes run only in its store; the edge authenticates them at one place
 *   (worker/stores/forward-to-store.ts) with `withCaller` and the member's membership, or
 *   with the organization's tracking key where the route is `openToTrackingKey`.
 * - `requireRole`: the member's role is one of those given (else 403), checked in the store.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import { eq } from "drizzle-orm";
import { authenticate } from "../auth/service";
import { organizations, type Role } from "../db/global-schema";
import { addressKey } from "./address-key";
import type { AppContext, TrackingCaller } from "./context";
import { forbidden, unauthorized } from "./errors";
import { takeHits, type Limit } from "./rate-limit";
import { marksOf, routeMark } from "./route-marks";
import { countedWrite, refundWrite, type CountedWrite } from "./write-limits";

export function bearerToken(c: Context): string | null {
  const header = c.req.header("Authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

/** What refused input answers: 400 (malformed), 413 (too large) and 422 (invalid). */
const REFUSED_INPUT = new Set([400, 413, 422]);

/**
 * Checks the bearer token against its session, counting `write` in the same trip to D1
 * (write-limits.ts), sets the caller and their membership, then answers with `work`. Refused
 * input stored nothing: it gives its write back (one more trip, only then).
 */
export async function withCaller(
  c: Context<AppContext>,
  write: CountedWrite | null,
  work: () => Promise<Response>,
) {
  const token = bearerToken(c);
  if (!token) throw unauthorized();
  const { userId, sessionId, membership, factsVersion } = await authenticate(
    c.var.db,
    c.env.JWT_SECRET,
    token,
    write,
  );
  c.set("caller", { userId, sessionId, ip: requestInfo(c).ip });
  c.set("membership", membership);
  if (factsVersion !== null) c.set("factsVersion", factsVersion);
  const answer = await work();
  if (write && REFUSED_INPUT.has(answer.status)) {
    await refundWrite(c.var.db, userId, membership?.organizationId ?? null, write);
  }
  return answer;
}

export const requireCaller = createMiddleware<AppContext>(async (c, next) => {
  const write = countedWrite(c.req.method, marksOf(matchedRoutes(c).map((route) => route.handler)));
  await withCaller(c, write, async () => {
    await next();
    return c.res;
  });
});

export const requireRole = (...roles: Role[]) =>
  createMiddleware<AppContext>(async (c, next) => {
    if (!roles.includes(c.var.member.role)) throw forbidden();
    await next();
  });

/**
 * Marks an organization's route a business's own pages may call with the organization's public
 * key (`X-Tracking-Key`) instead of a token: the edge finds it among the route's handlers.
 */
export const openToTrackingKey = routeMark("openToTrackingKey");

/** Public tracking calls from a business's own pages, per organization and client address. */
const PUBLIC_TRACKING_LIMIT: Limit = { max: 120, windowSeconds: 60 };
/** Calls with a key no organization holds, per client address (one counter, whatever the key). */
const UNKNOWN_TRACKING_KEY_LIMIT: Limit = { max: 30, windowSeconds: 60 };

/**
 * The organization whose public key the call holds. The key is looked up before anything is
 * counted, so that made-up keys share one counter per address instead of adding a row each.
 */
export async function trackingKeyCaller(c: Context<AppContext>): Promise<TrackingCaller> {
  const key = c.req.header("X-Tracking-Key");
  if (!key) throw unauthorized("Falta la clave de tracking (X-Tracking-Key) o el token.");
  const ip = addressKey(requestInfo(c).ip);
  const organization = await c.var.db.query.organizations.findFirst({
    where: eq(organizations.trackingKey, key),
    columns: { id: true, factsVersion: true },
  });
  if (!organization) {
    await takeHits(c.var.db, [{ key: `tracking:bad:${ip}`, limit: UNKNOWN_TRACKING_KEY_LIMIT }]);
    throw unauthorized("La clave de tracking no es válida.");
  }
  await takeHits(c.var.db, [
    { key: `tracking:${organization.id}:${ip}`, limit: PUBLIC_TRACKING_LIMIT },
  ]);
  c.set("factsVersion", organization.factsVersion);
  return { organizationId: organization.id, publicKey: true };
}

/** What the services record about the request (audit trail, sessions, rate limits). */
export function requestInfo(c: Context) {
  return {
    ip: c.req.header("CF-Connecting-IP") ?? null,
    userAgent: c.req.header("User-Agent")?.slice(0, 500) ?? null,
  };
}
