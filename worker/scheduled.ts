/**
 * The cron triggers of wrangler.toml. Every organization's jobs run on its store's alarm
 * (worker/stores/store-jobs.ts): once a day the cron wakes only the stores that missed their
 * day, so that they catch up; every five minutes it prunes the rate-limit windows that ended.
 */
import type { Env } from "./env";
import { depsForBackground } from "./http/deps";
import { pruneExpiredHits } from "./http/rate-limit";
import { wakeStores } from "./stores/store-jobs";

export const RETENTION_CRON = "17 3 * * *";
export const PRUNE_CRON = "*/5 * * * *";

export const scheduled: ExportedHandlerScheduledHandler<Env> = (controller, env, ctx) => {
  const deps = depsForBackground(env, (work) => ctx.waitUntil(work));
  const now = new Date(controller.scheduledTime);
  if (controller.cron === RETENTION_CRON) ctx.waitUntil(wakeStores(deps, now));
  else ctx.waitUntil(pruneExpiredHits(deps.db, now.getTime()));
};
