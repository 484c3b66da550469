/**
 * The jobs an organization's store runs from its alarm once all its data is there (contract
 * section 15, "jobs live with the data"): the Conversions API retries, the daily retention and
 * the sweep of voice notes left pending; and the import of the WhatsApp Business app's history
 * (contract section 16) and the sending of broadcasts and follow-ups (section 17), which run wherever the
 * organization's data is, D1 included (`JOBS_WHEREVER_THE_DATA_IS`): only its store runs them,
 * a bounded amount per run.
 * Each is a key of the store's storage, `job:<name>`, holding when it is next due, beside the
 * replies and voice notes the store already schedules; the store's side of them is
 * durable-objects/store-job-runner.ts. The cron triggers keep serving the organizations whose
 * data is in D1, one statement for all of them (decision 0053), and once a day wake the stores,
 * so that one whose alarm missed its day catches up.
 */
import { and, asc, eq, gt, gte, isNull, lt, or } from "drizzle-orm";
import { organizationStores } from "../db/schema";
import type { Env } from "../env";
import type { Deps } from "../http/deps";
import { organizationStore, storeAt, type StoreRoute } from "./registry";
import { ALL_DATA_VERSION } from "./store-tables";

export const STORE_JOBS = [
  "capi",
  "retention",
  "transcripts",
  "history",
  "broadcasts",
  "follow_ups",
  "held_deliveries",
  "held_statuses",
  "store_copy",
] as const;
export type StoreJobName = (typeof STORE_JOBS)[number];

/**
 * Jobs the cron has no part in, so the store runs them over D1 too while the organization's data
 * is there (as it transcribes and replies): the rest are the cron's until the data has moved.
 */
export const JOBS_WHEREVER_THE_DATA_IS: ReadonlySet<StoreJobName> = new Set([
  "history",
  "broadcasts",
  "follow_ups",
  "held_deliveries",
  "held_statuses",
  "store_copy",
]);

/** What a store keeps of a job: whose it is, and when it is next due (ms since the epoch). */
export interface StoreJob {
  organizationId: string;
  dueAt: number;
  /** A run holds it until `dueAt` (its lease, should the run never end). */
  running?: boolean;
  /**
   * A time asked for while a run held it (a send that failed again, a broadcast scheduled for
   * tomorrow): the run's end keeps it, should the run not have seen the work.
   */
  asked?: number;
}

export const STORE_JOB_PREFIX = "job:";
export const storeJobKey = (name: StoreJobName) => `${STORE_JOB_PREFIX}${name}`;

export const isStoreJob = (name: string): name is StoreJobName =>
  (STORE_JOBS as readonly string[]).includes(name);

/**
 * Asks the organization's store to run a job at `dueAt` (sooner if it is already due sooner;
 * exactly then with `replace`), through the registry like every call to a store, from the
 * Worker or from the store itself.
 */
export async function scheduleStoreJob(
  env: Env,
  organizationId: string,
  name: StoreJobName,
  dueAt: number,
  replace = false,
) {
  const store = await organizationStore(env, organizationId);
  await store.scheduleJob(organizationId, name, dueAt, replace);
}

/** Registry rows read per statement by the daily wake; the stores of a page are woken together. */
const WAKE_PAGE_SIZE = 50;

/**
 * A store that ran its day longer ago than this may miss today's: the cron wakes it, and it runs
 * its day then unless its alarm's is still to come. Under a day, so that a store the cron woke
 * yesterday at this hour (its alarm failing) is woken again today.
 */
const MISSED_DAY_MS = 22 * 60 * 60_000;

/**
 * The daily cron's part for the organizations whose data is all in their store: only a store
 * that has not run its day since yesterday (its alarm failed, or it never ran one) is called,
 * and runs what it missed (`wake`); the others run theirs from their alarm. Stores in the
 * middle of a move are left to their alarm, which waits for the move to end.
 */
export async function wakeStores({ db, env }: Deps, at: Date) {
  const missedBefore = new Date(+at - MISSED_DAY_MS).toISOString();
  let after = "";
  for (;;) {
    const page = await db
      .select()
      .from(organizationStores)
      .where(
        and(
          eq(organizationStores.state, "store"),
          gte(organizationStores.dataVersion, ALL_DATA_VERSION),
          gt(organizationStores.organizationId, after),
          or(
            isNull(organizationStores.dailyRunAt),
            lt(organizationStores.dailyRunAt, missedBefore),
          ),
        ),
      )
      .orderBy(asc(organizationStores.organizationId))
      .limit(WAKE_PAGE_SIZE);
    await Promise.all(page.map((route) => wakeStore(env, route, at)));
    if (page.length < WAKE_PAGE_SIZE) return;
    after = page[page.length - 1]!.organizationId;
  }
}

/** One store's wake: a failure is logged, and the others still run. */
async function wakeStore(env: Env, route: StoreRoute & { organizationId: string }, at: Date) {
  try {
    await storeAt(env, route).wake(route.organizationId, at);
  } catch (error) {
    console.error("store wake failed", route.organizationId, error);
  }
}
