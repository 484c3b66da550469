/**
 * The console's one API client: base /api/v1, bearer token from localStorage, 30 s
 * time-out, `data` unwrapped, and the error catalogue of the spec for messages.
 */
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
  ) {
    super(message);
  }
}

export const tokenStore = {
  get: () => (typeof localStorage === "undefined" ? null : localStorage.getItem(TOKEN_KEY)),
  set: (token: string) => localStorage.setItem(TOKEN_KEY, token),
  clear: () => localStorage.removeItem(TOKEN_KEY),
};

/** Called on any 401 outside login and register (the auth provider signs the user out). */
let onUnauthorized: (() => void) | null = null;
export function setUnauthorizedHandler(handler: (() => void) | null) {
  onUnauthorized = handler;
}

const CREDENTIAL_PATHS = ["/auth/login", "/auth/register"];

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

type Method = "GET" | "POST" | "PATCH" | "PUT" | "DELETE";

/**
 * One call to the API with the token and a time-out; anything but a 2xx is thrown as an
 * ApiError with the catalogue's Spanish message. A FormData body (a file upload) is sent as
 * multipart: the browser sets its boundary.
 */
async function send(
  method: Method,
  path: string,
  body?: unknown,
  extraHeaders: Record<string, string> = {},
): Promise<Response> {
  const headers: Record<string, string> = { ...extraHeaders, Accept: "application/json" };
  const token = tokenStore.get();
  if (token) headers.Authorization = `Bearer ${token}`;
  const multipart = body instanceof FormData;
  if (body !== undefined && !multipart) headers["Content-Type"] = "application/json";

  let response: Response;
  try {
    response = await fetch(BASE + path, {
      method,
      headers,
      body: body === undefined ? undefined : multipart ? body : JSON.stringify(body),
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
    const payload: unknown = await response.json().catch(() => null);
    if (response.status === 401 && !CREDENTIAL_PATHS.includes(path)) onUnauthorized?.();
    const envelope = payload as { error?: string; details?: ErrorDetail[] } | null;
    throw new ApiError(
      catalogueMessage(response.status, path, payload),
      response.status,
      envelope?.error ?? "http_error",
      envelope?.details ?? [],
    );
  }
  return response;
}

/** A JSON call: answers the envelope's `data`. */
export async function request<T>(
  method: Method,
  path: string,
  body?: unknown,
  headers?: Record<string, string>,
): Promise<T> {
  const response = await send(method, path, body, headers);
  const payload = (await response.json().catch(() => null)) as { data: T } | null;
  return payload?.data as T;
}

export const api = {
  get: <T>(path: string) => request<T>("GET", path),
  /** `headers`: a call's own headers, e.g. the `Idempotency-Key` of a sale. */
  post: <T>(path: string, body: unknown = {}, headers?: Record<string, string>) =>
    request<T>("POST", path, body, headers),
  patch: <T>(path: string, body: unknown = {}) => request<T>("PATCH", path, body),
  delete: <T>(path: string) => request<T>("DELETE", path),
  /** A multipart form (files): same envelope and errors as the JSON calls. */
  upload: <T>(path: string, form: FormData) => request<T>("POST", path, form),
  /** A binary answer (a message's file), with the bearer token; errors as the JSON calls. */
  blob: async (path: string) => (await send("GET", path)).blob(),
};

/** A readable message for anything thrown (API or not). */
export function errorMessage(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return "Ha ocurrido un error desconocido";
}
