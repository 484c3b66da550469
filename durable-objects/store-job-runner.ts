/**
 * The store's jobs (worker/stores/store-jobs.ts): what each one's run does, with the store's own
 * data. When they run is the store's scheduler's (durable-objects/scheduler.ts).
 */
import type { StoreDeps } from "../worker/http/deps";
import { resumeStuckTranscripts } from "./ai/transcribe";
import { runRetention } from "./retention/service";
import { importHistory } from "./whatsapp/history-import";
import { runBroadcasts } from "./broadcasts/sending";
import { runFollowUps } from "./follow-ups/sending";
import { STATS_DEBOUNCE_MS } from "./broadcasts/results";
import { applyStrandedStatuses } from "./whatsapp/statuses";
import { STORE_JOBS, isStoreJob, jobKey, type StoreJobName } from "../worker/stores/contract";
import { askIfAbsent } from "./scheduler";
import { nextConversionAttempt, retryDueConversions } from "./tracking/capi-service";
import { releaseExpiredHolds } from "./bookings/service";
import { expireLinks } from "./payments/service";
import { sendAwayMessages } from "./bookings/away-message";
import { runGoogleEvents } from "./integrations/google/events";
import { runReminders } from "./reminders/sending";
import { indexSearchBacklog } from "./conversations/search";

const DAY_MS = 24 * 60 * 60_000;

/** What the jobs need of the store. */
export interface JobHost {
  storage: DurableObjectStorage;
  /** What a job works with: the organization's data, its sockets and jobs, in the store. */
  depsFor: (organizationId: string) => StoreDeps;
  /** Tells the registry the store ran its day (`at`), with its size and messages. */
  reportDay: (organizationId: string, at: Date) => Promise<void>;
}

/** Each job's run, answering when it is next due (null: nothing is left to do). */
export type JobRuns = Record<
  StoreJobName,
  (deps: StoreDeps, at: Date, organizationId: string, host: JobHost) => Promise<number | null>
>;

export const JOB_RUNS: JobRuns = {
  capi: async (deps, at) => {
    await retryDueConversions(deps, at);
    return nextConversionAttempt(deps.orgDb);
  },
  // Voice notes whose transcription was abandoned, once they count as stuck; then nothing.
  transcripts: async (deps, at) => {
    await resumeStuckTranscripts(deps, at);
    return null;
  },
  // Once a day, on the store's clock (its alarm's). The registry learns it, so that the daily
  // cron leaves this store alone tomorrow. Then every job without a schedule is made due: a
  // schedule lost on its way here (the call failed after the work was committed) costs a day
  // at most, never the work.
  retention: async (deps, at, organizationId, host) => {
    // A backlog goes on at once, a run at a time, so that deliveries get in between; the day's
    // other work waits for the run that completes.
    if (!(await runRetention(deps, organizationId, at)).complete) return Date.now();
    await host.reportDay(organizationId, at);
    scheduleTheUnscheduled(host, at);
    return Date.now() + DAY_MS;
  },
  // A bounded part of the app's history, then again at once while pages are left: a live
  // delivery waits for one run at most (durable-objects/whatsapp/history-import.ts).
  history: (deps, at, organizationId) => importHistory(deps, organizationId, at),
  // A couple of seconds of sending, then again at once while recipients are left; when quiet
  // hours or the daily limit end; when a scheduled one is due.
  broadcasts: (deps, at, organizationId) => runBroadcasts(deps, organizationId, at),
  // What is due, a couple of seconds at a time; then when the next wait is over.
  follow_ups: (deps, at, organizationId) => runFollowUps(deps, organizationId, at),
  // Statuses a send could not apply, still held: applied, then again at once while more are left.
  held_statuses: async (deps, _at, organizationId) => {
    const applied = await applyStrandedStatuses(deps, organizationId);
    await deps.publish(...applied.events);
    if (applied.broadcastResultsChanged) {
      await deps.schedule("broadcasts", Date.now() + STATS_DEBOUNCE_MS);
    }
    return applied.more ? Date.now() : null;
  },
  // Bookings whose payment never came are cancelled when their hold ends; then at the next end.
  booking_holds: (deps, at, organizationId) => releaseExpiredHolds(deps, organizationId, at),
  // The away messages the customers' messages claimed, sent; again at once while more are left.
  away_messages: (deps, _at, organizationId) => sendAwayMessages(deps, organizationId),
  // Payment links whose time ran out unpaid become expired; then at the next one's end.
  payment_links: (deps, at, organizationId) => expireLinks(deps, organizationId, at),
  // Bookings' events owed to Google Calendar, written; a failure is tried again later.
  google_events: (deps, _at, organizationId) => runGoogleEvents(deps, organizationId),
  // The presses of reminders' buttons acted on, then the reminders due sent; then the next one.
  booking_reminders: (deps, at, organizationId) => runReminders(deps, organizationId, at),
  // The rows stored since the last run, written to the search indexes together; again at once
  // while more are waiting (decision 0149).
  search: async (deps) => (indexSearchBacklog(deps.orgDb) ? Date.now() : null),
};

/**
 * A job's run (a row `job:<name>` of the store's scheduled work, durable-objects/scheduler.ts):
 * answers when it is next due. A row of a job this release does not know (another release left
 * it) is deleted: the alarm would otherwise wake for it again and again.
 */
export async function runJob(
  host: JobHost,
  name: string,
  at: Date,
  organizationId: string,
  runs = JOB_RUNS,
): Promise<number | null> {
  if (!isStoreJob(name)) return null;
  return runs[name](host.depsFor(organizationId), at, organizationId, host);
}

/**
 * A job without a schedule is due now: a new store's first retention, or work whose schedule
 * was cut off after it was committed (a conversion's retry, a broadcast). One that finds
 * nothing to do ends at once.
 */
export function scheduleTheUnscheduled(host: JobHost, at: Date) {
  for (const name of STORE_JOBS) askIfAbsent(host.storage.sql, jobKey(name), "job", at.getTime());
}
