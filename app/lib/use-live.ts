import { useEffect, useRef, useSyncExternalStore } from "react";
import type { RealtimeEvent, RealtimeEventType } from "../../contracts/realtime";
import { live } from "./live-store";

/**
 * Calls `handler` with the data of every realtime event of `type` while mounted, once the live
 * store has recorded what it brings: the one way a screen hears realtime (decision 0104).
 */
export function useLiveEvent<T>(type: RealtimeEventType, handler: (data: T) => void) {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(
    () =>
      live.subscribe((event: RealtimeEvent) => {
        if (event.type === type) latest.current(event.data as T);
      }),
    [type],
  );
}

/**
 * The live store's mark, re-rendering the caller each time a copy is recorded: a screen that
 * lays the store's copies over its loader's answer (`live.conversationsSince(asked)`...) reads
 * them again in its render, with no list of its own to keep in step.
 */
export function useLiveVersion(): number {
  return useSyncExternalStore(live.watch, live.mark, () => 0);
}
