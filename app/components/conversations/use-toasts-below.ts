import { useEffect, type RefObject } from "react";

/** Between the header's lower edge and the first toast. */
const GAP_PX = 8;

/**
 * Keeps the console's toasts (top right; across the top on a phone) below `header`, so a
 * toast never covers its actions: the root's `<Toaster>` reads `--toasts-top`, set here from
 * where the header ends and cleared when the screen goes (toasts go back to the corner).
 * Off while a sheet covers the screen: the toasts then sit above it, at the top.
 */
export function useToastsBelow(header: RefObject<HTMLElement | null>, on: boolean) {
  useEffect(() => {
    const element = header.current;
    if (!element || !on) return;
    const root = document.documentElement;
    const place = () => {
      const bottom = Math.max(0, Math.round(element.getBoundingClientRect().bottom));
      root.style.setProperty("--toasts-top", `${bottom + GAP_PX}px`);
    };
    place();
    const resized = new ResizeObserver(place);
    resized.observe(element);
    window.addEventListener("resize", place);
    window.addEventListener("scroll", place, { passive: true });
    return () => {
      resized.disconnect();
      window.removeEventListener("resize", place);
      window.removeEventListener("scroll", place);
      root.style.removeProperty("--toasts-top");
    };
  }, [header, on]);
}
