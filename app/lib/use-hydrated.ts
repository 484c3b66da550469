import { useSyncExternalStore } from "react";

const subscribeToNothing = () => () => {};

/** False while rendering on the server and hydrating, true once the console's script runs. */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeToNothing,
    () => true,
    () => false,
  );
}
