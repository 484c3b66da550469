/**
 * The cron triggers of wrangler.toml: the daily retention run, and every five minutes the
 * Conversions API retries that are due, the voice notes whose transcription never started and
 * the pruning of rate-limit windows that ended. The jobs serve the organizations whose data is
 * in D1; an organization whose data is in its store runs them on the store's alarm, and the
 * daily run wakes only the stores that missed their day, so that they catch up.
 */
import { resumeStuckTranscripts } from "./ai/transcribe";
import type { Env } from "./env";
import { depsForBackground } from "./http/deps";
import { pruneExpiredHits } from "./http/rate-limit";
import { runRetention } from "./retention/service";
import { removeExpiredD1Copies } from "./stores/d1-copies";
import { wakeStores } from "./stores/store-jobs";
import { retryDueConversions } from "./tracking/capi-service";

export const RETENTION_CRON = "17 3 * * *";
export const CONVERSIONS_RETRY_CRON = "*/5 * * * *";

export const scheduled: ExportedHandlerScheduledHandler<Env> = (controller, env, ctx) => {
  const deps = depsForBackground(env, (work) => ctx.waitUntil(work));
  const now = new Date(controller.scheduledTime);
  if (controller.cron === RETENTION_CRON) {
    ctx.waitUntil(runRetention(deps, now));
    ctx.waitUntil(wakeStores(deps, now));
    ctx.waitUntil(removeExpiredD1Copies(deps, now));
  } else {
    // Organizations in D1 only: in a store, a failed send asks the store's alarm for its retry.
    ctx.waitUntil(retryDueConversions(deps, now));
    // Organizations in D1 only: a store's voice notes are scheduled by the store's own call
    // that stored them, and transcribed by its alarm.
    ctx.waitUntil(resumeStuckTranscripts(deps, now));
    ctx.waitUntil(pruneExpiredHits(deps.db, now.getTime()));
  }
};
