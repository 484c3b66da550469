import { createRequestHandler, RouterContextProvider } from "react-router";
import { api } from "./api";
import type { Env } from "./env";
import { cspNonceContext } from "./http/csp-contract";
import { newCspNonce, withSecurityHeaders } from "./http/security-headers";
import { readUnreadBody } from "./http/unread-body";
import { knowledgePromptBench } from "./knowledge/bench-route";
import { scheduled } from "./scheduled";
import { organizationStore } from "./stores/registry";

export { OrganizationHub } from "../durable-objects/organization-hub";

const renderPage = createRequestHandler(
  () => import("virtual:react-router/server-build"),
  import.meta.env.MODE,
);

/** Paths served by the Hono app; everything else is a page of the console. */
function isApiPath(pathname: string) {
  return pathname.startsWith("/api/") || pathname === "/ws" || pathname.startsWith("/webhooks/");
}

/** A page of the console, its inline scripts allowed by a nonce of its own. */
async function renderConsolePage(request: Request) {
  const nonce = newCspNonce();
  const context = new RouterContextProvider();
  context.set(cspNonceContext, nonce);
  return withSecurityHeaders(await renderPage(request, context), nonce, request.url);
}

/**
 * The ceiling (`ok`: answers, touches nothing), the price of one write (`insert`: exactly one
 * D1 insert, a throwaway rate-limit row the cron prunes), so a stored webhook is read against
 * both, an answer's knowledge (`knowledge-prompt`: the search and the prompt, no model), and
 * the seed's way into an organization's store (`store-sql`: its statements in one transaction
 * there, found through the registry).
 */
async function benchRoute(request: Request, env: Env) {
  const { pathname } = new URL(request.url);
  if (pathname === "/__bench/knowledge-prompt") return knowledgePromptBench(request, env);
  if (pathname === "/__bench/store-sql" && request.method === "POST") {
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
  if (pathname === "/__bench/insert") {
    await env.DB.prepare("INSERT INTO rate_limits (key, count, reset_at) VALUES (?, 1, ?)")
      .bind(`bench:${crypto.randomUUID()}`, Date.now())
      .run();
    return new Response("stored");
  }
  return pathname === "/__bench/ok" ? new Response("ok") : new Response(null, { status: 404 });
}

function route(request: Request, env: Env, ctx: ExecutionContext) {
  const { pathname } = new URL(request.url);
  // The benchmarks' references (scripts/bench): only when BENCH_ROUTES=1 is set.
  if (env.BENCH_ROUTES === "1" && pathname.startsWith("/__bench/")) return benchRoute(request, env);
  if (isApiPath(pathname)) return api.fetch(request, env, ctx);
  return renderConsolePage(request);
}

export default {
  async fetch(request, env, ctx) {
    const response = await route(request, env, ctx);
    // Before answering, so that workerd keeps the connection open for the next request.
    await readUnreadBody(request);
    return response;
  },
  scheduled,
} satisfies ExportedHandler<Env>;
