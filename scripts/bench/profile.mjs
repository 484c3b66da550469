// A CPU profile of the Worker's isolate (the Worker and its Durable Objects) through the
// inspector wrangler dev opens, for `--profile`: where a benchmark's CPU goes, by function.
import { writeFileSync } from "node:fs";

const INSPECTOR = "http://127.0.0.1:9229";

/**
 * Starts sampling; the function it answers stops, writes the `.cpuprofile` (open it in
 * Chrome's DevTools) and answers the heaviest functions by self and by total time.
 * @param {string} file
 */
export async function startProfile(file) {
  const [target] = await (await fetch(`${INSPECTOR}/json`)).json();
  // The inspector refuses a socket without an Origin; Node's WebSocket takes headers (undici).
  const socket = new globalThis.WebSocket(
    target.webSocketDebuggerUrl,
    /** @type {any} */ ({
      headers: { Origin: INSPECTOR },
    }),
  );
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = reject;
  });
  let nextId = 1;
  /** @type {Map<number, (result: any) => void>} */
  const pending = new Map();
  socket.onmessage = (event) => {
    const message = JSON.parse(String(event.data));
    pending.get(message.id)?.(message.result);
    pending.delete(message.id);
  };
  /** @param {string} method @param {object} [params] @returns {Promise<any>} */
  const send = (method, params = {}) =>
    new Promise((resolve) => {
      const id = nextId++;
      pending.set(id, resolve);
      socket.send(JSON.stringify({ id, method, params }));
    });
  await send("Profiler.enable");
  await send("Profiler.setSamplingInterval", { interval: 100 });
  await send("Profiler.start");
  return async () => {
    const { profile } = await send("Profiler.stop");
    socket.close();
    writeFileSync(file, JSON.stringify(profile));
    return summary(profile);
  };
}

/** @param {any} profile */
function summary(profile) {
  /** @type {Map<number, any>} */
  const nodes = new Map(profile.nodes.map((/** @type {any} */ n) => [n.id, n]));
  /** @type {Map<number, number>} */
  const parent = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const total = profile.samples.length;
  /** @param {any} frame */
  const name = (frame) =>
    `${frame.functionName || "(anonymous)"} ${frame.url.split("/").slice(-2).join("/")}:${frame.lineNumber + 1}`;
  /** @type {Map<string, number>} */
  const self = new Map();
  /** @type {Map<string, number>} */
  const inclusive = new Map();
  for (const id of profile.samples) {
    const node = nodes.get(id);
    self.set(name(node.callFrame), (self.get(name(node.callFrame)) ?? 0) + 1);
    const seen = new Set();
    for (let at = id; at !== undefined; at = parent.get(at)) {
      const key = name(nodes.get(at).callFrame);
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + 1);
    }
  }
  /** @param {Map<string, number>} map */
  const top = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 40)
      .map(([key, count]) => `${((100 * count) / total).toFixed(1).padStart(5)}%  ${key}`);
  return { samples: total, self: top(self), total: top(inclusive) };
}
