import { useSyncExternalStore } from "react";

const subscribe = () => () => undefined;

/** The console's own origin in the browser ("" while rendering on the server). */
export function useOrigin(): string {
  return useSyncExternalStore(
    subscribe,
    () => window.location.origin,
    () => "",
  );
}
