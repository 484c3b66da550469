import { useCallback, useEffect, useRef } from "react";
import { useRevalidator } from "react-router";

/**
 * Reloads the route's data at most once per `windowMs`: the first call at once, the calls
 * that follow within the window as one reload at its end. A burst of realtime events costs
 * two requests, not one each. The window is a little longer than the one-second bursts it
 * is for, so events that arrive a few milliseconds late still fall inside it.
 */
export function useCoalescedRevalidate(windowMs = 1500) {
  const { revalidate } = useRevalidator();
  const latest = useRef(revalidate);
  latest.current = revalidate;
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const pending = useRef(false);

  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );

  return useCallback(() => {
    if (timer.current) {
      pending.current = true;
      return;
    }
    void latest.current();
    const closeWindow = () => {
      if (!pending.current) {
        timer.current = null;
        return;
      }
      pending.current = false;
      void latest.current();
      timer.current = setTimeout(closeWindow, windowMs);
    };
    timer.current = setTimeout(closeWindow, windowMs);
  }, [windowMs]);
}
