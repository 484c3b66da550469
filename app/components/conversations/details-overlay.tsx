import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from "react";
import { DETAILS_PANEL_ID } from "./conversation-header";

/** The thread's least width beside the details: the composer keeps 480 px (and its padding). */
const THREAD_MIN_PX = 504;
/** The details column's least width; it is 320 px (`w-80`) where there is room. */
const PANEL_MIN_PX = 272;

/** Classes of the thread's column and of the details' column when both fit side by side. */
export const BESIDE = { thread: "min-w-[31.5rem]", panel: "w-80 min-w-[17rem]" } as const;

/**
 * Whether the details fit beside the thread in `row` (the conversation's width below its
 * header): the thread keeps `THREAD_MIN_PX` and the details at least `PANEL_MIN_PX`. Where
 * they do not (a laptop, with the inbox beside), the details are an overlay over the thread.
 */
export function useDetailsFitBeside(row: RefObject<HTMLElement | null>) {
  const [fits, setFits] = useState(true);
  useLayoutEffect(() => {
    const element = row.current;
    if (!element) return;
    const measure = () => setFits(element.clientWidth >= THREAD_MIN_PX + PANEL_MIN_PX);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [row]);
  return fits;
}

/**
 * "Detalles" over the thread (not its composer), from the right, where the two cannot share
 * the width: a panel that does not block the screen (the header's "Detalles" closes it too).
 * Opened by the person (`takeFocus`), it takes the focus and gives it back on closing;
 * Escape inside it and "Cerrar" close it.
 */
export function DetailsOverlay({
  takeFocus,
  onClose,
  children,
}: {
  takeFocus: boolean;
  onClose: () => void;
  children: React.ReactNode;
}) {
  const panel = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const element = panel.current;
    if (!takeFocus || !element) return;
    const opener = document.activeElement;
    element.focus();
    return () => {
      // Back to "Detalles", unless the person has moved on elsewhere meanwhile.
      const active = document.activeElement;
      const lost = !active || active === document.body || !active.isConnected;
      if ((lost || element.contains(active)) && opener instanceof HTMLElement) opener.focus();
    };
    // Only on opening: the panel stays as long as it is open.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <div
      id={DETAILS_PANEL_ID}
      ref={panel}
      role="dialog"
      aria-label="Detalles"
      tabIndex={-1}
      onKeyDown={(e) => {
        // What a list opened from the panel does with its keys is its own.
        if (e.key !== "Escape" || e.defaultPrevented) return;
        if (!panel.current?.contains(e.target as Node)) return;
        e.stopPropagation();
        onClose();
      }}
      className="absolute inset-y-0 right-0 z-20 flex w-80 max-w-full flex-col border-l border-slate-200 bg-white shadow-xl focus:outline-none"
    >
      <div className="flex shrink-0 items-center justify-between gap-3 border-b border-slate-200 px-4 py-2">
        <h2 className="font-semibold text-slate-900">Detalles</h2>
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
}
