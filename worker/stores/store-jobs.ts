/**
 * The jobs an organization's store runs from its alarm (contract section 15, "jobs live with
 * the data"): the Conversions API retries, the daily retention, the sweep of voice notes left
 * pending, the import of the WhatsApp Business app's history (contract section 16), the sending
 * of broadcasts and follow-ups (section 17), the statuses a send held, the release of bookings
 * whose payment never came and the away messages owed (section 18), the search indexes'
 * batches (decision 0149), a bounded amount per run. Each is a row `job:<name>` of the store's scheduled work, beside its AI replies and voice
 * notes (durable-objects/scheduler.ts, decision 0099); what each run does is
 * durable-objects/store-job-runner.ts. The daily cron wakes the stores whose alarm missed their
 * day, so that they catch up.
 */
import { and, asc, eq, gt, isNull, lt, or } from "drizzle-orm";
import { organizationStores } from "../db/global-schema";
import type { Env } from "../env";
import type { Deps } from "../http/deps";
import { storeAt, type StoreRoute } from "./registry";

/** Registry rows read per statement by the daily wake; the stores of a page are woken together. */
const WAKE_PAGE_SIZE = 50;

/**
 * A store that ran its day longer ago than this may miss today's: the cron wakes it, and it runs
 * its day then unless its alarm's is still to come. Under a day, so that a store the cron woke
 * yesterday at this hour (its alarm failing) is woken again today.
 */
const MISSED_DAY_MS = 22 * 60 * 60_000;

/**
 * The daily cron's part: only a store that has not run its day since yesterday (its alarm
 * failed, or it never ran one) is called, and runs what it missed (`wake`); the others run
 * theirs from their alarm. An organization the upgrade stop left unmoved is not served.
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
