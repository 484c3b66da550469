/**
 * The privacy policy's promise: conversation data is kept two years, then deleted.
 * Runs daily: from the cron trigger over D1, and in each store from its alarm over its own data
 * (worker/stores/store-jobs.ts). Deletes in bounded batches (D1 statement and time limits), so
 * a large backlog is cleared over several runs; running it again deletes nothing more.
 */
import { sql, type SQL } from "drizzle-orm";
import { recordAudit } from "../audit/service";
import { inD1 } from "../db/client";
import { switchingOrganizations } from "../stores/registry";
import type { Deps } from "../http/deps";
import { HELD_STATUS_MS } from "../whatsapp/statuses";

export const RETENTION_YEARS = 2;
/** Rows deleted per statement. */
const BATCH_SIZE = 5_000;
/**
 * Statements per run: well inside a scheduled invocation's limits (1,000 D1 queries per
 * invocation on the paid plan, 15 minutes of wall time for a daily cron; waiting on D1 is
 * not CPU time). 200 batches clear up to a million rows a run; a bigger backlog takes more runs.
 */
const MAX_STATEMENTS = 200;
/**
 * In a store the deletes are the store's own CPU, and nothing else of the organization runs
 * meanwhile (its deliveries, replies, sockets): ten batches (about half a second of work) a
 * run, and its job runs again at once while a backlog is left, letting the rest in between.
 */
const MAX_STATEMENTS_IN_A_STORE = 10;
/** Stops starting new batches after this long, whatever is left (the next run goes on). */
const MAX_DURATION_MS = 5 * 60_000;

export interface RetentionReport {
  cutoff: string;
  deleted: {
    messages: number;
    conversations: number;
    tracking_sessions: number;
    conversions: number;
    /** Statuses of messages the product never recorded (whatsapp/statuses.ts), after a day. */
    held_statuses: number;
  };
  statements: number;
  complete: boolean;
  duration_ms: number;
  /** The longest single DELETE: D1 runs one query at a time, so this is how long others waited. */
  slowest_statement_ms: number;
}

export function retentionCutoff(now: Date) {
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - RETENTION_YEARS);
  return cutoff.toISOString();
}

/**
 * Deletes what expired in `orgDb`: from the cron, every organization whose data is in D1, a
 * few statements for all of them (one organization at a time would cost at least four
 * statements each, and the run's budget would not reach past the first fifty: docs/decisions/
 * 0053); from a store, its organization's. Either run is recorded in D1's own trail (`db`), no
 * organization's.
 */
export async function runRetention({ db, orgDb }: Deps, now: Date): Promise<RetentionReport> {
  const started = Date.now();
  const cutoff = retentionCutoff(now);
  const maxStatements = inD1(orgDb) ? MAX_STATEMENTS : MAX_STATEMENTS_IN_A_STORE;
  const heldCutoff = new Date(now.getTime() - HELD_STATUS_MS).toISOString();
  const deleted = {
    messages: 0,
    conversations: 0,
    tracking_sessions: 0,
    conversions: 0,
    held_statuses: 0,
  };
  let statements = 0;
  let slowest = 0;
  // Over D1, an organization whose move is switching keeps its rows until the move has ended;
  // the next day's run deletes them. Read again before each batch: a run lasts minutes.
  let moving: string[] = [];
  const notMoving = (column: string) =>
    moving.length === 0
      ? sql``
      : sql` AND ${sql.raw(column)} NOT IN (SELECT value FROM json_each(${JSON.stringify(moving)}))`;

  /** One batch of a table's rows whose `column` is before `before`. */
  const olderThan = (table: string, column: string, before: string) => () =>
    sql`DELETE FROM ${sql.identifier(table)} WHERE rowid IN (
      SELECT rowid FROM ${sql.identifier(table)}
      WHERE ${sql.identifier(column)} < ${before}${notMoving("organization_id")} LIMIT ${BATCH_SIZE})`;

  /**
   * Repeats one batched DELETE until nothing is left or the run's budget is spent. Rows are
   * counted from RETURNING: D1's `changes` also counts what triggers and foreign-key actions
   * touched (the search index, SET NULL on conversions).
   */
  async function drain(key: keyof typeof deleted, statement: () => SQL) {
    while (statements < maxStatements && Date.now() - started < MAX_DURATION_MS) {
      statements += 1;
      if (inD1(orgDb)) moving = await switchingOrganizations(db);
      const t = Date.now();
      const rows = await orgDb.all(sql`${statement()} RETURNING 1`);
      slowest = Math.max(slowest, Date.now() - t);
      deleted[key] += rows.length;
      if (rows.length < BATCH_SIZE) return true;
    }
    return false;
  }

  // Messages first (in batches), so deleting a conversation never cascades unbounded work.
  const complete =
    (await drain(
      "messages",
      () => sql`DELETE FROM messages WHERE rowid IN (
        SELECT m.rowid FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE c.last_message_at < ${cutoff}${notMoving("c.organization_id")} LIMIT ${BATCH_SIZE})`,
    )) &&
    (await drain("conversations", olderThan("conversations", "last_message_at", cutoff))) &&
    (await drain("conversions", olderThan("conversions", "event_time", cutoff))) &&
    (await drain(
      "tracking_sessions",
      olderThan("tracking_sessions", "last_activity_at", cutoff),
    )) &&
    (await drain("held_statuses", olderThan("held_statuses", "received_at", heldCutoff)));

  const report: RetentionReport = {
    cutoff,
    deleted,
    statements,
    complete,
    duration_ms: Date.now() - started,
    slowest_statement_ms: slowest,
  };
  await recordAudit(db, { action: "retention.run", metadata: { ...report } });
  return report;
}
