/**
 * Store migration 15 (issue #49's "one scheduler", decision 0099): the store's scheduled work is
 * rows of one table, run by its one alarm (durable-objects/scheduler.ts). A row is the job, the
 * AI reply to a conversation or the voice note to transcribe named by its `key` (`job:capi`,
 * `reply:<conversation>`, `transcript:<message>`); `due_at` is when it is next due (ms), and
 * while a run holds it, the end of that run's lease. The keys the storage held before are moved
 * into it by code, at the same wake (`moveScheduleKeys`).
 */
export const SCHEDULED_WORK_SQL = `
CREATE TABLE scheduled_work (
	key text PRIMARY KEY NOT NULL,
	kind text NOT NULL,
	due_at integer NOT NULL,
	payload text DEFAULT '{}' NOT NULL,
	lease_until integer,
	asked_at integer,
	attempts integer DEFAULT 0 NOT NULL
);

CREATE INDEX scheduled_work_due_idx ON scheduled_work (due_at)`;
