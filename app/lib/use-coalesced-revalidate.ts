import { useCallback, useEffect, useRef } from "react";
import { useRevalidator } from "react-router";

/**
 * Reloads the route's data once per burst of calls: the first call of a quiet moment reloads
 * at once; calls that follow within `quietMs` of each other wait and reload once, when they
 * stop for `quietMs` (or at most `maxWaitMs` after the first of them, so a steady stream still
 * shows). Fifty realtime events in a second cost two requests, not fifty.
 *
 * The one way realtime reads a page again (decision 0145): only where the page's data moved in a
 * way the client cannot compute from the live store's copies (a copy moving rows in or out of a
 * page, a broadcast's recipients, figures the server counts, a socket that reopened after
 * missing events). The other is a person's "Reintentar" (`RetryReadButton`).
 */
export function useCoalescedRevalidate({ quietMs = 400, maxWaitMs = 3000 } = {}) {
  const revalidator = useRevalidator();
  const latest = useRef(revalidator);
  latest.current = revalidator;
  const burst = useRef({
    timer: null as ReturnType<typeof setTimeout> | null,
    firstWaitingAt: null as number | null,
    busyUntil: 0,
  });

  useEffect(
    () => () => {
      if (burst.current.timer) clearTimeout(burst.current.timer);
    },
    [],
  );

  return useCallback(() => {
    const readAgain = () => void latest.current.revalidate();
    const b = burst.current;
    const now = Date.now();
    const quiet = now >= b.busyUntil && b.timer === null;
    b.busyUntil = now + quietMs;
    if (quiet) {
      readAgain();
      return;
    }
    b.firstWaitingAt ??= now;
    if (b.timer) clearTimeout(b.timer);
    const reloadAt = Math.min(now + quietMs, b.firstWaitingAt + maxWaitMs);
    b.timer = setTimeout(() => {
      b.timer = null;
      b.firstWaitingAt = null;
      b.busyUntil = Date.now() + quietMs;
      readAgain();
    }, reloadAt - now);
  }, [quietMs, maxWaitMs]);
}
