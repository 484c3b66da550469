import { Popover as HeadlessPopover, PopoverButton, PopoverPanel } from "@headlessui/react";

/**
 * A button that opens a small panel under it (the inbox's filters). The panel takes the
 * focus; Escape or a click elsewhere closes it, and `children` may close it once its job is
 * done (focus then returns to the button). The panel stays in the button's place in the
 * page, not in a portal: the tab order needs no hidden focus guards.
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
  return (
    <HeadlessPopover className="relative">
      <PopoverButton className={buttonClassName}>{button}</PopoverButton>
      <PopoverPanel
        focus
        className={`absolute top-full z-40 mt-1 max-w-[calc(100vw-2rem)] rounded-xl border border-slate-200 bg-white p-4 shadow-lg focus:outline-none ${align === "end" ? "right-0" : "left-0"} ${panelClassName}`}
      >
        {({ close }) => <>{children(() => close())}</>}
      </PopoverPanel>
    </HeadlessPopover>
  );
}
