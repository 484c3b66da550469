/**
 * What one tenant may write per minute, so that no organization (or one of its members) can
 * exhaust the database every organization shares. Counted after a request's input is valid
 * (a refused request stores nothing) and before the work, per member and per organization.
 * Public calls have limits of their own (sign-ups, logins, the tracking key).
 */
import { createMiddleware } from "hono/factory";
import type { AppContext, Member } from "./context";
import { takeHits, type Limit } from "./rate-limit";

export const MEMBER_WRITES: Limit = { max: 120, windowSeconds: 60 };
export const ORGANIZATION_WRITES: Limit = { max: 600, windowSeconds: 60 };

/** Tighter per-member limits for the writes that cost most: files to Meta, model calls. */
export const COSTLY_WRITES = {
  uploads: { max: 20, windowSeconds: 60 },
  model: { max: 10, windowSeconds: 60 },
} satisfies Record<string, Limit>;
export type CostlyWrite = keyof typeof COSTLY_WRITES;

/**
 * Counts one write of the signed-in member (nothing for public calls), and one of `costly`
 * when the write is one of those; 429 with Retry-After when any window is over.
 */
export const limitMemberWrites = (costly?: CostlyWrite) =>
  createMiddleware<AppContext>(async (c, next) => {
    const member = c.get("member") as Member | undefined;
    if (member) {
      const hits = [
        { key: `writes:member:${member.userId}`, limit: MEMBER_WRITES },
        { key: `writes:org:${member.organizationId}`, limit: ORGANIZATION_WRITES },
      ];
      if (costly) {
        hits.push({ key: `${costly}:member:${member.userId}`, limit: COSTLY_WRITES[costly] });
      }
      await takeHits(c.var.db, hits);
    }
    await next();
  });
