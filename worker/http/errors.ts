import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { core } from "zod/mini";

export interface ErrorDetail {
  path: string;
  message: string;
}

/** The one error type of the API. Its fields are exactly the contract's error envelope. */
export class AppError extends Error {
  constructor(
    readonly status: ContentfulStatusCode,
    readonly code: string,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
    /** What a refusal offers beside the envelope (the free slots of a `slot_taken`). */
    readonly extra?: Record<string, unknown>,
  ) {
    super(message);
  }
}

export const badRequest = (message = "La petición no es válida.") =>
  new AppError(400, "bad_request", message);

export const unauthorized = (
  message = "Tu sesión ha expirado. Por favor, inicia sesión nuevamente.",
) => new AppError(401, "unauthorized", message);

export const forbidden = (message = "Tu rol no permite realizar esta acción.") =>
  new AppError(403, "forbidden", message);

export const notFound = (message = "No encontrado.") => new AppError(404, "not_found", message);

export const conflict = (message: string) => new AppError(409, "conflict", message);

export const rateLimited = (retryAfterSeconds: number) =>
  new AppError(
    429,
    "rate_limited",
    "Demasiados intentos. Espera un momento antes de volver a intentarlo.",
    undefined,
    { "Retry-After": String(retryAfterSeconds) },
  );

const INVALID_DATA = "Datos inválidos. Verifica la información ingresada.";

/** 422 naming every failing field once, with the first problem found in it. */
export function validationError(error: core.$ZodError): AppError {
  const byPath = new Map<string, string>();
  for (const issue of error.issues) {
    const path = issue.path.join(".") || "(body)";
    if (!byPath.has(path)) byPath.set(path, issue.message);
  }
  const details = [...byPath].map(([path, message]) => ({ path, message }));
  return new AppError(422, "validation_error", INVALID_DATA, details);
}

/** 422 for one field that is well formed but wrong against the stored data. */
export const fieldError = (path: string, message: string) =>
  new AppError(422, "validation_error", INVALID_DATA, [{ path, message }]);

/** Turns anything thrown during a request into the contract's envelope. */
export function handleError(err: unknown, c: Context): Response {
  if (err instanceof AppError) {
    const body = {
      error: err.code,
      message: err.message,
      ...(err.details && { details: err.details }),
      ...err.extra,
    };
    return c.json(body, err.status, err.headers);
  }
  if (err instanceof HTTPException) {
    // Raised by Hono itself: malformed JSON (400) and the body-size limit (413).
    if (err.status === 413) {
      return c.json(
        { error: "payload_too_large", message: "El cuerpo de la petición es demasiado grande." },
        413,
      );
    }
    if (err.status === 400) {
      return c.json(
        { error: "bad_request", message: "El cuerpo de la petición no es JSON válido." },
        400,
      );
    }
  }
  // Never echo internals (stack, SQL, secrets) to the client.
  console.error("unexpected error", c.req.method, new URL(c.req.url).pathname, err);
  return c.json(
    {
      error: "internal_error",
      message: "Error interno del servidor. Intenta nuevamente más tarde.",
    },
    500,
  );
}
