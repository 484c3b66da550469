/**
 * What one tenant may write per minute, so that no organization (or one of its members) can
 * exhaust the database every organization shares. Every write of a signed-in person counts
 * (decisions 0020, 0043, 0114), at the edge, in the same D1 batch that reads their session and
 * membership (`authenticate`, through `withCaller`), before the route's own work: the
 * person's window, the organization's (found from the membership in that same statement), and
 * a tighter window when the route is marked with one (`costlyWrite`). A write whose input is refused
 * gives its count back (`refundWrite`). Public calls have limits of their own (sign-ups, logins,
 * the tracking key).
 */
import { eq, inArray, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { memberships, rateLimits } from "../db/global-schema";
import type { Member } from "./context";
import { HIT_ROW, hitStatement, tryHit, windowHit, type Limit } from "./rate-limit";
import { routeMark, type RouteMark } from "./route-marks";

export const MEMBER_WRITES: Limit = { max: 120, windowSeconds: 60 };
export const ORGANIZATION_WRITES: Limit = { max: 600, windowSeconds: 60 };

/** Tighter per-member limits for the writes that cost most: files to Meta, model calls. */
export const COSTLY_WRITES = {
  uploads: { max: 20, windowSeconds: 60 },
  model: { max: 10, windowSeconds: 60 },
} satisfies Record<string, Limit>;
export type CostlyWrite = keyof typeof COSTLY_WRITES;

const personWritesKey = (userId: string) => `writes:member:${userId}`;
const ORGANIZATION_WRITES_PREFIX = "writes:org:";

/**
 * Each tighter window's mark: a route that lists one counts its writes in that window too. It
 * counts nothing itself: the edge finds it among the route's handlers and counts it with the
 * session.
 */
const costlyMarks = {
  uploads: routeMark("costlyWrite:uploads"),
  model: routeMark("costlyWrite:model"),
} satisfies Record<CostlyWrite, RouteMark>;
const COSTLY_KINDS = Object.keys(costlyMarks) as CostlyWrite[];

/** Names the tighter window a route's writes count in too. */
export const costlyWrite = (kind: CostlyWrite) => costlyMarks[kind];

/** For the one write never refused, leaving (logout): it counts nothing. */
export const neverLimited = routeMark("neverLimited");

const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/** A write this request counts: in the person's and organization's windows, and maybe one more. */
export interface CountedWrite {
  costly: CostlyWrite | null;
}

/**
 * Whether a request is a counted write, and in which tighter window, from its method and the
 * marks of its route (`marksOf`); null for the rest.
 */
export function countedWrite(method: string, marks: ReadonlySet<string>): CountedWrite | null {
  if (!WRITE_METHODS.has(method)) return null;
  if (marks.has(neverLimited.markName)) return null;
  const costly = COSTLY_KINDS.find((kind) => marks.has(costlyMarks[kind].markName)) ?? null;
  return { costly };
}

/**
 * The statements that count one write of `userId`, for the session's batch, with each one's
 * limit: the person's window, the organization's (an `INSERT ... SELECT` from the person's
 * membership, so that no read comes first; no row without one), and the costly window.
 */
export function writeHits(db: Db, userId: string, write: CountedWrite, now: number) {
  const resetAt = now + ORGANIZATION_WRITES.windowSeconds * 1000;
  const organization = db
    .insert(rateLimits)
    .select((qb) =>
      qb
        .select({
          key: sql<string>`${ORGANIZATION_WRITES_PREFIX} || ${memberships.organizationId}`.as(
            "key",
          ),
          count: sql<number>`1`.as("count"),
          resetAt: sql<number>`${resetAt}`.as("reset_at"),
        })
        .from(memberships)
        .where(eq(memberships.userId, userId)),
    )
    .onConflictDoUpdate(windowHit(now, resetAt))
    .returning(HIT_ROW);
  const statements = [
    hitStatement(db, personWritesKey(userId), MEMBER_WRITES, now),
    organization,
    ...(write.costly
      ? [hitStatement(db, `${write.costly}:member:${userId}`, COSTLY_WRITES[write.costly], now)]
      : []),
  ] as const;
  const limits = [
    MEMBER_WRITES,
    ORGANIZATION_WRITES,
    ...(write.costly ? [COSTLY_WRITES[write.costly]] : []),
  ];
  return { statements, limits };
}

/**
 * Gives back a write whose input was refused (400, 413, 422): it stored nothing, and a person fixing
 * a form should not run out of writes for it (decision 0114). Never below zero.
 */
export async function refundWrite(
  db: Db,
  userId: string,
  organizationId: string | null,
  write: CountedWrite,
) {
  const keys = [
    personWritesKey(userId),
    ...(organizationId ? [`${ORGANIZATION_WRITES_PREFIX}${organizationId}`] : []),
    ...(write.costly ? [`${write.costly}:member:${userId}`] : []),
  ];
  await db
    .update(rateLimits)
    .set({ count: sql`max(${rateLimits.count} - 1, 0)` })
    .where(inArray(rateLimits.key, keys));
}

/**
 * Counts one write that a read makes (figures from Meta kept for the next view) in the
 * member's and the organization's windows, like any write; false when either is spent. The
 * read then answers from what is kept instead of refusing: a 429 would hide those figures too.
 */
export async function tryReadWrite(db: Db, member: Member, now = Date.now()) {
  const hits = [
    { key: personWritesKey(member.userId), limit: MEMBER_WRITES },
    { key: `${ORGANIZATION_WRITES_PREFIX}${member.organizationId}`, limit: ORGANIZATION_WRITES },
  ];
  const room = await Promise.all(hits.map(({ key, limit }) => tryHit(db, key, limit, now)));
  return room.every(Boolean);
}
