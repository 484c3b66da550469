import { useState } from "react";

/** "Reintentar" (or `label`), busy while it is being tried again. */
export function RetryButton({
  onRetry,
  label = "Reintentar",
}: {
  onRetry: () => Promise<unknown>;
  label?: string;
}) {
  const [retrying, setRetrying] = useState(false);
  async function retry() {
    setRetrying(true);
    try {
      await onRetry();
    } finally {
      setRetrying(false);
    }
  }
  return (
    <button
      type="button"
      disabled={retrying}
      aria-busy={retrying}
      onClick={() => void retry()}
      className="shrink-0 rounded border border-red-300 bg-white px-2 py-0.5 font-medium text-red-700 hover:bg-red-100 disabled:opacity-60"
    >
      {retrying ? "Reintentando…" : label}
    </button>
  );
}
