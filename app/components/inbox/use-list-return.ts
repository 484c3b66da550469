import { useLayoutEffect, useRef } from "react";

/**
 * On a screen too narrow for the list beside the conversation, the list is the page and a
 * conversation replaces it: coming back (its "←" or the browser's back) returns the page to
 * where the list was. `opened` notes the place as a row is followed.
 */
export function useListReturn(open: boolean, beside: boolean) {
  const where = useRef<number | null>(null);
  useLayoutEffect(() => {
    if (open || beside || where.current === null) return;
    window.scrollTo({ top: where.current });
    where.current = null;
  }, [open, beside]);
  return {
    opened: () => {
      where.current = window.scrollY;
    },
  };
}
