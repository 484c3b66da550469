/**
 * The bench's routes (scripts/bench), served only with `BENCH_ROUTES=1`:
 * - `ok`: the ceiling, answers and touches nothing;
 * - `insert`: the price of one write, exactly one D1 insert (a throwaway rate-limit row the
 *   cron prunes), so a stored webhook is read against both;
 * - `durable-floor`: the floor of anything an organization's store does, one call to its store
 *   that commits one row there (issue #49: single-message deliveries are read against it);
 * - `round-trips`: the D1 and store trips counted since the last `DELETE`, in the Worker and in
 *   the organization's store, and the rows its SQLite changed (worker/bench/deployment.ts);
 * - `knowledge-prompt`: an answer's knowledge search and prompt, no model;
 * - `store-sql`: the seed's way into an organization's store, its statements in one transaction;
 * - `search-index`: the store's `search` job run until no row waits (after a seed);
 * - `store-job`: asks an organization's store to run one of its jobs now (`?job=`), as its own
 *   writes would ask; the store's alarm runs it (the agenda benchmark's reminder run).
 */
import type { Env } from "../env";
import { organizationStore } from "../stores/registry";
import { isStoreJob } from "../stores/contract";
import { globalDb } from "../db/client";
import { resetRoundTrips, roundTrips } from "./deployment";

const organizationOf = (url: URL) => url.searchParams.get("organization") ?? "";

async function roundTripsRoute(request: Request, env: Env, organizationId: string) {
  // Read before this route's own trips (the registry, the call to the store) can count.
  const edge = roundTrips();
  const store = await organizationStore(env, organizationId);
  const reset = request.method === "DELETE";
  const inStore = await store.benchRoundTrips(organizationId, reset);
  if (!inStore) return new Response("refused", { status: 403 });
  if (reset) {
    resetRoundTrips();
    return new Response(null, { status: 204 });
  }
  // One isolate may run both the Worker and the store (locally it does): counted once then.
  const shared = inStore.isolate === edge.isolate;
  return Response.json({
    d1: shared ? edge.d1 : edge.d1 + inStore.d1,
    store_calls: shared ? edge.store : edge.store + inStore.store,
    rows_changed: inStore.rowsChanged,
  });
}

export async function benchRoute(request: Request, env: Env) {
  const url = new URL(request.url);
  switch (url.pathname) {
    case "/__bench/ok":
      return new Response("ok");
    case "/__bench/insert":
      await globalDb(env)
        .$client.prepare("INSERT INTO rate_limits (key, count, reset_at) VALUES (?, 1, ?)")
        .bind(`bench:${crypto.randomUUID()}`, Date.now())
        .run();
      return new Response("stored");
    case "/__bench/durable-floor": {
      const organizationId = organizationOf(url);
      const store = await organizationStore(env, organizationId);
      const stored = await store.benchFloor(organizationId);
      return stored ? new Response("stored") : new Response("refused", { status: 403 });
    }
    case "/__bench/round-trips":
      return roundTripsRoute(request, env, organizationOf(url));
    case "/__bench/knowledge-prompt":
      return knowledgePromptBench(request, env);
    case "/__bench/store-sql": {
      if (request.method !== "POST") break;
      const { organization_id: organizationId, statements } = await request.json<{
        organization_id: string;
        statements: { sql: string; params?: unknown[] }[];
      }>();
      const store = await organizationStore(env, organizationId);
      const results = await store.benchSql(
        organizationId,
        statements.map((s) => ({ sql: s.sql, params: s.params ?? [] })),
      );
      return results ? Response.json(results) : new Response("refused", { status: 403 });
    }
    case "/__bench/search-index": {
      if (request.method !== "POST") break;
      const organizationId = organizationOf(url);
      const store = await organizationStore(env, organizationId);
      const runs = await store.benchIndexSearch(organizationId);
      return runs === null ? new Response("refused", { status: 403 }) : Response.json({ runs });
    }
    case "/__bench/store-job": {
      const job = url.searchParams.get("job") ?? "";
      if (request.method !== "POST" || !isStoreJob(job)) break;
      const organizationId = organizationOf(url);
      const store = await organizationStore(env, organizationId);
      await store.scheduleJob(organizationId, job, Date.now());
      return new Response(null, { status: 204 });
    }
  }
  return new Response(null, { status: 404 });
}

/**
 * `GET /__bench/knowledge-prompt?organization=<id>&agent=<id>&q=<customer text>`: the knowledge
 * search and the prompt an answer would make, in the organization's store
 * (durable-objects/knowledge/bench-prompt.ts).
 */
async function knowledgePromptBench(request: Request, env: Env) {
  const url = new URL(request.url);
  const organizationId = url.searchParams.get("organization") ?? "";
  const store = await organizationStore(env, organizationId);
  const prompt = await store.benchKnowledgePrompt(
    organizationId,
    url.searchParams.get("agent") ?? "",
    url.searchParams.get("q") ?? "",
  );
  return prompt ? Response.json(prompt) : new Response("agent not found", { status: 404 });
}
