import { exports } from "cloudflare:workers";
import { hc } from "hono/client";
import type { ApiRoutes } from "../../worker/api";

/**
 * The API as the console calls it: typed by the Worker's own routes (`ApiRoutes`) and sent
 * through the Worker's real fetch handler. A renamed field or path fails these tests'
 * typecheck as it fails the console's. `call` (./http) stays for malformed requests.
 */
export const api = (token?: string) =>
  hc<ApiRoutes>("http://localhost/api/v1", {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => exports.default.fetch(input, init),
    headers: token ? { Authorization: `Bearer ${token}` } : {},
  });
