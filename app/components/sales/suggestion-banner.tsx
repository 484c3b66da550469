import { useState } from "react";
import { DEFAULT_CURRENCY, type Suggestion } from "../../../contracts/sales";
import { Button } from "~/components/ui/button";
import { formatAmount } from "./money";

export const suggestionText = (s: Suggestion) =>
  s.event_name === "LeadSubmitted"
    ? "Meta detectó un interesado"
    : s.value === null
      ? "Meta detectó una compra"
      : `Meta detectó una compra de ${formatAmount(s.value, s.currency ?? DEFAULT_CURRENCY)}`;

/** What Meta detected in the chat, until a person confirms or dismisses it. */
export function SuggestionBanner({
  suggestion,
  onConfirm,
  onDismiss,
}: {
  suggestion: Suggestion;
  onConfirm: () => Promise<void>;
  onDismiss: () => Promise<void>;
}) {
  const [busy, setBusy] = useState(false);
  const text = suggestionText(suggestion);
  const run = async (action: () => Promise<void>) => {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };
  return (
    <div
      role="group"
      aria-label={text}
      className="rounded-lg border border-indigo-200 bg-indigo-50 p-3 text-sm text-indigo-900"
    >
      <p>{text}</p>
      <div className="mt-2 flex gap-2">
        <Button disabled={busy} onClick={() => void run(onConfirm)}>
          Confirmar
        </Button>
        <Button variant="secondary" disabled={busy} onClick={() => void run(onDismiss)}>
          Descartar
        </Button>
      </div>
    </div>
  );
}
