import { useEffect, useId, useRef } from "react";
import { createPortal } from "react-dom";

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';

/** Tab and Shift+Tab go round the sheet's own controls, never behind it. */
function keepFocusIn(panel: HTMLElement, event: React.KeyboardEvent) {
  const controls = [...panel.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (c) => c.getClientRects().length > 0,
  );
  const first = controls[0];
  const last = controls.at(-1);
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === panel)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * A panel over what is on screen, with its title and "Cerrar": the one way a screen keeps
 * something one tap away (a conversation's details). Escape inside it and "Cerrar" close it;
 * opened by the person (`takeFocus`), it takes the focus and gives it back to what opened it.
 *
 * - Over the whole screen (the default): from the bottom on a phone and from the right on a
 *   wider screen, a modal dialog with a backdrop that closes it; the focus stays inside.
 *   Toasts stay above it. Written here rather than with headlessui's Dialog, whose hidden
 *   focus guards are focusable elements hidden from assistive technology.
 * - `over` a part of the screen (its positioned parent, the thread): from the right, not
 *   modal, where the part and the panel cannot share the width; the rest stays usable.
 */
export function Sheet({
  open,
  title,
  onClose,
  children,
  over = false,
  takeFocus = true,
  id,
}: {
  open: boolean;
  title: string;
  onClose: () => void;
  children: React.ReactNode;
  over?: boolean;
  takeFocus?: boolean;
  id?: string;
}) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const focusOnOpen = useRef(takeFocus);
  focusOnOpen.current = takeFocus;
  useEffect(() => {
    const element = panel.current;
    if (!open || !focusOnOpen.current || !element) return;
    const opener = document.activeElement;
    element.focus();
    return () => {
      // Back to the opener, unless the person has moved on elsewhere meanwhile.
      const active = document.activeElement;
      const lost = !active || active === document.body || !active.isConnected;
      if ((lost || element.contains(active)) && opener instanceof HTMLElement) opener.focus();
    };
  }, [open]);
  if (!open) return null;
  const dialog = (
    <div
      id={id}
      ref={panel}
      role="dialog"
      aria-modal={over ? undefined : "true"}
      aria-labelledby={titleId}
      tabIndex={-1}
      onKeyDown={(e) => {
        // What a dialog or list opened from the sheet does with its keys is its own.
        if (e.defaultPrevented || !panel.current?.contains(e.target as Node)) return;
        if (e.key === "Escape") {
          e.stopPropagation();
          onClose();
        } else if (e.key === "Tab" && !over && panel.current) keepFocusIn(panel.current, e);
      }}
      className={
        over
          ? "absolute inset-y-0 right-0 z-20 flex w-80 max-w-full flex-col border-l border-slate-200 bg-white shadow-xl focus:outline-none"
          : "absolute inset-x-0 bottom-0 flex max-h-[88dvh] flex-col overflow-hidden rounded-t-2xl bg-white shadow-xl focus:outline-none sm:inset-y-0 sm:left-auto sm:max-h-none sm:w-96 sm:rounded-none"
      }
    >
      <div
        className={`flex shrink-0 items-center justify-between gap-3 border-b border-slate-200 px-4 ${over ? "py-2" : "py-3"}`}
      >
        <h2 id={titleId} className="font-semibold text-slate-900">
          {title}
        </h2>
        <button
          type="button"
          onClick={onClose}
          className="rounded-lg px-3 py-1.5 text-sm font-medium text-slate-700 hover:bg-slate-100"
        >
          Cerrar
        </button>
      </div>
      <div className="min-h-0 flex-1 overflow-y-auto">{children}</div>
    </div>
  );
  if (over) return dialog;
  return createPortal(
    <div className="fixed inset-0 z-40">
      <div aria-hidden className="absolute inset-0 bg-slate-900/40" onClick={onClose} />
      {dialog}
    </div>,
    document.body,
  );
}
