import { createRequestHandler } from "react-router";
import { api } from "./api";
import type { Env } from "./env";
import { withSecurityHeaders } from "./http/security-headers";
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

export default {
  async fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    // The benchmarks' ceiling (scripts/bench): only when BENCH_ROUTES=1 is set.
    if (pathname === "/__bench/ok" && env.BENCH_ROUTES === "1") return new Response("ok");
    if (isApiPath(pathname)) return api.fetch(request, env, ctx);
    return withSecurityHeaders(await renderPage(request));
  },
  scheduled,
} satisfies ExportedHandler<Env>;
