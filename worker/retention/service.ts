/**
 * The privacy policy's promise: conversation data is kept two years, then deleted.
 * Runs daily from the cron trigger. Deletes in bounded batches (D1 statement and time
 * limits), so a large backlog is cleared over several runs; running it again deletes nothing more.
 */
import { sql } from "drizzle-orm";
import { recordAudit } from "../audit/service";
import type { Db } from "../db/client";

export const RETENTION_YEARS = 2;
/** Rows deleted per statement. */
const BATCH_SIZE = 5_000;
/** Statements per run: well inside a scheduled invocation's limits. */
const MAX_STATEMENTS = 200;

export interface RetentionReport {
  cutoff: string;
  deleted: {
    messages: number;
    conversations: number;
    tracking_sessions: number;
    conversions: number;
  };
  statements: number;
  complete: boolean;
  duration_ms: number;
}

export function retentionCutoff(now: Date) {
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - RETENTION_YEARS);
  return cutoff.toISOString();
}

export async function runRetention(db: Db, now: Date): Promise<RetentionReport> {
  const started = Date.now();
  const cutoff = retentionCutoff(now);
  const deleted = { messages: 0, conversations: 0, tracking_sessions: 0, conversions: 0 };
  let statements = 0;

  /** Repeats one batched DELETE until nothing is left or the run's budget is spent. */
  async function drain(key: keyof typeof deleted, statement: () => ReturnType<Db["run"]>) {
    while (statements < MAX_STATEMENTS) {
      statements += 1;
      const result = await statement();
      const changes = result.meta.changes ?? 0;
      deleted[key] += changes;
      if (changes < BATCH_SIZE) return true;
    }
    return false;
  }

  // Messages first (in batches), so deleting a conversation never cascades unbounded work.
  const complete =
    (await drain("messages", () =>
      db.run(sql`DELETE FROM messages WHERE rowid IN (
        SELECT m.rowid FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE c.last_message_at < ${cutoff} LIMIT ${BATCH_SIZE})`),
    )) &&
    (await drain("conversations", () =>
      db.run(sql`DELETE FROM conversations WHERE rowid IN (
        SELECT rowid FROM conversations WHERE last_message_at < ${cutoff} LIMIT ${BATCH_SIZE})`),
    )) &&
    (await drain("conversions", () =>
      db.run(sql`DELETE FROM conversions WHERE rowid IN (
        SELECT rowid FROM conversions WHERE event_time < ${cutoff} LIMIT ${BATCH_SIZE})`),
    )) &&
    (await drain("tracking_sessions", () =>
      db.run(sql`DELETE FROM tracking_sessions WHERE rowid IN (
        SELECT rowid FROM tracking_sessions WHERE last_activity_at < ${cutoff} LIMIT ${BATCH_SIZE})`),
    ));

  const report: RetentionReport = {
    cutoff,
    deleted,
    statements,
    complete,
    duration_ms: Date.now() - started,
  };
  await recordAudit(db, { action: "retention.run", metadata: { ...report } });
  return report;
}
