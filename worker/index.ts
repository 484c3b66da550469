import { createRequestHandler } from "react-router";
import { api } from "./api";
import type { Env } from "./env";
import { scheduled } from "./retention/service";

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
  fetch(request, env, ctx) {
    const { pathname } = new URL(request.url);
    if (isApiPath(pathname)) return api.fetch(request, env, ctx);
    return renderPage(request);
  },
  scheduled,
} satisfies ExportedHandler<Env>;
