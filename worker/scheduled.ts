/**
 * The cron triggers of wrangler.toml: the daily retention run, and every five minutes the
 * Conversions API retries that are due, the voice notes whose transcription never started and
 * the pruning of rate-limit windows that ended.
 */
import { resumeStuckTranscripts } from "./ai/transcribe";
import type { Env } from "./env";
import { depsForBackground } from "./http/deps";
import { pruneExpiredHits } from "./http/rate-limit";
import { runRetention } from "./retention/service";
import { retryDueConversions } from "./tracking/capi-service";

export const RETENTION_CRON = "17 3 * * *";
export const CONVERSIONS_RETRY_CRON = "*/5 * * * *";

export const scheduled: ExportedHandlerScheduledHandler<Env> = (controller, env, ctx) => {
  const deps = depsForBackground(env, (work) => ctx.waitUntil(work));
  const now = new Date(controller.scheduledTime);
  if (controller.cron === RETENTION_CRON) ctx.waitUntil(runRetention(deps, now));
  else {
    ctx.waitUntil(retryDueConversions(deps, now));
    ctx.waitUntil(resumeStuckTranscripts(deps, now));
    ctx.waitUntil(pruneExpiredHits(deps.db, now.getTime()));
  }
};
