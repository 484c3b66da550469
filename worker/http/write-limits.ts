/**
 * What one tenant may write per minute, so that no organization (or one of its members) can
 * exhaust the database every organization shares. Every write of a signed-in person counts,
 * with or without a body (decision 0020, 0043): a route with a body counts it once its input is
 * valid (a refused body stores nothing), through `jsonBody`/`formBody`; any other write is
 * counted as soon as its caller and organization are known (`requireCaller`, `requireMember`).
 * Public calls have limits of their own (sign-ups, logins, the tracking key).
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { Db } from "../db/client";
import type { AppContext, Caller, Member } from "./context";
import { takeHits, tryHit, type Limit } from "./rate-limit";

export const MEMBER_WRITES: Limit = { max: 120, windowSeconds: 60 };
export const ORGANIZATION_WRITES: Limit = { max: 600, windowSeconds: 60 };

/** Tighter per-member limits for the writes that cost most: files to Meta, model calls. */
export const COSTLY_WRITES = {
  uploads: { max: 20, windowSeconds: 60 },
  model: { max: 10, windowSeconds: 60 },
} satisfies Record<string, Limit>;
export type CostlyWrite = keyof typeof COSTLY_WRITES;

const personWrites = (caller: Caller) => ({
  key: `writes:member:${caller.userId}`,
  limit: MEMBER_WRITES,
});
const organizationWrites = (member: Member) => ({
  key: `writes:org:${member.organizationId}`,
  limit: ORGANIZATION_WRITES,
});

/** The limiters routes name themselves: a request through one is counted there, not before. */
const routeLimiters = new WeakSet<object>();

/**
 * Counts one write of the signed-in person (and of their organization when the route is a
 * member's), and one of `costly` when the write is one of those; 429 with Retry-After when any
 * window is over. Nothing for public calls.
 */
export const limitMemberWrites = (costly?: CostlyWrite) => {
  const limiter = createMiddleware<AppContext>(async (c, next) => {
    const caller = c.get("caller") as Caller | undefined;
    const member = c.get("member") as Member | undefined;
    if (caller) {
      const hits = [personWrites(caller)];
      if (member) hits.push(organizationWrites(member));
      if (costly) {
        hits.push({ key: `${costly}:member:${caller.userId}`, limit: COSTLY_WRITES[costly] });
      }
      await takeHits(c.var.db, hits);
    }
    await next();
  });
  routeLimiters.add(limiter);
  return limiter;
};

/** For the one write never refused, leaving (logout): it names itself and counts nothing. */
export const neverLimited = createMiddleware<AppContext>(async (_c, next) => {
  await next();
});
routeLimiters.add(neverLimited);

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * Counts a write whose route names no limiter (a write without a body: a rotation, a refresh,
 * a confirmation, a test call): the person's window once the caller is known, the
 * organization's once the member is.
 */
export async function countUnlimitedWrite(c: Context<AppContext>, who: Caller | Member) {
  if (!WRITE_METHODS.has(c.req.method)) return;
  if (matchedRoutes(c).some((route) => routeLimiters.has(route.handler))) return;
  const hit = "organizationId" in who ? organizationWrites(who) : personWrites(who);
  await takeHits(c.var.db, [hit]);
}

/**
 * Counts one write that a read makes (figures from Meta kept for the next view) in the
 * member's and the organization's windows, like any write; false when either is spent. The
 * read then answers from what is kept instead of refusing: a 429 would hide those figures too.
 */
export async function tryReadWrite(db: Db, member: Member, now = Date.now()) {
  const hits = [personWrites(member), organizationWrites(member)];
  const room = await Promise.all(hits.map(({ key, limit }) => tryHit(db, key, limit, now)));
  return room.every(Boolean);
}
