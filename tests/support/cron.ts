import {
  createExecutionContext,
  createScheduledController,
  waitOnExecutionContext,
} from "cloudflare:test";
import { env } from "cloudflare:workers";
import worker from "./test-worker";

/** Runs one cron trigger of wrangler.toml as Cloudflare would, and waits for all it started. */
export async function runCron(cron: string, scheduledTime = Date.now()) {
  const ctx = createExecutionContext();
  await worker.scheduled(createScheduledController({ scheduledTime, cron }), env, ctx);
  await waitOnExecutionContext(ctx);
}
