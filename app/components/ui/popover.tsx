import { useCallback, useEffect, useId, useRef, useState } from "react";

const FOCUSABLE = "input, select, textarea, button, [href]";

/**
 * A button that opens a small panel under it (the inbox's filters). The panel takes the
 * focus; Escape, a click elsewhere or the focus leaving closes it, and `children` may close it
 * once its job is done (focus then returns to the button). The panel stays in the button's
 * place in the page, not in a portal, so the tab order needs no focus guards. Our own rather
 * than Headless UI's: its Popover brings a positioning library for anchors this panel does not
 * use (about 17 KB gzip on the inbox's routes).
 */
export function Popover({
  button,
  buttonClassName,
  align = "start",
  panelClassName = "w-72",
  children,
}: {
  /** What the button shows, which is its name. */
  button: React.ReactNode;
  buttonClassName: string;
  /** Which edge of the button the panel lines up with. */
  align?: "start" | "end";
  panelClassName?: string;
  children: (close: () => void) => React.ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const wrapper = useRef<HTMLDivElement>(null);
  const trigger = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const panelId = useId();

  const close = useCallback(() => {
    setOpen(false);
    trigger.current?.focus();
  }, []);

  useEffect(() => {
    if (!open) return;
    (panel.current?.querySelector<HTMLElement>(FOCUSABLE) ?? panel.current)?.focus();
    const clickOutside = (event: PointerEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) setOpen(false);
    };
    const escape = (event: KeyboardEvent) => {
      if (event.key === "Escape") close();
    };
    document.addEventListener("pointerdown", clickOutside);
    document.addEventListener("keydown", escape);
    return () => {
      document.removeEventListener("pointerdown", clickOutside);
      document.removeEventListener("keydown", escape);
    };
  }, [open, close]);

  return (
    <div
      ref={wrapper}
      className="relative"
      onBlur={(event) => {
        if (open && !wrapper.current?.contains(event.relatedTarget as Node | null)) setOpen(false);
      }}
    >
      <button
        ref={trigger}
        type="button"
        className={buttonClassName}
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        onClick={() => setOpen((shown) => !shown)}
      >
        {button}
      </button>
      {open && (
        <div
          ref={panel}
          id={panelId}
          tabIndex={-1}
          className={`absolute top-full z-40 mt-1 max-w-[calc(100vw-2rem)] rounded-xl border border-slate-200 bg-white p-4 shadow-lg focus:outline-none ${align === "end" ? "right-0" : "left-0"} ${panelClassName}`}
        >
          {children(close)}
        </div>
      )}
    </div>
  );
}
