import { Description, Dialog, DialogPanel, DialogTitle } from "@headlessui/react";
import { Button } from "~/components/ui/button";

interface ConfirmDialogProps {
  open: boolean;
  title: string;
  description: string;
  confirmLabel: string;
  /** Shown on the confirm button while the action runs. */
  busyLabel?: string;
  busy?: boolean;
  /** A step that cannot be undone but destroys nothing (sending) is asked in the primary tone. */
  danger?: boolean;
  /** The button that keeps things as they are ("Volver" where "Cancelar" is itself the action). */
  dismissLabel?: string;
  onConfirm: () => void;
  onClose: () => void;
}

/** Asks before a step that cannot be undone (disconnecting a service, deleting, sending). */
export function ConfirmDialog({
  open,
  title,
  description,
  confirmLabel,
  busyLabel = "Desconectando...",
  busy = false,
  danger = true,
  dismissLabel = "Cancelar",
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  return (
    <Dialog open={open} onClose={() => !busy && onClose()} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/50" aria-hidden />
      <div className="fixed inset-0 flex items-center justify-center p-4">
        <DialogPanel className="w-full max-w-md rounded-xl bg-white p-6 shadow-xl">
          <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
          <Description className="mt-2 text-sm text-slate-600">{description}</Description>
          <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <Button variant="secondary" onClick={onClose} disabled={busy} autoFocus>
              {dismissLabel}
            </Button>
            <Button variant={danger ? "danger" : "primary"} onClick={onConfirm} disabled={busy}>
              {busy ? busyLabel : confirmLabel}
            </Button>
          </div>
        </DialogPanel>
      </div>
    </Dialog>
  );
}
