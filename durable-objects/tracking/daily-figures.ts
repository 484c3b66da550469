/**
 * Figures Meta gives per day (ad spend, message costs) are read once and kept: a day is read
 * again only while it can still move (today, yesterday) or once Meta has had time to settle it,
 * within what one organization may ask of Meta and write (`refreshFigures`).
 */
import { eq } from "drizzle-orm";
import { orgBatch } from "../db";
import { rateLimits } from "../../worker/db/global-schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { tryHit, type Limit } from "../../worker/http/rate-limit";
import { tryReadWrite } from "../../worker/http/write-limits";
import { GraphError } from "../meta/errors";

/** A statement on the organization's data that `orgBatch` runs with others. */
type OrganizationStatement = Parameters<typeof orgBatch>[1][number];

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

/** Meta calls an organization's views of figures may make per window (a page is one call). */
export const META_READS: Limit = { max: 30, windowSeconds: 600 };
/** A span whose read failed is not asked for again before this: Meta is not hammered. */
export const META_FAILURE_TTL_MS = 5 * 60_000;
/** Statements per batch when keeping figures (more only for a single day that needs it). */
const STATEMENTS_PER_BATCH = 50;
/** Days per batch: their read times are one upsert and their deletion one `IN` list. */
const DAYS_PER_BATCH = 30;

export const FAILED_LATELY =
  "Meta no pudo dar estas cifras hace un momento: se muestran las últimas guardadas y se volverá a consultar en unos minutos.";
export const READS_SPENT =
  "Se ha consultado Meta muchas veces en poco tiempo: se muestran las últimas cifras guardadas. Inténtalo en unos minutos.";
export const WRITES_SPENT =
  "La organización alcanzó su límite de escrituras por minuto: no se guardaron todas las cifras de Meta. Inténtalo en un minuto.";

/** A read that cannot be kept (more than the bounds allow): remembered like Meta's refusals. */
export class FiguresRefused extends Error {}
class ReadsSpent extends Error {}

/** Sends one Meta request of a read, counted first in the organization's window. */
export type MetaCall = <T>(request: () => Promise<T>) => Promise<T>;

/**
 * Reads a span of days' figures from Meta and keeps them, within what one organization may
 * ask of Meta and write: a span that failed lately is not asked again (META_FAILURE_TTL_MS),
 * every request counts in META_READS, and every batch kept is a write of the member (decision
 * 0043). Batches replace whole days (their rows and when they were read), so a day is kept
 * whole or not at all; days not kept are read again on a later view. Answers the Spanish
 * reason when fresh figures could not be kept: the view then shows what is kept beside it.
 */
export async function refreshFigures<Row extends { day: string }>(
  deps: StoreDeps,
  member: Member,
  figures: {
    name: "spend" | "costs";
    span: { since: string; until: string };
    now: number;
    read: (call: MetaCall) => Promise<Row[]>;
    rowsPerStatement: number;
    /** The statements that replace these days' rows and record when they were read. */
    replace: (days: string[], rows: Row[]) => OrganizationStatement[];
  },
): Promise<{ error?: string }> {
  const { db } = deps;
  const { span, now } = figures;
  const failureKey = `meta-failed:${figures.name}:${member.organizationId}:${span.since}:${span.until}`;
  const failed = await db.query.rateLimits.findFirst({ where: eq(rateLimits.key, failureKey) });
  if (failed && failed.resetAt > now) return { error: FAILED_LATELY };
  // Counted before Meta is asked, as a write is before its work: what could not be kept is not read.
  if (!(await tryReadWrite(db, member, now))) return { error: WRITES_SPENT };

  let rows: Row[];
  try {
    rows = await figures.read(async (request) => {
      const room = await tryHit(db, `meta-reads:org:${member.organizationId}`, META_READS, now);
      if (!room) throw new ReadsSpent();
      return request();
    });
  } catch (error) {
    if (error instanceof ReadsSpent) return { error: READS_SPENT };
    if (!(error instanceof GraphError) && !(error instanceof FiguresRefused)) throw error;
    if (error instanceof GraphError) console.warn("meta figures", error.providerMessage);
    const resetAt = now + META_FAILURE_TTL_MS;
    await db
      .insert(rateLimits)
      .values({ key: failureKey, count: 1, resetAt })
      .onConflictDoUpdate({ target: rateLimits.key, set: { count: 1, resetAt } });
    return { error: error.message };
  }

  const batches = dayBatches(daysBetween(span.since, span.until), rows, figures.rowsPerStatement);
  for (const [i, batch] of batches.entries()) {
    // The first was counted before Meta was asked.
    if (i > 0 && !(await tryReadWrite(db, member))) return { error: WRITES_SPENT };
    const [first, ...rest] = figures.replace(batch.days, batch.rows);
    await orgBatch(deps.orgDb, [first!, ...rest]);
  }
  return {};
}

/**
 * Groups the days (and their rows) so that each batch holds at most STATEMENTS_PER_BATCH
 * statements: the rows' inserts, the days' deletion and their read times. A day is never
 * split; one that needs more statements alone is a batch of its own (bounded by the reads:
 * pages of ads, categories × countries).
 */
function dayBatches<Row extends { day: string }>(
  days: string[],
  rows: Row[],
  rowsPerStatement: number,
) {
  const rowsOf = new Map<string, Row[]>();
  for (const row of rows) {
    const dayRows = rowsOf.get(row.day);
    if (dayRows) dayRows.push(row);
    else rowsOf.set(row.day, [row]);
  }
  const batches: { days: string[]; rows: Row[] }[] = [];
  for (const day of days) {
    const dayRows = rowsOf.get(day) ?? [];
    const last = batches.at(-1);
    const fits =
      last !== undefined &&
      last.days.length < DAYS_PER_BATCH &&
      Math.ceil((last.rows.length + dayRows.length) / rowsPerStatement) + 2 <= STATEMENTS_PER_BATCH;
    if (fits) {
      last.days.push(day);
      last.rows.push(...dayRows);
    } else {
      batches.push({ days: [day], rows: [...dayRows] });
    }
  }
  return batches;
}
