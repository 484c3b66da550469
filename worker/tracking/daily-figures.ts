/**
 * Figures Meta gives per day (ad spend, message costs) are read once and kept: a day is read
 * again only while it can still move (today, yesterday) or once Meta has had time to settle it.
 */

export const DAY_MS = 24 * 60 * 60 * 1000;
/** Today's and yesterday's figures still move: read again when older than this. */
const RECENT_TTL_MS = 60 * 60 * 1000;
/** A day is final once Meta has had this long after its end to settle it. */
const SETTLES_MS = 2 * DAY_MS;

/** Every day from `from` to `to` (YYYY-MM-DD, inclusive). */
export function daysBetween(from: string, to: string) {
  const days: string[] = [];
  for (let t = Date.parse(`${from}T00:00:00Z`); t <= Date.parse(`${to}T00:00:00Z`); t += DAY_MS) {
    days.push(new Date(t).toISOString().slice(0, 10));
  }
  return days;
}

/** Whether a day's figures read at `fetchedAt` can still be shown at `now`. */
function isFresh(day: string, fetchedAt: string, now: number) {
  const read = Date.parse(fetchedAt);
  const settled = read >= Date.parse(`${day}T00:00:00Z`) + DAY_MS + SETTLES_MS;
  return settled || now - read < RECENT_TTL_MS;
}

/**
 * The span of days in [from, to] (up to today) to read from Meta again, given when each day
 * was last read; null when every day is fresh.
 */
export function staleSpan(
  from: string,
  to: string,
  synced: { day: string; fetchedAt: string }[],
  now: number,
) {
  const today = new Date(now).toISOString().slice(0, 10);
  const fresh = new Set(synced.filter((s) => isFresh(s.day, s.fetchedAt, now)).map((s) => s.day));
  const stale = daysBetween(from, to).filter((day) => day <= today && !fresh.has(day));
  if (stale.length === 0) return null;
  return { since: stale[0]!, until: stale.at(-1)! };
}

export function chunks<T>(items: T[], size: number) {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
