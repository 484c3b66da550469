/**
 * The console's one API client: base /api/v1, bearer token from localStorage, 30 s
 * time-out, `data` unwrapped, and the error catalogue of the spec for messages.
 */
import { hc, type ClientResponse } from "hono/client";
import type { ApiRoutes } from "../../worker/api";

export const TOKEN_KEY = "auth_token";
const BASE = "/api/v1";
const TIMEOUT_MS = 30_000;
/** Files (up to 16 MB) may take longer to upload than a JSON call. */
const UPLOAD_TIMEOUT_MS = 120_000;

export interface ErrorDetail {
  path: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly code: string,
    readonly details: ErrorDetail[] = [],
    /** What a refusal offers beside its envelope (the free `slots` of a 409 `slot_taken`). */
    readonly extra: Record<string, unknown> = {},
  ) {
    super(message);
  }
}

export const tokenStore = {
  get: () => (typeof localStorage === "undefined" ? null : localStorage.getItem(TOKEN_KEY)),
  set: (token: string) => localStorage.setItem(TOKEN_KEY, token),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

/**
 * Called with the refusal's message on any 401 that ends the session the console holds (the
 * auth provider says so and signs the user out): not signing in, nor signing out, whose 401
 * ends nothing more.
 */
let onUnauthorized: ((message: string) => void) | null = null;
export function setUnauthorizedHandler(handler: ((message: string) => void) | null) {
  onUnauthorized = handler;
}

const CREDENTIAL_PATHS = ["/auth/login", "/auth/register"];
const SIGN_OUT_PATH = "/auth/logout";

/** The message shown for an HTTP error: the server's, else the catalogue's default. */
export function catalogueMessage(status: number, path: string, body: unknown): string {
  const server = body as { message?: unknown; error?: unknown } | null;
  if (typeof server?.message === "string" && server.message) return server.message;
  switch (status) {
    case 401:
      return path === "/auth/login"
        ? "Credenciales incorrectas. Verifica tu email y contraseña."
        : "Tu sesión ha expirado. Por favor, inicia sesión nuevamente.";
    case 404:
      return "Usuario no encontrado. Verifica tu email o regístrate.";
    case 422:
      return "Datos inválidos. Verifica la información ingresada.";
    case 500:
      return "Error interno del servidor. Intenta nuevamente más tarde.";
    default:
      if (typeof server?.error === "string" && server.error) return server.error;
      return `Error ${status}: ${typeof server === "string" ? server : "Respuesta inesperada"}`;
  }
}

/** The path a URL calls under /api/v1 (the catalogue words some answers by path). */
const apiPath = (url: string) => new URL(url, "http://console").pathname.slice(BASE.length);

/**
 * Every call's fetch: the token, a time-out, and anything but a 2xx thrown as an ApiError with
 * the catalogue's Spanish message. A FormData body (a file upload) is sent as multipart (the
 * browser sets its boundary) with a longer time-out.
 */
async function apiFetch(input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> {
  const url = input instanceof Request ? input.url : String(input);
  const headers = new Headers(init.headers);
  headers.set("Accept", "application/json");
  const token = tokenStore.get();
  if (token) headers.set("Authorization", `Bearer ${token}`);
  const multipart = init.body instanceof FormData;

  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      headers,
      signal: AbortSignal.timeout(multipart ? UPLOAD_TIMEOUT_MS : TIMEOUT_MS),
    });
  } catch (error) {
    if (error instanceof DOMException && error.name === "TimeoutError") {
      throw new ApiError("La solicitud tardó demasiado. Intenta nuevamente.", 0, "timeout");
    }
    const message = error instanceof Error && error.message ? error.message : "";
    throw new ApiError(message || "Ha ocurrido un error desconocido", 0, "network_error");
  }
  if (!response.ok) {
    const path = apiPath(url);
    const payload: unknown = await response.json().catch(() => null);
    if (response.status === 401 && !CREDENTIAL_PATHS.includes(path) && path !== SIGN_OUT_PATH) {
      onUnauthorized?.(catalogueMessage(response.status, path, payload));
    }
    const {
      error,
      details,
      message: _message,
      ...extra
    } = (payload ?? {}) as {
      error?: string;
      details?: ErrorDetail[];
      message?: unknown;
    };
    throw new ApiError(
      catalogueMessage(response.status, path, payload),
      response.status,
      error ?? "http_error",
      details ?? [],
      extra,
    );
  }
  return response;
}

/**
 * The API, typed by the Worker's own routes (`ApiRoutes`): paths, params, query, bodies and
 * answers come from the handlers, so a renamed field fails the typecheck, not a person.
 * `client.agents[":id"].$get({ param: { id } })`; wrap a call in `data()` to get its answer.
 */
export const client = encodingParams(hc<ApiRoutes>(BASE, { fetch: apiFetch }));

type CallArgs = { param?: Record<string, string> } | undefined;

/**
 * Hono's client puts path params into the URL as they are: an id read from the address bar
 * ("../agents") could point a call at another path. Every `$get`, `$post`... (and `$url`) gets
 * its params encoded here, once for all callers.
 */
function encodingParams<T extends object>(node: T): T {
  return new Proxy(node, {
    get(target, key) {
      const value: unknown = Reflect.get(target, key);
      if (typeof value !== "function") return value;
      if (typeof key === "string" && key.startsWith("$")) {
        const call = value as (args: CallArgs, ...rest: unknown[]) => unknown;
        return (args: CallArgs, ...rest: unknown[]) =>
          call(
            args?.param
              ? {
                  ...args,
                  param: Object.fromEntries(
                    Object.entries(args.param).map(([k, v]) => [k, encodeURIComponent(v)]),
                  ),
                }
              : args,
            ...rest,
          );
      }
      return encodingParams(value);
    },
  });
}

/** What a call answers in its envelope's `data`. */
type DataOf<R> = R extends { json(): Promise<infer Body> }
  ? Body extends { data: infer D }
    ? D
    : never
  : never;

/** The `data` of a call's answer (errors were already thrown by `apiFetch`). */
export async function data<R extends ClientResponse<unknown>>(
  call: Promise<R>,
): Promise<DataOf<R>> {
  const body = (await (await call).json().catch(() => null)) as { data?: DataOf<R> } | null;
  // A 2xx whose body was cut off or is not the envelope is an error, never `undefined`
  // handed to a screen as if it were the answer.
  if (!body || body.data === undefined) {
    throw new ApiError(
      "La respuesta del servidor llegó incompleta. Intenta nuevamente.",
      0,
      "bad_response",
    );
  }
  return body.data;
}

/** A binary answer (a message's file), with the token; errors as every other call. */
export async function blob(call: Promise<ClientResponse<unknown>>): Promise<Blob> {
  return (await call).blob();
}

/** A readable message for anything thrown (API or not). */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return "Ha ocurrido un error desconocido";
}
