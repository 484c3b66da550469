/**
 * The store's side of its jobs (worker/stores/store-jobs.ts): recording when each is due, and
 * running the due ones, from its alarm or the daily wake, with the store's own data.
 */
import type { StoreDeps } from "../worker/http/deps";
import { resumeStuckTranscripts } from "../worker/ai/transcribe";
import { runRetention } from "../worker/retention/service";
import { importHistory } from "../worker/whatsapp/history-import";
import { runBroadcasts } from "../worker/broadcasts/sending";
import { runFollowUps } from "../worker/follow-ups/sending";
import { STATS_DEBOUNCE_MS } from "../worker/broadcasts/results";
import { applyStrandedStatuses } from "../worker/whatsapp/statuses";
import { OrganizationGone } from "../worker/stores/registry";
import {
  STORE_JOBS,
  STORE_JOB_PREFIX,
  isStoreJob,
  storeJobKey,
  type StoreJob,
  type StoreJobName,
} from "../worker/stores/store-jobs";
import { nextConversionAttempt, retryDueConversions } from "../worker/tracking/capi-service";
import { releaseExpiredHolds } from "../worker/bookings/service";
import { expireLinks } from "../worker/payments/service";
import { sendAwayMessages } from "../worker/bookings/away-message";

const DAY_MS = 24 * 60 * 60_000;
/**
 * A job being run is due again this long after it started, should the run never finish (the
 * store restarted). Longer than any run (retention stops starting deletes after five minutes),
 * so that the alarm and the daily wake never start a second run beside one still going.
 */
const RUN_LEASE_MS = 15 * 60_000;

/** What the jobs need of the store. */
export interface JobStore {
  storage: DurableObjectStorage;
  /** What a job works with: the organization's data, its sockets and jobs, in the store. */
  depsFor: (organizationId: string) => StoreDeps;
  /** Tells the registry the store ran its day (`at`), with its size and messages. */
  reportDay: (organizationId: string, at: Date) => Promise<void>;
}

/** Each job's run, answering when it is next due (null: nothing is left to do). */
export type JobRuns = Record<
  StoreJobName,
  (deps: StoreDeps, at: Date, organizationId: string, store: JobStore) => Promise<number | null>
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
  retention: async (deps, at, organizationId, store) => {
    // A backlog goes on at once, a run at a time, so that deliveries get in between; the day's
    // other work waits for the run that completes.
    if (!(await runRetention(deps, at)).complete) return Date.now();
    await store.reportDay(organizationId, at);
    await scheduleTheUnscheduled(store, organizationId, at);
    return Date.now() + DAY_MS;
  },
  // A bounded part of the app's history, then again at once while pages are left: a live
  // delivery waits for one run at most (worker/whatsapp/history-import.ts).
  history: (deps, at, organizationId) => importHistory(deps, organizationId, at),
  // A couple of seconds of sending, then again at once while recipients are left; when quiet
  // hours or the daily limit end; when a scheduled one is due.
  broadcasts: (deps, at, organizationId) => runBroadcasts(deps, organizationId, at),
  // What is due, a couple of seconds at a time; then when the next wait is over.
  follow_ups: (deps, at, organizationId) => runFollowUps(deps, organizationId, at),
  // Statuses a send could not apply, still held: applied, then again at once while more are left.
  held_statuses: async (deps, _at, organizationId, store) => {
    const applied = await applyStrandedStatuses(deps, organizationId);
    await deps.publish(...applied.events);
    if (applied.broadcastResultsChanged) {
      await keepEarliest(
        store.storage,
        organizationId,
        "broadcasts",
        Date.now() + STATS_DEBOUNCE_MS,
      );
    }
    return applied.more ? Date.now() : null;
  },
  // Bookings whose payment never came are cancelled when their hold ends; then at the next end.
  booking_holds: (deps, at, organizationId) => releaseExpiredHolds(deps, organizationId, at),
  // The away messages the customers' messages claimed, sent; again at once while more are left.
  away_messages: (deps, _at, organizationId) => sendAwayMessages(deps, organizationId),
  // Payment links whose time ran out unpaid become expired; then at the next one's end.
  payment_links: (deps, at, organizationId) => expireLinks(deps, organizationId, at),
};

/** Records that a job is due at `dueAt`, whenever it was due before. */
export const putJob = (
  storage: DurableObjectStorage,
  organizationId: string,
  name: StoreJobName,
  dueAt: number,
) => storage.put(storeJobKey(name), { organizationId, dueAt } satisfies StoreJob);

/**
 * Records that a job is due at `dueAt`, unless it is already due sooner. While a run holds the
 * job (its lease), the time is kept beside it (`asked`), sooner or later than the lease: the
 * run's end keeps it, and nothing starts a second run beside the first meanwhile.
 */
export async function keepEarliest(
  storage: DurableObjectStorage,
  organizationId: string,
  name: StoreJobName,
  dueAt: number,
) {
  const current = await storage.get<StoreJob>(storeJobKey(name));
  if (current?.running) {
    if (dueAt < (current.asked ?? Infinity)) {
      await storage.put(storeJobKey(name), { ...current, asked: dueAt } satisfies StoreJob);
    }
  } else if (!current || dueAt < current.dueAt) {
    await putJob(storage, organizationId, name, dueAt);
  }
}

/**
 * Runs the jobs due at `at` (the alarm's time, or the daily cron's), one after the other; `runs`
 * is what each job does (a test lends its own to watch the leases).
 */
export async function runDueJobs(store: JobStore, at: Date, runs = JOB_RUNS) {
  const keys = await store.storage.list<StoreJob>({ prefix: STORE_JOB_PREFIX });
  for (const key of keys.keys()) {
    const name = key.slice(STORE_JOB_PREFIX.length);
    // A job another release left: the alarm would otherwise wake for it again and again.
    if (!isStoreJob(name)) {
      await store.storage.delete(key);
      continue;
    }
    // Read again: the job before may have awaited for long, and the alarm and the daily wake
    // may run side by side; one of them has leased it since the list was read.
    const job = await store.storage.get<StoreJob>(key);
    if (job && job.dueAt <= at.getTime()) await runJob(store, name, job, at, runs);
  }
}

/**
 * A job without a schedule is due now: a new store's first retention, or work whose schedule
 * was cut off after it was committed (a conversion's retry, a broadcast). One that finds
 * nothing to do ends at once.
 */
async function scheduleTheUnscheduled(store: JobStore, organizationId: string, at: Date) {
  for (const name of STORE_JOBS) {
    if (!(await store.storage.get(storeJobKey(name)))) {
      await putJob(store.storage, organizationId, name, at.getTime());
    }
  }
}

/**
 * The daily cron's call, for a store that missed its day: every job without a schedule is due
 * now, then what is due runs. Another call the same day finds the retention not due.
 */
export async function wakeForDay(store: JobStore, organizationId: string, at: Date) {
  await scheduleTheUnscheduled(store, organizationId, at);
  await runDueJobs(store, at);
}

/** Runs one job under a lease, then keeps it for its next due time. */
async function runJob(store: JobStore, name: StoreJobName, job: StoreJob, at: Date, runs: JobRuns) {
  const key = storeJobKey(name);
  const lease = Date.now() + RUN_LEASE_MS;
  const leased: StoreJob = { organizationId: job.organizationId, dueAt: lease, running: true };
  await store.storage.put(key, leased);
  let next: number | null = lease;
  try {
    next = await runOnStoreData(store, name, job.organizationId, at, runs);
  } catch (error) {
    // A deleted organization's store erases itself (its alarm); any other job is due again
    // when the lease ends.
    if (error instanceof OrganizationGone) throw error;
    console.error("store job failed", name, job.organizationId, error);
  }
  const current = await store.storage.get<StoreJob>(key);
  // Gone: the store was erased while the job ran.
  if (!current) return;
  // What was asked for while it ran (a send that failed again; a broadcast scheduled for
  // tomorrow, committed after the run read) is kept: a run that then finds nothing ends.
  const scheduledMeanwhile = current.running ? Infinity : current.dueAt;
  const dueAt = Math.min(next ?? Infinity, scheduledMeanwhile, current.asked ?? Infinity);
  if (Number.isFinite(dueAt)) await putJob(store.storage, job.organizationId, name, dueAt);
  else await store.storage.delete(key);
}

/** A job runs on the store's data. */
async function runOnStoreData(
  store: JobStore,
  name: StoreJobName,
  organizationId: string,
  at: Date,
  runs: JobRuns,
) {
  const deps = store.depsFor(organizationId);
  return runs[name](deps, at, organizationId, store);
}
