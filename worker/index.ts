import { createRequestHandler, RouterContextProvider } from "react-router";
import { api } from "./api";
import { benchRoute } from "./bench/routes";
import type { Env } from "./env";
import { cspNonceContext } from "../contracts/csp-nonce";
import { newCspNonce, withSecurityHeaders } from "./http/security-headers";
import { readUnreadBody } from "./http/unread-body";
import { scheduled } from "./scheduled";

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

function route(request: Request, env: Env, ctx: ExecutionContext) {
  const { pathname } = new URL(request.url);
  // The benchmarks' routes (scripts/bench, worker/bench/routes.ts): only with BENCH_ROUTES=1.
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
