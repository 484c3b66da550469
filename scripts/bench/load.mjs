// The load generator: a separate process on loopback, so its CPU is never counted as the
// server's. node scripts/bench/load.mjs '<json spec>' prints one JSON result on stdout.
// Modes: "rate" (closed loop at a concurrency, bounded in time), "latency" (one request at a
// time over a list of paths), "realtime" (sockets listening while deliveries arrive at a fixed
// pace), "paced" (single deliveries at a fixed pace, each timed, until told to stop).
// Kinds of request in "rate": a path's GET (`path`, `headers`), a signed webhook delivery
// ("webhook"), a booking of the next free slot ("booking") and an encrypted call to the booking
// Flow's endpoint ("flow").
import { createHmac } from "node:crypto";
import http from "node:http";
import { performance } from "node:perf_hooks";
import {
  delivery,
  encryptFlowRequest,
  inboundMessage,
} from "../../tests/fakes/whatsapp-payloads.mjs";

/* global WebSocket -- Node 22 has one */
/** @type {any} */
const spec = JSON.parse(process.argv[2] ?? "{}");
const base = new URL(spec.base);
const agent = new http.Agent({ keepAlive: true, maxSockets: spec.concurrency ?? 1 });

/**
 * @param {{ method?: string, path: string, headers?: Record<string, string>, body?: string }} options
 * @returns {Promise<{ status: number, ms: number, body?: string, error?: Error }>}
 */
function request({ method = "GET", path, headers = {}, body }) {
  return new Promise((resolve) => {
    const started = performance.now();
    const req = http.request(
      {
        agent,
        host: base.hostname,
        port: base.port,
        method,
        path,
        headers: body ? { ...headers, "content-length": Buffer.byteLength(body) } : headers,
      },
      (res) => {
        /** @type {Buffer[]} */
        const chunks = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            ms: performance.now() - started,
            body: spec.keepBodies ? Buffer.concat(chunks).toString() : undefined,
          }),
        );
      },
    );
    req.on("error", (error) => resolve({ status: 0, ms: performance.now() - started, error }));
    if (body) req.write(body);
    req.end();
  });
}

/** @param {number[]} values @param {number} p */
function percentile(values, p) {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
/** @param {number[]} values */
const summary = (values) => ({
  n: values.length,
  p50: percentile(values, 50),
  p95: percentile(values, 95),
  p99: percentile(values, 99),
  max: values.length ? Math.max(...values) : null,
});

// ── Signed webhook deliveries ───────────────────────────────────────────────
let wamidSeq = 0;
const runId = Date.now().toString(36);
/**
 * @param {{ customers: number, customerOffset?: number, perDelivery: number,
 *   text?: (id: string) => string }} options `customerOffset`: where this run's customers start,
 *   so that a second run of a benchmark meets new customers too, as the first did.
 */
function webhookBody({ customers, customerOffset = 0, perDelivery, text }) {
  const changes = [];
  const wamids = [];
  for (let i = 0; i < perDelivery; i++) {
    const customer = customerOffset + Math.floor(Math.random() * customers);
    const id = `wamid.BENCH${runId}.${(wamidSeq++).toString(36)}`;
    wamids.push(id);
    changes.push(
      inboundMessage({
        phoneNumberId: spec.phoneNumberId,
        from: String(34700000000 + customer),
        // Since 2026 every delivery names the customer by BSUID beside the phone.
        userId: `ES.${13490000000000 + customer}`,
        name: `Cliente ${customer}`,
        id,
        text: text ? text(id) : `Hola, quería información ${id}`,
      }),
    );
  }
  // One change per message, as Meta groups a burst (entry[].changes[] in one delivery).
  const payload = delivery(...changes);
  return { body: JSON.stringify(payload), wamids };
}
/** @param {string} body */
const sign = (body) => `sha256=${createHmac("sha256", spec.appSecret).update(body).digest("hex")}`;

// ── Bookings, each of its own slot ──────────────────────────────────────────
let slotsTaken = 0;
/**
 * `POST /api/v1/bookings` of the next of `slots` slots, `slotMs` apart from `firstSlot` (epoch
 * ms): each one free, so that none is refused as taken unless the product refuses it. Null once
 * every slot was asked for.
 */
function bookingRequest() {
  if (slotsTaken >= spec.slots) return null;
  const start = new Date(spec.firstSlot + slotsTaken++ * spec.slotMs).toISOString();
  return {
    method: "POST",
    path: "/api/v1/bookings",
    headers: { "content-type": "application/json", authorization: `Bearer ${spec.token}` },
    body: JSON.stringify({
      service_id: spec.serviceId,
      conversation_id: spec.conversationId,
      start,
    }),
  };
}

/**
 * WhatsApp's call to the booking Flow's endpoint: `payload` encrypted for the registered key as
 * Meta does (a fresh AES-GCM key and IV each call, the key wrapped with RSA-OAEP) and signed.
 */
async function flowRequest() {
  const { body } = await encryptFlowRequest(spec.publicKey, spec.payload);
  const raw = JSON.stringify(body);
  return {
    method: "POST",
    path: "/webhooks/flows",
    headers: { "content-type": "application/json", "x-hub-signature-256": sign(raw) },
    body: raw,
  };
}

/** @returns {Promise<any>} the next request, or null when there is none left to make */
async function makeRequest() {
  if (spec.kind === "booking") return bookingRequest();
  if (spec.kind === "flow") return flowRequest();
  if (spec.kind === "webhook") {
    const { body, wamids } = webhookBody(spec);
    return {
      method: "POST",
      path: "/webhooks/whatsapp",
      headers: { "content-type": "application/json", "x-hub-signature-256": sign(body) },
      body,
      wamids,
    };
  }
  return { path: spec.path, headers: spec.headers ?? {} };
}

async function rate() {
  /** @type {number[]} */
  const latencies = [];
  let ok = 0;
  let failed = 0;
  let sentMessages = 0;
  let duplicatesSent = 0;
  /** @type {any[]} */
  const sentBodies = [];
  /** @type {Record<number, number>} */
  const statuses = {};
  const deadline = performance.now() + spec.durationMs;
  const started = performance.now();
  async function worker() {
    while (performance.now() < deadline) {
      let req;
      // A share of deliveries repeats an earlier one byte for byte (Meta's retries).
      if (spec.duplicateRate && sentBodies.length > 0 && Math.random() < spec.duplicateRate) {
        req = sentBodies[Math.floor(Math.random() * sentBodies.length)];
        duplicatesSent += req.wamids.length;
      } else {
        req = await makeRequest();
        if (req === null) break;
        if (req.wamids) {
          sentMessages += req.wamids.length;
          if (spec.duplicateRate && sentBodies.length < 1000) sentBodies.push(req);
        }
      }
      const res = await request(req);
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      if (res.status >= 200 && res.status < 300) {
        ok++;
        latencies.push(res.ms);
      } else failed++;
    }
  }
  await Promise.all(Array.from({ length: spec.concurrency }, worker));
  const elapsedMs = performance.now() - started;
  return {
    ok,
    failed,
    statuses,
    elapsedMs,
    rate: (ok / elapsedMs) * 1000,
    latency: summary(latencies),
    sentMessages,
    duplicatesSent,
    duplicateWamids: [...new Set(sentBodies.flatMap((r) => r.wamids))].length,
  };
}

async function latency() {
  /** @type {Record<string, unknown>} */
  const results = {};
  for (const { name, path } of spec.paths) {
    const headers = spec.headers ?? {};
    for (let i = 0; i < (spec.warmup ?? 3); i++) await request({ path, headers });
    const times = [];
    /** @type {Record<number, number>} */
    const statuses = {};
    for (let i = 0; i < spec.samples; i++) {
      const res = await request({ path, headers });
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
      times.push(res.ms);
    }
    results[name] = { path, statuses, times, ...summary(times) };
  }
  return results;
}

async function realtime() {
  const sockets = [];
  const sentAt = new Map();
  /** @type {number[]} */
  const latencies = [];
  let received = 0;
  for (let i = 0; i < spec.sockets; i++) {
    const ws = new WebSocket(`ws://${base.host}/ws?token=${encodeURIComponent(spec.token)}`);
    await new Promise((resolve, reject) => {
      ws.onopen = resolve;
      ws.onerror = () => reject(new Error(`socket ${i} failed to open`));
    });
    ws.onmessage = (event) => {
      const now = performance.now();
      const data = JSON.parse(String(event.data));
      if (data.type !== "new_message") return;
      const marker = /RT:(\S+)/.exec(data.data?.message?.content ?? "")?.[1];
      const at = marker && sentAt.get(marker);
      if (at === undefined) return;
      received++;
      latencies.push(now - at);
    };
    sockets.push(ws);
  }
  const interval = 1000 / spec.deliveriesPerSecond;
  const total = Math.round((spec.durationMs / 1000) * spec.deliveriesPerSecond);
  const started = performance.now();
  const pending = [];
  /** @type {Record<number, number>} */
  const statuses = {};
  for (let n = 0; n < total; n++) {
    const due = started + n * interval;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const marker = `${runId}-${n}`;
    const { body } = webhookBody({
      ...spec,
      perDelivery: 1,
      text: () => `Tiempo real RT:${marker}`,
    });
    sentAt.set(marker, performance.now());
    pending.push(
      request({
        method: "POST",
        path: "/webhooks/whatsapp",
        headers: { "content-type": "application/json", "x-hub-signature-256": sign(body) },
        body,
      }).then((res) => (statuses[res.status] = (statuses[res.status] ?? 0) + 1)),
    );
  }
  await Promise.all(pending);
  await new Promise((r) => setTimeout(r, 1000));
  const achievedRate = (total / (performance.now() - started - 1000)) * 1000;
  for (const ws of sockets) ws.close();
  return {
    deliveries: total,
    achievedRate,
    statuses,
    expected: total * spec.sockets,
    received,
    latency: summary(latencies),
  };
}

/**
 * Single-message deliveries at a fixed pace, each timed from its own send whatever the others
 * are doing (an open loop: a stalled server is not given time back, so the waits it causes are
 * counted), for `durationMs` or, with `untilStdinEnds`, until the parent closes stdin: how long
 * a live customer message takes while something else (the history import) runs. `keepSamples`:
 * each delivery's send time (epoch ms) and latency too, for the parent to split by what it did.
 */
async function paced() {
  let stopped = false;
  if (spec.untilStdinEnds) {
    process.stdin.on("end", () => (stopped = true));
    process.stdin.resume();
  }
  /** @type {number[]} */
  const latencies = [];
  /** @type {{ at: number, ms: number }[]} */
  const samples = [];
  /** @type {Record<number, number>} */
  const statuses = {};
  const pending = [];
  const interval = 1000 / spec.deliveriesPerSecond;
  const started = performance.now();
  const deadline = started + spec.durationMs;
  for (let n = 0; !stopped && performance.now() < deadline; n++) {
    const wait = started + n * interval - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    if (stopped) break;
    const { body } = webhookBody({ ...spec, perDelivery: 1 });
    const at = Date.now();
    pending.push(
      request({
        method: "POST",
        path: "/webhooks/whatsapp",
        headers: { "content-type": "application/json", "x-hub-signature-256": sign(body) },
        body,
      }).then((res) => {
        statuses[res.status] = (statuses[res.status] ?? 0) + 1;
        if (res.status < 200 || res.status >= 300) return;
        latencies.push(res.ms);
        if (spec.keepSamples) samples.push({ at, ms: res.ms });
      }),
    );
  }
  const sendingMs = performance.now() - started;
  await Promise.all(pending);
  return {
    deliveries: pending.length,
    ok: latencies.length,
    failed: pending.length - latencies.length,
    statuses,
    achievedRate: (pending.length / sendingMs) * 1000,
    elapsedMs: performance.now() - started,
    latency: summary(latencies),
    ...(spec.keepSamples && { samples }),
  };
}

/** @type {Record<string, () => Promise<unknown>>} */
const modes = { rate, latency, realtime, paced };
const result = await modes[spec.mode]?.();
agent.destroy();
process.stdout.write(JSON.stringify(result));
process.exit(0);
