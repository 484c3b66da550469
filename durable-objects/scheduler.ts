/**
 * The store's one scheduler (contract section 15, issue #49, decision 0099): its scheduled work
 * is rows of `scheduled_work` in its SQLite (store migration 15), run by its one alarm, which is
 * set to the earliest `due_at`. A run takes a lease on the row it runs (its `due_at` becomes the
 * lease's end, so a run that dies frees the row then, and nothing else runs it meanwhile); a
 * time asked for the row during the run is kept beside it (`asked_at`) and the run's end keeps
 * the earliest of that and its own next time (decision 0069). Every statement here is SQLite's,
 * synchronous: between reading a row and leasing it nothing else of the store runs.
 */
import { OrganizationGone } from "../worker/stores/registry";

export type WorkKind = "job" | "reply" | "transcript";

/** A row of the store's scheduled work. */
export interface ScheduledWork {
  key: string;
  kind: WorkKind;
  dueAt: number;
  payload: Record<string, unknown>;
  leaseUntil: number | null;
  askedAt: number | null;
  attempts: number;
}

/** What a run did: when its row is next due (null: nothing left), and its failed runs in a row. */
export interface RunOutcome {
  next: number | null;
  attempts: number;
}

/** What the scheduler runs the due rows with. */
export interface WorkRunner {
  storage: DurableObjectStorage;
  /** Does one row's work; a throw counts as a failed attempt (`retryDelay`). */
  run(work: ScheduledWork, at: Date): Promise<RunOutcome>;
  /** The store was erased meanwhile: nothing more is run or written. */
  stopped(): boolean;
}

/**
 * How long a run holds its row, should it never end (the store restarted or was evicted).
 * Longer than any run: a job's (retention stops starting deletes after five minutes), a reply's
 * or a transcription's (three model attempts of at most 30 s each, with their pauses).
 */
export const LEASE_MS: Record<WorkKind, number> = {
  job: 15 * 60_000,
  reply: 5 * 60_000,
  transcript: 5 * 60_000,
};

/** The first pause after a run that threw; doubled with each failure in a row, up to the cap. */
const FIRST_RETRY_MS = 30_000;
const MAX_RETRY_MS = 60 * 60_000;

/** When a row whose run threw for the `attempts`-th time in a row is tried again. */
export const retryDelay = (attempts: number) =>
  Math.min(FIRST_RETRY_MS * 2 ** Math.max(attempts - 1, 0), MAX_RETRY_MS);

export const replyKey = (conversationId: string) => `reply:${conversationId}`;
export const transcriptKey = (messageId: string) => `transcript:${messageId}`;
/** What a row's key names beyond its kind: the job, conversation or message. */
export const subjectOf = (work: Pick<ScheduledWork, "key" | "kind">) =>
  work.key.slice(work.kind.length + 1);

interface WorkRow extends Record<string, SqlStorageValue> {
  key: string;
  kind: WorkKind;
  due_at: number;
  payload: string;
  lease_until: number | null;
  asked_at: number | null;
  attempts: number;
}

const workOf = (row: WorkRow): ScheduledWork => ({
  key: row.key,
  kind: row.kind,
  dueAt: row.due_at,
  payload: JSON.parse(row.payload) as Record<string, unknown>,
  leaseUntil: row.lease_until,
  askedAt: row.asked_at,
  attempts: row.attempts,
});

/** The row of `key`, if any. */
export function scheduledWork(sql: SqlStorage, key: string): ScheduledWork | null {
  const [row] = sql.exec<WorkRow>("SELECT * FROM scheduled_work WHERE key = ?", key).toArray();
  return row ? workOf(row) : null;
}

/**
 * What `askFor` makes of a row already there (`?5`: keep the earliest). A row it would leave as
 * it is is not written at all (a job asked for again before its time: decision 0148).
 */
const ASKED_DUE_AT = `(CASE WHEN lease_until IS NOT NULL THEN due_at
  WHEN ?5 THEN min(due_at, excluded.due_at) ELSE excluded.due_at END)`;
const ASKED_AT = `(CASE WHEN lease_until IS NULL THEN NULL
  WHEN ?5 THEN min(coalesce(asked_at, excluded.due_at), excluded.due_at)
  ELSE excluded.due_at END)`;

/**
 * Asks for `key` at `dueAt`. `earliest` keeps a sooner time the row already has (a job: run at
 * the earliest time anyone asked); `latest` replaces it (a reply put off to a burst's end). While
 * a run holds the row, the time goes to `asked_at` instead (sooner or later than the lease), for
 * the run's end to keep. The payload replaces the row's.
 */
export function askFor(
  sql: SqlStorage,
  work: { key: string; kind: WorkKind; dueAt: number; payload?: Record<string, unknown> },
  keep: "earliest" | "latest",
) {
  sql.exec(
    `INSERT INTO scheduled_work (key, kind, due_at, payload) VALUES (?1, ?2, ?3, ?4)
     ON CONFLICT (key) DO UPDATE SET due_at = ${ASKED_DUE_AT}, asked_at = ${ASKED_AT},
       payload = excluded.payload
     WHERE due_at IS NOT ${ASKED_DUE_AT} OR asked_at IS NOT ${ASKED_AT}
       OR payload IS NOT excluded.payload`,
    work.key,
    work.kind,
    work.dueAt,
    JSON.stringify(work.payload ?? {}),
    keep === "earliest" ? 1 : 0,
  );
}

/** Asks for `key` at `dueAt` only if the store holds no row for it (the daily net for a job). */
export function askIfAbsent(sql: SqlStorage, key: string, kind: WorkKind, dueAt: number) {
  sql.exec(
    "INSERT INTO scheduled_work (key, kind, due_at) VALUES (?, ?, ?) ON CONFLICT (key) DO NOTHING",
    key,
    kind,
    dueAt,
  );
}

/** When the earliest row is due (a held row: when its lease ends), or null with none. */
export function nextDue(sql: SqlStorage): number | null {
  return sql.exec<{ next: number | null }>("SELECT min(due_at) AS next FROM scheduled_work").one()
    .next;
}

/** Takes the lease on `key` if it is due at `at` (a held row is due when its lease ends). */
function lease(sql: SqlStorage, key: string, at: number): ScheduledWork | null {
  const [row] = sql
    .exec<WorkRow>("SELECT * FROM scheduled_work WHERE key = ? AND due_at <= ?", key, at)
    .toArray();
  if (!row) return null;
  const until = Date.now() + LEASE_MS[row.kind];
  sql.exec("UPDATE scheduled_work SET due_at = ?2, lease_until = ?2 WHERE key = ?1", key, until);
  return { ...workOf(row), dueAt: until, leaseUntil: until };
}

/**
 * Ends a run: the row is due at the earliest of the run's next time and what was asked during
 * it, or deleted when neither is left. A run whose lease ended and was taken by another changes
 * nothing (the other's end decides).
 */
function finish(sql: SqlStorage, leased: ScheduledWork, outcome: RunOutcome) {
  const [row] = sql
    .exec<{ asked_at: number | null }>(
      "SELECT asked_at FROM scheduled_work WHERE key = ? AND lease_until = ?",
      leased.key,
      leased.leaseUntil,
    )
    .toArray();
  if (!row) return;
  const dueAt = Math.min(outcome.next ?? Infinity, row.asked_at ?? Infinity);
  if (Number.isFinite(dueAt)) {
    sql.exec(
      `UPDATE scheduled_work SET due_at = ?, lease_until = NULL, asked_at = NULL, attempts = ?
       WHERE key = ?`,
      dueAt,
      outcome.attempts,
      leased.key,
    );
  } else {
    sql.exec("DELETE FROM scheduled_work WHERE key = ?", leased.key);
  }
}

/**
 * Runs the rows due at `at` (the alarm's time, or the daily cron's), one after the other: the
 * voice notes first (a reply may read them), then the replies, then the jobs. The due keys are
 * read once: a row its run makes due at once waits for the next alarm, so that what waits gets
 * in between. Each row is read again and leased right before its run: the alarm and the daily
 * wake may run side by side, and only one of them runs it.
 */
export async function runDueWork(runner: WorkRunner, at: Date) {
  const { sql } = runner.storage;
  const keys = sql
    .exec<{ key: string }>(
      `SELECT key FROM scheduled_work WHERE due_at <= ?
       ORDER BY CASE kind WHEN 'transcript' THEN 0 WHEN 'reply' THEN 1 ELSE 2 END, due_at`,
      at.getTime(),
    )
    .toArray();
  for (const { key } of keys) {
    if (runner.stopped()) return;
    const work = lease(sql, key, at.getTime());
    if (!work) continue;
    let outcome: RunOutcome;
    try {
      outcome = await runner.run(work, at);
    } catch (error) {
      // A deleted organization's store erases itself (its alarm); any other failure is tried
      // again, later each time.
      if (error instanceof OrganizationGone) throw error;
      console.error("scheduled work failed", key, error);
      const attempts = work.attempts + 1;
      outcome = { next: Date.now() + retryDelay(attempts), attempts };
    }
    if (runner.stopped()) return;
    finish(sql, work, outcome);
  }
}

/** What the storage kept of a job, a reply or a voice note before this table (decision 0069). */
interface ScheduleKey {
  dueAt: number;
  firstAt?: number;
  attempts?: number;
  asked?: number;
}

const KEY_KINDS: readonly WorkKind[] = ["job", "reply", "transcript"];
/** The storage deletes at most 128 keys a call. */
const KEYS_PER_DELETE = 128;

/**
 * Moves the schedule the storage's keys held (`job:<name>`, `reply:<conversation>`,
 * `transcript:<message>`) into the table, and deletes the keys, in one transaction: run at
 * wake right after the migrations, it finds nothing once done. A job a run held (its lease)
 * is due at the earliest of its lease's end and what was asked meanwhile; nothing is lost.
 * Answers how many keys it moved.
 */
export async function moveScheduleKeys(storage: DurableObjectStorage) {
  return storage.transaction(async (txn) => {
    let moved = 0;
    for (const kind of KEY_KINDS) {
      const keys = await txn.list<ScheduleKey>({ prefix: `${kind}:` });
      for (const [key, value] of keys) {
        const dueAt = Math.min(value.dueAt, value.asked ?? Infinity);
        storage.sql.exec(
          `INSERT INTO scheduled_work (key, kind, due_at, payload, attempts) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (key) DO UPDATE SET due_at = min(due_at, excluded.due_at)`,
          key,
          kind,
          dueAt,
          JSON.stringify(kind === "reply" ? { firstAt: value.firstAt ?? dueAt } : {}),
          value.attempts ?? 0,
        );
      }
      const names = [...keys.keys()];
      for (let i = 0; i < names.length; i += KEYS_PER_DELETE) {
        await txn.delete(names.slice(i, i + KEYS_PER_DELETE));
      }
      moved += names.length;
    }
    return moved;
  });
}
