/**
 * How the console says what happened (decision 0103): the one place its success and failure
 * toasts come from, and the one way a refused call becomes the message a person reads
 * (`errorMessage`: the API's Spanish message, or the network's). Route actions answer a
 * refusal with `refusalOf` (forms.ts), which reads the same message.
 */
import { toast, type ExternalToast } from "sonner";
import { errorMessage } from "./api";

/** What follows a toast's title: a sentence, a refusal (its message), or sonner's options. */
type Detail = string | ExternalToast | undefined;

const optionsOf = (detail: Detail): ExternalToast | undefined =>
  typeof detail === "string" ? { description: detail } : detail;

/** A change that was made: its title, and a sentence under it. */
export function toastDone(title: string, detail?: Detail) {
  toast.success(title, optionsOf(detail));
}

/** A warning: part of a change was made (or nothing was needed). */
export function toastWarning(title: string, detail?: Detail) {
  toast.warning(title, optionsOf(detail));
}

/**
 * A change that failed: its title, and why (a thrown refusal reads as its message; a sentence
 * as itself; nothing, no description).
 */
export function toastFailed(title: string, cause?: unknown) {
  const description =
    cause === undefined ? undefined : typeof cause === "string" ? cause : errorMessage(cause);
  toast.error(title, description ? { description } : undefined);
}

/** A refusal said on its own: its message is the title (a call with no words of its own). */
export function toastRefusal(cause: unknown) {
  toast.error(errorMessage(cause));
}

/**
 * Makes `call` and says how it went: `success` (when given) once it is made, `failure` with
 * the refusal's message when it is refused; answers the call's answer, or null when refused.
 * The one catch-to-toast of the console.
 */
export async function attempt<T>(
  call: () => Promise<T>,
  says: { success?: string | ((answer: T) => string); failure: string },
): Promise<T | null> {
  try {
    const answer = await call();
    const success = typeof says.success === "function" ? says.success(answer) : says.success;
    if (success) toastDone(success);
    return answer;
  } catch (error) {
    toastFailed(says.failure, error);
    return null;
  }
}
