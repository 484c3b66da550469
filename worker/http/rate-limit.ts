import { eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { rateLimits } from "../db/schema";
import { rateLimited } from "./errors";

/** A fixed-window limit: at most `max` hits per `windowSeconds` for one key. */
export interface Limit {
  max: number;
  windowSeconds: number;
}

/** Throws 429 (with Retry-After) when `key` has already used up its window. */
export async function assertUnderLimit(db: Db, key: string, limit: Limit, now = Date.now()) {
  const row = await db.query.rateLimits.findFirst({ where: eq(rateLimits.key, key) });
  if (row && row.resetAt > now && row.count >= limit.max) {
    throw rateLimited(Math.ceil((row.resetAt - now) / 1000));
  }
}

/** Counts one hit atomically in D1, so the limit holds across isolates. */
export async function countHit(db: Db, key: string, limit: Limit, now = Date.now()) {
  const resetAt = now + limit.windowSeconds * 1000;
  await db
    .insert(rateLimits)
    .values({ key, count: 1, resetAt })
    .onConflictDoUpdate({
      target: rateLimits.key,
      set: {
        count: sql`CASE WHEN ${rateLimits.resetAt} <= ${now} THEN 1 ELSE ${rateLimits.count} + 1 END`,
        resetAt: sql`CASE WHEN ${rateLimits.resetAt} <= ${now} THEN ${resetAt} ELSE ${rateLimits.resetAt} END`,
      },
    });
}

export async function clearHits(db: Db, key: string) {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}
