/**
 * The privacy policy's promise: conversation data is kept two years, then deleted.
 * Runs daily in each store, from its alarm, over its own data (worker/stores/store-jobs.ts).
 * Deletes in bounded batches, so a large backlog is cleared over several runs; running it again
 * deletes nothing more.
 */
import { sql, type SQL } from "drizzle-orm";
import { recordAudit } from "../audit/service";
import type { StoreDeps } from "../../worker/http/deps";
import { HELD_STATUS_MS } from "../whatsapp/statuses";

export const RETENTION_YEARS = 2;
/**
 * How long an entry of the phone's address book that names no conversation is kept: the app's
 * history, which may bring that customer's conversation, comes right after it (decision 0082).
 */
const PHONE_CONTACT_ALONE_MS = 24 * 60 * 60_000;
/** Rows deleted per statement. */
const BATCH_SIZE = 5_000;
/**
 * Statements per run: the deletes are the store's own CPU, and nothing else of the
 * organization runs meanwhile (its deliveries, replies, sockets): ten batches (about half a
 * second of work) a run, and its job runs again at once while a backlog is left, letting the
 * rest in between.
 */
const MAX_STATEMENTS = 10;
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
    /** The phone's address book entries that named no conversation, after a day (decision 0082). */
    phone_contacts: number;
    /** Consent of customers without a conversation, unchanged for as long as conversations live. */
    marketing_consents: number;
  };
  statements: number;
  complete: boolean;
  duration_ms: number;
  /** The longest single DELETE: the store runs one at a time, so this is how long others waited. */
  slowest_statement_ms: number;
}

export function retentionCutoff(now: Date) {
  const cutoff = new Date(now);
  cutoff.setUTCFullYear(cutoff.getUTCFullYear() - RETENTION_YEARS);
  return cutoff.toISOString();
}

/**
 * Deletes what expired in the organization's data. A run that deleted something, or left some
 * for the next run, is recorded in the organization's audit trail with what it deleted; a run
 * that found nothing is not (the registry's `daily_run_at` says the day ran).
 */
export async function runRetention(
  { orgDb }: StoreDeps,
  organizationId: string,
  now: Date,
): Promise<RetentionReport> {
  const started = Date.now();
  const cutoff = retentionCutoff(now);
  const heldCutoff = new Date(now.getTime() - HELD_STATUS_MS).toISOString();
  const contactCutoff = new Date(now.getTime() - PHONE_CONTACT_ALONE_MS).toISOString();
  const deleted = {
    messages: 0,
    conversations: 0,
    tracking_sessions: 0,
    conversions: 0,
    held_statuses: 0,
    phone_contacts: 0,
    marketing_consents: 0,
  };
  let statements = 0;
  let slowest = 0;
  /** One batch of a table's rows whose `column` is before `before`. */
  const olderThan = (table: string, column: string, before: string) => () =>
    sql`DELETE FROM ${sql.identifier(table)} WHERE rowid IN (
      SELECT rowid FROM ${sql.identifier(table)}
      WHERE ${sql.identifier(column)} < ${before} LIMIT ${BATCH_SIZE})`;

  /**
   * Repeats one batched DELETE until nothing is left or the run's budget is spent. Rows are
   * counted from RETURNING: `changes` would also count what triggers and foreign-key actions
   * touched (the search index, SET NULL on conversions).
   */
  async function drain(key: keyof typeof deleted, statement: () => SQL) {
    while (statements < MAX_STATEMENTS && Date.now() - started < MAX_DURATION_MS) {
      statements += 1;
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
        WHERE c.last_message_at < ${cutoff} LIMIT ${BATCH_SIZE})`,
    )) &&
    (await drain("conversations", olderThan("conversations", "last_message_at", cutoff))) &&
    (await drain("conversions", olderThan("conversions", "event_time", cutoff))) &&
    (await drain(
      "tracking_sessions",
      olderThan("tracking_sessions", "last_activity_at", cutoff),
    )) &&
    (await drain("held_statuses", olderThan("held_statuses", "received_at", heldCutoff))) &&
    (await drain(
      "phone_contacts",
      () => sql`DELETE FROM phone_contacts WHERE rowid IN (
        SELECT book.rowid FROM phone_contacts AS book
        WHERE book.updated_at < ${contactCutoff} AND NOT EXISTS (SELECT 1 FROM conversations AS c
          WHERE c.organization_id = book.organization_id AND c.phone_number = book.phone_number)
        LIMIT ${BATCH_SIZE})`,
    )) &&
    (await drain(
      "marketing_consents",
      () => sql`DELETE FROM marketing_consents WHERE rowid IN (
        SELECT consent.rowid FROM marketing_consents AS consent
        WHERE consent.changed_at < ${cutoff}
          AND NOT EXISTS (SELECT 1 FROM conversations AS c
            WHERE c.organization_id = consent.organization_id AND c.phone_number = consent.customer)
          AND NOT EXISTS (SELECT 1 FROM conversations AS c
            WHERE c.organization_id = consent.organization_id AND c.wa_user_id = consent.customer)
        LIMIT ${BATCH_SIZE})`,
    ));

  const report: RetentionReport = {
    cutoff,
    deleted,
    statements,
    complete,
    duration_ms: Date.now() - started,
    slowest_statement_ms: slowest,
  };
  if (!complete || Object.values(deleted).some((rows) => rows > 0)) {
    await recordAudit(orgDb, { action: "retention.run", organizationId, metadata: { ...report } });
  }
  return report;
}
