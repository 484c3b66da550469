import { useSyncExternalStore } from "react";

/**
 * Wide enough for the inbox beside the open conversation, its details as a side panel and
 * its main actions in the header: Tailwind's `xl` (1280 px), so the CSS and the markup agree.
 */
export const WIDE_SCREEN = "(min-width: 80rem)";

/** Whether the window matches a media query now, following it as the window changes. */
export function useMediaQuery(query: string) {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener("change", onChange);
      return () => list.removeEventListener("change", onChange);
    },
    () => window.matchMedia(query).matches,
    // The screens that ask are rendered in the browser only (their data is read there).
    () => false,
  );
}
