import { useEffect, useRef } from "react";
import type { RealtimeEventType } from "../../worker/realtime/contract";
import { realtimeEventName } from "./realtime";

/** Calls `handler` with the data of every realtime event of `type` while mounted. */
export function useRealtimeEvent<T>(type: RealtimeEventType, handler: (data: T) => void) {
  const latest = useRef(handler);
  latest.current = handler;
  useEffect(() => {
    const listener = (event: Event) => latest.current((event as CustomEvent<T>).detail);
    window.addEventListener(realtimeEventName(type), listener);
    return () => window.removeEventListener(realtimeEventName(type), listener);
  }, [type]);
}
