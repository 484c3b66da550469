import { Button } from "~/components/ui/button";

interface DialogActionsProps {
  /** The submit button's label, and what it says while the form is sent. */
  submitLabel: string;
  busyLabel?: string;
  busy: boolean;
  /** The submit button waits for more than `busy` (a required field still empty). */
  disabled?: boolean;
  /** A step that destroys something is submitted in the danger tone. */
  danger?: boolean;
  onCancel: () => void;
  /** Why the last try was refused, when no field says it: announced above the buttons. */
  refusal?: string | null;
}

/**
 * A dialog form's footer: the refusal not tied to a field, then "Cancelar" and the submit
 * button, both still while the form is sent.
 */
export function DialogActions({
  submitLabel,
  busyLabel = "Guardando...",
  busy,
  disabled = false,
  danger = false,
  onCancel,
  refusal,
}: DialogActionsProps) {
  return (
    <>
      {refusal && (
        <p role="alert" className="text-sm text-red-700">
          {refusal}
        </p>
      )}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={busy}>
          Cancelar
        </Button>
        <Button type="submit" variant={danger ? "danger" : "primary"} disabled={busy || disabled}>
          {busy ? busyLabel : submitLabel}
        </Button>
      </div>
    </>
  );
}
