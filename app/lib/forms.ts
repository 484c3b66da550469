import { useCallback, useEffect, useState, type RefObject } from "react";
import type { ZodMiniType } from "zod/mini";
import { ApiError, errorMessage } from "./api";

export type FieldErrors = Record<string, string>;

/** Validates form values with the same schema the API uses; returns the first error per field. */
export function validate<T>(
  schema: ZodMiniType<T>,
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

/** A write the API refused, as a route's action answers it to its form. */
export interface Refusal {
  ok: false;
  /** The server's messages by field (`name`, `template.parameters.0`...). */
  fieldErrors: FieldErrors;
  /** The API's error code (`template_not_approved`, `unknown_label`...). */
  code: string;
  message: string;
}

export const refusalOf = (error: unknown): Refusal => ({
  ok: false,
  fieldErrors: serverFieldErrors(error),
  code: error instanceof ApiError ? error.code : "unknown",
  message: errorMessage(error),
});

/**
 * A form's messages by field: its own checks' (`refuse`), and the server's once the route's
 * action answers a refusal; one that names no field goes where `fieldOfCode` says for its code,
 * or above the form (`form`). After each refused attempt the first field in error takes the
 * focus; `clear` drops the messages of the fields a change touched.
 */
export function useFormErrors(
  form: RefObject<HTMLFormElement | null>,
  fetcher: { state: string; data?: { ok: true } | Refusal },
  fieldOfCode: Record<string, string>,
) {
  const [errors, setErrors] = useState<FieldErrors>({});
  const [attempt, setAttempt] = useState(0);
  const { state, data: answer } = fetcher;

  const refuse = useCallback((found: FieldErrors) => {
    setErrors(found);
    setAttempt((n) => n + 1);
  }, []);

  useEffect(() => {
    if (state !== "idle" || !answer || answer.ok) return;
    const found = { ...answer.fieldErrors };
    if (Object.keys(found).length === 0) found[fieldOfCode[answer.code] ?? "form"] = answer.message;
    refuse(found);
  }, [state, answer, fieldOfCode, refuse]);

  useEffect(() => {
    if (attempt === 0) return;
    form.current?.querySelector<HTMLElement>("[aria-invalid='true']")?.focus();
  }, [attempt, form]);

  const clear = useCallback(
    (...prefixes: string[]) =>
      setErrors((current) =>
        Object.fromEntries(
          Object.entries(current).filter(([key]) => !prefixes.some((p) => key.startsWith(p))),
        ),
      ),
    [],
  );
  return { errors, refuse, clear, reset: () => setErrors({}) };
}
