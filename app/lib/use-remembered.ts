import { useState } from "react";

/**
 * A choice the console remembers on this browser (a panel opened or closed): read once,
 * written on each change. `initial` (a value, or a function of the window, such as its width)
 * holds until the person chooses. Private browsing without storage just does not remember.
 */
export function useRemembered(key: string, initial: boolean | (() => boolean)) {
  const [value, setValue] = useState(() => {
    const fallback = () => (typeof initial === "function" ? initial() : initial);
    try {
      const stored = window.localStorage.getItem(key);
      return stored === null ? fallback() : stored === "true";
    } catch {
      return fallback();
    }
  });
  const remember = (next: boolean) => {
    setValue(next);
    try {
      window.localStorage.setItem(key, String(next));
    } catch {
      // Not remembered: the choice still holds on this page.
    }
  };
  return [value, remember] as const;
}
