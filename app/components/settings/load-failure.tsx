import { RetryReadButton } from "~/components/ui/retry-read-button";

export const LOAD_ERROR = "Error al cargar las configuraciones";

/** A tab's data could not load: its reason and a retry (the other tabs stay usable). */
export function LoadFailure({ message }: { message: string }) {
  return (
    <div
      role="alert"
      className="max-w-2xl rounded-xl border border-red-200 bg-red-50 p-6 text-sm text-red-800"
    >
      <p className="font-semibold">{LOAD_ERROR}</p>
      <p className="mt-1">{message}</p>
      <RetryReadButton className="mt-4" />
    </div>
  );
}
