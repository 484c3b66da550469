import { exports } from "cloudflare:workers";

export interface ApiResponse<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

interface CallOptions {
  token?: string;
  body?: unknown;
  /** A raw body sent as it is (for malformed-JSON and content-type tests). */
  rawBody?: string;
  headers?: Record<string, string>;
}

/** Calls the Worker as a browser would, through its real fetch handler. */
export async function call<T = any>(
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse<T>> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers["Content-Type"] ??= "application/json";
  }
  const response = await exports.default.fetch(`http://localhost${path}`, {
    method,
    headers,
    redirect: "manual",
    body,
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON: keep the text.
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}
