/**
 * Who may call what, enforced here and nowhere else:
 * - `requireCaller`: a valid bearer token backed by a live server-side session.
 * - `requireMember`: the caller's membership, which fixes the organization every
 *   tenant-owned query is scoped to (`c.var.member.organizationId`).
 * - `requireRole`: the member's role is one of those given (else 403).
 * In an organization's store (durable-objects/store-api.ts) the first two have already run in
 * the Worker that passed the request on: the store's app sets the member and `storeDeps`.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { eq } from "drizzle-orm";
import { authenticate } from "../auth/service";
import { organizations, type Role } from "../db/global-schema";
import { addressKey } from "./address-key";
import { organizationNotFound } from "../organizations/service";
import type { AppContext } from "./context";
import { forbidden, unauthorized } from "./errors";
import { takeHits, type Limit } from "./rate-limit";
import { countedWrite, refundWrite } from "./write-limits";
import { answeredByItsStore } from "../stores/organization-data";

export function bearerToken(c: Context): string | null {
  const header = c.req.header("Authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

export const requireCaller = createMiddleware<AppContext>(async (c, next) => {
  if (c.var.storeDeps) return next();
  const token = bearerToken(c);
  if (!token) throw unauthorized();
  // A write is counted here, with the session (write-limits.ts), before any of its work.
  const write = countedWrite(c);
  const { userId, sessionId, membership, factsVersion } = await authenticate(
    c.var.db,
    c.env.JWT_SECRET,
    token,
    write,
  );
  c.set("caller", { userId, sessionId, ip: requestInfo(c).ip });
  c.set("membership", membership);
  if (factsVersion !== null) c.set("factsVersion", factsVersion);
  await next();
  // Refused input stored nothing: it gives its write back (one more trip, only then).
  if (write && REFUSED_INPUT.has(c.res.status)) {
    await refundWrite(c.var.db, userId, membership?.organizationId ?? null, write);
  }
});

/** What refused input answers: 400 (malformed), 413 (too large) and 422 (invalid). */
const REFUSED_INPUT = new Set([400, 413, 422]);

export const requireMember = createMiddleware<AppContext>(async (c, next) => {
  if (c.var.storeDeps) return next();
  // Read with the session (`requireCaller`): no second trip to D1.
  const { caller, membership } = c.var;
  if (!membership) throw organizationNotFound();
  const member = { ...caller, ...membership };
  c.set("member", member);
  return answeredByItsStore(c, { member });
});

export const requireRole = (...roles: Role[]) =>
  createMiddleware<AppContext>(async (c, next) => {
    if (!roles.includes(c.var.member.role)) throw forbidden();
    await next();
  });

/** Public tracking calls from a business's own pages, per organization and client address. */
const PUBLIC_TRACKING_LIMIT: Limit = { max: 120, windowSeconds: 60 };
/** Calls with a key no organization holds, per client address (one counter, whatever the key). */
const UNKNOWN_TRACKING_KEY_LIMIT: Limit = { max: 30, windowSeconds: 60 };

/**
 * Tracking calls come from the console (bearer token) or from a business's own web pages
 * with the organization's public key (`X-Tracking-Key`). The key is looked up before anything
 * is counted, so that made-up keys share one counter per address instead of adding a row each.
 */
export const requireTrackingAccess = createMiddleware<AppContext>(async (c, next) => {
  if (c.var.storeDeps) return next();
  if (bearerToken(c)) {
    let answer: Response | void = undefined;
    await requireCaller(c, async () => {
      answer = await requireMember(c, async () => {
        c.set("tracking", { organizationId: c.var.member.organizationId, publicKey: false });
        await next();
      });
      // What `requireCaller` reads after its `next`, as Hono's chain would have set it.
      if (answer) c.res = answer;
    });
    return answer;
  }
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
  const tracking = { organizationId: organization.id, publicKey: true };
  c.set("tracking", tracking);
  c.set("factsVersion", organization.factsVersion);
  return answeredByItsStore(c, { tracking });
});

/** What the services record about the request (audit trail, sessions, rate limits). */
export function requestInfo(c: Context) {
  return {
    ip: c.req.header("CF-Connecting-IP") ?? null,
    userAgent: c.req.header("User-Agent")?.slice(0, 500) ?? null,
  };
}
