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

/**
 * A typed call's status and body. A refusal's body is the error envelope, which the routes'
 * types do not list, so its `error`, `message` and `details` are there to read too.
 */
export async function answer<T>(
  call: Promise<{ status: number; headers: Headers; json(): Promise<T> }>,
) {
  const response = await call;
  const body = (await response.json()) as T & {
    error?: string;
    message?: string;
    details: { path: string; message: string }[];
  };
  return { status: response.status, headers: response.headers, body };
}

/**
 * The person's export as the console downloads it: the route streams a file, so its type
 * names no body; the body is read as JSON.
 */
export async function personalExport(token: string) {
  const response = await api(token).profiles.me.export.$get();
  const body = (await response.json()) as { data: any; error?: string };
  return { status: response.status, headers: response.headers, body };
}
