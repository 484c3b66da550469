import { eq, lt, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { rateLimits } from "../db/global-schema";
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

/**
 * What a hit does to a window that already has a row (the upsert's conflict clause): a window
 * that ended starts again at 1 until `resetAt`, else it counts one more.
 */
export const windowHit = (now: number, resetAt: number) => ({
  target: rateLimits.key,
  set: {
    count: sql`CASE WHEN ${rateLimits.resetAt} <= ${now} THEN 1 ELSE ${rateLimits.count} + 1 END`,
    resetAt: sql`CASE WHEN ${rateLimits.resetAt} <= ${now} THEN ${resetAt} ELSE ${rateLimits.resetAt} END`,
  },
});

/** What a hit's statement returns: the window's count and end after it. */
export const HIT_ROW = { count: rateLimits.count, resetAt: rateLimits.resetAt };

/** The upsert that counts one hit in a window, atomically in D1 so it holds across isolates. */
export function hitStatement(db: Db, key: string, limit: Limit, now: number) {
  const resetAt = now + limit.windowSeconds * 1000;
  return db
    .insert(rateLimits)
    .values({ key, count: 1, resetAt })
    .onConflictDoUpdate(windowHit(now, resetAt))
    .returning(HIT_ROW);
}

/** Takes one hit without throwing, for background work: whether the window still had room. */
export async function tryHit(db: Db, key: string, limit: Limit, now = Date.now()) {
  const [row] = await hitStatement(db, key, limit, now);
  return !row || row.count <= limit.max;
}

/** Counts one hit (for limits that count failures after the fact). */
export async function countHit(db: Db, key: string, limit: Limit, now = Date.now()) {
  await hitStatement(db, key, limit, now);
}

/** A window's count and end after a hit, as the hit's statement returns them. */
export interface HitRow {
  count: number;
  resetAt: number;
}

/** 429 (with Retry-After) when any hit left its window over its limit. */
export function assertWithinLimits(
  rows: ReadonlyArray<HitRow | undefined>,
  limits: readonly Limit[],
  now: number,
) {
  let retryAfterMs = 0;
  rows.forEach((row, i) => {
    if (row && row.count > limits[i]!.max) {
      retryAfterMs = Math.max(retryAfterMs, row.resetAt - now);
    }
  });
  if (retryAfterMs > 0) throw rateLimited(Math.max(1, Math.ceil(retryAfterMs / 1000)));
}

/**
 * Takes one hit from each key's window before the work is done, in one D1 batch, and throws
 * 429 when any window is now over its limit. Counting first means a burst of parallel calls
 * gets exactly `max` through, like a slow sequence would.
 */
export async function takeHits(
  db: Db,
  hits: ReadonlyArray<{ key: string; limit: Limit }>,
  now = Date.now(),
) {
  if (hits.length === 0) return;
  const [first, ...rest] = hits.map(({ key, limit }) => hitStatement(db, key, limit, now));
  const results = await db.batch([first!, ...rest]);
  assertWithinLimits(
    results.map(([row]) => row),
    hits.map((hit) => hit.limit),
    now,
  );
}

export async function clearHits(db: Db, key: string) {
  await db.delete(rateLimits).where(eq(rateLimits.key, key));
}

/** Drops the windows that have ended (the cron keeps the table small). */
export async function pruneExpiredHits(db: Db, now = Date.now()) {
  const result = await db.delete(rateLimits).where(lt(rateLimits.resetAt, now));
  return result.meta.changes;
}
