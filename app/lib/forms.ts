import type { ZodType } from "zod";
import { ApiError } from "./api";

export type FieldErrors = Record<string, string>;

/** Validates form values with the same schema the API uses; returns the first error per field. */
export function validate<T>(
  schema: ZodType<T>,
  values: unknown,
): { data: T; errors: null } | { data: null; errors: FieldErrors } {
  const result = schema.safeParse(values);
  if (result.success) return { data: result.data, errors: null };
  const errors: FieldErrors = {};
  for (const issue of result.error.issues) {
    const path = issue.path.join(".");
    errors[path] ??= issue.message;
  }
  return { data: null, errors };
}

/** The per-field messages of a 422 from the API (empty for other errors). */
export function serverFieldErrors(error: unknown): FieldErrors {
  if (!(error instanceof ApiError)) return {};
  return Object.fromEntries(error.details.map((d) => [d.path, d.message]));
}
