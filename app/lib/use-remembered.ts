import { useState } from "react";

/**
 * A choice the console remembers on this browser (a panel folded away): read once, written
 * on each change. Private browsing without storage just does not remember.
 */
export function useRemembered(key: string, initial: boolean) {
  const [value, setValue] = useState(() => {
    try {
      const stored = window.localStorage.getItem(key);
      return stored === null ? initial : stored === "true";
    } catch {
      return initial;
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
