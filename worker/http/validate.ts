import { zValidator } from "@hono/zod-validator";
import { createMiddleware } from "hono/factory";
import { z } from "zod/mini";
import { AppError, badRequest, validationError } from "./errors";
import { costlyWrite, type CostlyWrite } from "./write-limits";

// Messages zod writes itself (wrong types, unknown enum values) come out in Spanish.
z.config(z.locales.es());

const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

/** A body that is not declared as JSON is a 400, before any field is looked at. */
const requireJsonBody = createMiddleware(async (c, next) => {
  const mediaType = (c.req.header("Content-Type") ?? "").split(";")[0]!.trim();
  if (!JSON_MEDIA_TYPE.test(mediaType)) {
    throw badRequest("El cuerpo de la petición debe ser JSON (Content-Type: application/json).");
  }
  await next();
});

/** A route's own step that does nothing: where a body names no tighter write window. */
const noCostlyWindow = createMiddleware(async (_c, next) => {
  await next();
});

/**
 * Validates a JSON body: not JSON → 400, failing fields → 422 naming each one. The write was
 * counted with the session (`write-limits.ts`); `costly` names a tighter window it counts in.
 */
export function jsonBody<T extends z.ZodMiniType>(schema: T, costly?: CostlyWrite) {
  const validate = zValidator("json", schema, (result) => {
    if (!result.success) throw validationError(result.error);
  });
  return [requireJsonBody, validate, costly ? costlyWrite(costly) : noCostlyWindow] as const;
}

/** A JSON body a call may go without (`{}` then): validated like `jsonBody` when it is JSON. */
export function optionalJsonBody<T extends z.ZodMiniType>(schema: T) {
  const validate = zValidator("json", schema, (result) => {
    if (!result.success) throw validationError(result.error);
  });
  return [validate] as const;
}

/** Validates the query string: a wrong-typed parameter is a 400 naming it. */
export function queryParams<T extends z.ZodMiniType>(schema: T) {
  return zValidator("query", schema, (result) => {
    if (!result.success) {
      const { details } = validationError(result.error);
      throw new AppError(400, "bad_request", "Parámetros de consulta inválidos.", details);
    }
  });
}

/**
 * Validates request headers (names in lower case, as Hono reads them): a malformed one is a
 * 400 with zod's Spanish message.
 */
export function headerParams<T extends z.ZodMiniType>(schema: T) {
  return zValidator("header", schema, (result) => {
    if (!result.success) throw badRequest(result.error.issues[0]!.message);
  });
}

/**
 * Validates a multipart form (file uploads): not multipart → 400, failing fields → 422; the
 * write counts in the uploads' window too.
 */
export function formBody<T extends z.ZodMiniType>(schema: T) {
  const requireMultipart = createMiddleware(async (c, next) => {
    const mediaType = (c.req.header("Content-Type") ?? "").split(";")[0]!.trim();
    if (mediaType !== "multipart/form-data") {
      throw badRequest("El archivo se envía como multipart/form-data.");
    }
    await next();
  });
  const validate = zValidator("form", schema, (result) => {
    if (!result.success) throw validationError(result.error);
  });
  return [requireMultipart, validate, costlyWrite("uploads")] as const;
}
