// Section 15's round trips, counted, and a simulated deployment (issue #49).
//
// Counted: the server runs with BENCH_ROUTES=1, under which every D1 statement or batch and
// every call to a store is counted in its isolate (worker/bench/deployment.ts). For each
// console request below the bench resets the counts, makes the request alone, and reads them
// back with the rows the store's SQLite changed (`/__bench/round-trips`).
//
// Simulated: the server is started again with BENCH_D1_LATENCY_MS=40 and
// BENCH_STORE_LATENCY_MS=10, under which each D1 trip and each call to a store waits that long
// before it is made (a deployment's D1 trip costs tens of milliseconds; a call to a store,
// a few). Each request is then made one at a time and its p50 is read against its budget.

import { performance } from "node:perf_hooks";

/** What a deployment's trips cost, in ms, as the issue sets them. */
export const SIMULATED = { d1Ms: 40, storeMs: 10 };

/**
 * The console requests measured, on one conversation of the organization.
 * @param {string} conversationId
 */
const requests = (conversationId) => [
  {
    name: "console text reply",
    path: "/conversations/messages",
    method: "POST",
    body: () => ({ conversation_id: conversationId, content: `Bench ${Math.random()}` }),
  },
  {
    name: "status change",
    path: `/conversations/${conversationId}`,
    method: "PATCH",
    body: (/** @type {number} */ i) => ({ status: i % 2 ? "open" : "closed" }),
  },
  {
    name: "note",
    path: `/conversations/${conversationId}/notes`,
    method: "POST",
    body: () => ({ content: "Nota del bench" }),
  },
  { name: "inbox page", path: "/conversations?limit=20", method: "GET", body: () => undefined },
  {
    // "Sugerir respuesta": the store reads the history and knowledge, checks the budget, asks
    // the model (the bench's fake) and keeps the draft, as an AI answer does. Counted only:
    // model calls have a tighter write window (10 a minute) than the simulated run's samples.
    name: "AI answer (draft)",
    path: `/conversations/${conversationId}/draft`,
    method: "POST",
    body: () => undefined,
    countedOnly: true,
  },
];

/**
 * @param {{ base: string, token: string, organizationId: string, conversationId: string,
 *   samples: number, counted: boolean }} options
 */
export async function roundTripsBench({
  base,
  token,
  organizationId,
  conversationId,
  samples,
  counted,
}) {
  const trips = `${base}/__bench/round-trips?organization=${organizationId}`;
  /** @type {Record<string, any>} */
  const out = {};
  for (const request of requests(conversationId)) {
    if (request.countedOnly && !counted) continue;
    /** @type {number[]} */
    const times = [];
    let counts = null;
    let failed = 0;
    for (let i = 0; i < samples; i++) {
      if (counted && i === samples - 1) await fetch(trips, { method: "DELETE" });
      const body = request.body(i);
      const started = performance.now();
      const res = await fetch(`${base}/api/v1${request.path}`, {
        method: request.method,
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      await res.arrayBuffer();
      times.push(performance.now() - started);
      if (!res.ok) failed += 1;
      // Work the request left for after its answer (waitUntil) counts too.
      if (counted && i === samples - 1) {
        await new Promise((resolve) => setTimeout(resolve, 300));
        counts = await (await fetch(trips)).json();
      }
    }
    times.sort((a, b) => a - b);
    out[request.name] = { p50: times[Math.floor(times.length / 2)], failed, counts };
  }
  return out;
}
