/**
 * Meta's errors and the one mapping of them to the API's answers (issue #49, decision 0101):
 * what Graph refused or failed to do (`GraphError`, thrown by durable-objects/meta/graph.ts), Meta's
 * codes in Spanish, and the answer a route gives for it. Meta's own words (`providerMessage`)
 * go to the log only: they may name ids, tokens or internals, and are English.
 */
import { AppError } from "../../worker/http/errors";
import { META_ERROR_TEXT } from "../../contracts/meta-error-text";

/** A Graph error, with Meta's code and a Spanish message the console can show. */
export class GraphError extends Error {
  constructor(
    message: string,
    /** Meta's HTTP status; 0 when Meta could not be reached or did not answer in time. */
    readonly status: number,
    readonly code: number | null,
    readonly subcode: number | null,
    readonly providerMessage: string,
  ) {
    super(message);
  }
}

/** Meta's refusal in Spanish (a known code in words, an unknown one by its number). */
export function metaErrorText(code: number | null, providerMessage: string) {
  const known = code !== null && META_ERROR_TEXT[code];
  if (known) return known;
  console.warn("meta error", code, providerMessage);
  return code === null ? "Meta rechazó la petición." : `Meta rechazó la petición (código ${code}).`;
}

/** What a route answers for a Graph error beside its status: the error's code and the field it names. */
interface MetaAnswer {
  /** `meta_error` unless the route says what could not be had (`media_unavailable`). */
  code?: "meta_error" | "media_unavailable";
  /** The field the person typed for the call Meta refused. */
  path?: string;
}

/**
 * The API's answer for a Graph error, and anything else unchanged (to be thrown as it is): Meta
 * refused (4xx) is the request's, 422; Meta unreachable, out of time or failing (0, 5xx) is 502.
 * Its message is the error's Spanish one.
 */
export function metaFailure(error: unknown, { code = "meta_error", path }: MetaAnswer = {}) {
  if (!(error instanceof GraphError)) return error;
  const status = error.status === 0 || error.status >= 500 ? 502 : 422;
  return new AppError(
    status,
    code,
    error.message,
    path === undefined ? undefined : [{ path, message: error.message }],
  );
}
