/**
 * Who may call what, enforced here and nowhere else:
 * - `requireCaller`: a valid bearer token backed by a live server-side session.
 * - `requireMember`: the caller's membership, which fixes the organization every
 *   tenant-owned query is scoped to (`c.var.member.organizationId`).
 * - `requireRole`: the member's role is one of those given (else 403).
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { eq } from "drizzle-orm";
import { authenticate } from "../auth/service";
import { memberships, type Role } from "../db/schema";
import { organizationNotFound } from "../organizations/service";
import type { AppContext } from "./context";
import { forbidden, unauthorized } from "./errors";

export function bearerToken(c: Context): string | null {
  const header = c.req.header("Authorization") ?? "";
  const match = /^Bearer\s+(\S+)$/i.exec(header);
  return match?.[1] ?? null;
}

export const requireCaller = createMiddleware<AppContext>(async (c, next) => {
  const token = bearerToken(c);
  if (!token) throw unauthorized();
  c.set("caller", await authenticate(c.var.db, c.env.JWT_SECRET, token));
  await next();
});

export const requireMember = createMiddleware<AppContext>(async (c, next) => {
  const caller = c.var.caller;
  const membership = await c.var.db.query.memberships.findFirst({
    where: eq(memberships.userId, caller.userId),
  });
  if (!membership) throw organizationNotFound();
  c.set("member", { ...caller, organizationId: membership.organizationId, role: membership.role });
  await next();
});

export const requireRole = (...roles: Role[]) =>
  createMiddleware<AppContext>(async (c, next) => {
    if (!roles.includes(c.var.member.role)) throw forbidden();
    await next();
  });

/** What the services record about the request (audit trail, sessions, rate limits). */
export function requestInfo(c: Context) {
  return {
    ip: c.req.header("CF-Connecting-IP") ?? null,
    userAgent: c.req.header("User-Agent")?.slice(0, 500) ?? null,
  };
}
