// The live customer deliveries the history and broadcast benchmarks send beside their own work
// (scripts/bench/load.mjs in its paced mode), and the latency figures they read from them.
import { spawn } from "node:child_process";
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { sleep } from "./server.mjs";

/** @param {number[]} values p50, p95, p99 and max of latencies (ms), as load.mjs sums them up */
export function latencyOf(values) {
  const sorted = [...values].sort((a, b) => a - b);
  /** @param {number} p */
  const at = (p) =>
    sorted.length
      ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]
      : null;
  return { n: sorted.length, p50: at(50), p95: at(95), p99: at(99), max: sorted.at(-1) ?? null };
}

/**
 * The load generator's paced mode (scripts/bench/load.mjs), in its own process so that its
 * timing is not held up by this one; `stop` closes its stdin. Its answer goes to a file, not a
 * pipe: load.mjs exits right after writing it, and a pipe loses what did not fit in its buffer
 * (a send's samples are a few hundred KB, the history benchmark's a few KB).
 * @param {Record<string, unknown>} spec
 */
export function pacedLive(spec) {
  const dir = mkdtempSync(join(tmpdir(), "bench-live-"));
  const file = join(dir, "result.json");
  const out = openSync(file, "w");
  const child = spawn(
    process.execPath,
    ["scripts/bench/load.mjs", JSON.stringify({ mode: "paced", concurrency: 64, ...spec })],
    { stdio: ["pipe", out, "inherit"] },
  );
  closeSync(out);
  /** @type {Promise<any>} */
  const result = new Promise((resolve, reject) =>
    child.on("exit", (code) => {
      const text = readFileSync(file, "utf8");
      rmSync(dir, { recursive: true, force: true });
      if (code === 0) resolve(JSON.parse(text));
      else reject(new Error(`load exited ${code}`));
    }),
  );
  return {
    result,
    stop() {
      child.stdin?.end();
      return result;
    },
  };
}

/**
 * Live deliveries with nothing else going on, for `durationMs`, and the server's CPU they took.
 * @param {Record<string, unknown>} live @param {number} durationMs @param {() => number} cpu
 */
export async function liveAlone(live, durationMs, cpu) {
  await sleep(300);
  const before = cpu();
  const result = await pacedLive({ ...live, durationMs, keepSamples: true }).result;
  await sleep(500); // work after the answer counts too
  return { ...result, cpuMs: cpu() - before };
}

/** @param {{ at: number, ms: number }[]} samples @param {number} from @param {number} to epoch ms */
export const sentBetween = (samples, from, to) =>
  latencyOf(samples.filter((x) => x.at >= from && x.at < to).map((x) => x.ms));

/**
 * The live deliveries alone before and after the benchmark's own work, pooled (the machine's
 * other work drifts: pooled, it falls on the baseline from both sides), with each side's own
 * latency and CPU a delivery.
 * @param {any} before @param {any} after `liveAlone`'s answers
 */
export function pooledBaseline(before, after) {
  const deliveries = before.deliveries + after.deliveries;
  return {
    deliveries,
    ok: before.ok + after.ok,
    failed: before.failed + after.failed,
    latency: latencyOf([...before.samples, ...after.samples].map((x) => x.ms)),
    before: before.latency,
    after: after.latency,
    cpuMsPerDelivery: (before.cpuMs + after.cpuMs) / deliveries,
    cpuMsPerDeliveryBefore: before.cpuMs / before.deliveries,
    cpuMsPerDeliveryAfter: after.cpuMs / after.deliveries,
  };
}
