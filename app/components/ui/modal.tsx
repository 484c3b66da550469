import { Dialog, DialogPanel, DialogTitle } from "@headlessui/react";

const WIDTHS = { sm: "max-w-sm", md: "max-w-md", lg: "max-w-lg", xl: "max-w-2xl" } as const;

interface ModalProps {
  open: boolean;
  title: React.ReactNode;
  /** Escape and a click outside close it, unless the dialog is busy (saving). */
  onClose: () => void;
  busy?: boolean;
  width?: keyof typeof WIDTHS;
  children: React.ReactNode;
}

/** A centred dialog over a dimmed page, scrolling when taller than the screen. */
export function Modal({ open, title, onClose, busy = false, width = "md", children }: ModalProps) {
  return (
    <Dialog open={open} onClose={() => !busy && onClose()} className="relative z-50">
      <div className="fixed inset-0 bg-slate-900/50" aria-hidden />
      <div className="fixed inset-0 overflow-y-auto">
        <div className="flex min-h-full items-center justify-center p-4">
          <DialogPanel className={`w-full ${WIDTHS[width]} rounded-xl bg-white p-6 shadow-xl`}>
            <DialogTitle className="text-lg font-semibold text-slate-900">{title}</DialogTitle>
            {children}
          </DialogPanel>
        </div>
      </div>
    </Dialog>
  );
}
