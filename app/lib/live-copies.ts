import type { RealtimeEventType } from "../../worker/realtime/contract";
import { realtimeEventName } from "./realtime";

/**
 * What realtime events brought, numbered, so that data fetched meanwhile does not put back an
 * older copy: take `mark()` when a fetch starts, and when it answers, `since(mark)` gives what
 * events brought after, in the order they came, to lay over the answer.
 */
export function liveCopies<T extends { id: string }>() {
  let sequence = 0;
  const copies = new Map<string, { item: T; sequence: number }>();
  return {
    record(item: T) {
      copies.delete(item.id); // Map keeps insertion order: the newest copy goes last.
      copies.set(item.id, { item, sequence: ++sequence });
    },
    /** The latest copy of `id` brought after `mark`, if any. */
    get(id: string, mark: number) {
      const copy = copies.get(id);
      return copy && copy.sequence > mark ? copy.item : undefined;
    },
    mark: () => sequence,
    since(mark: number) {
      const newer = new Map<string, T>();
      for (const [id, copy] of copies) if (copy.sequence > mark) newer.set(id, copy.item);
      return newer;
    },
  };
}

/**
 * Calls `record` with every realtime event of `types` from the moment the module loads, not
 * only while a screen is mounted: a route's loader may be reading while no screen is there to
 * hear them, and what came meanwhile must still reach the screen it renders.
 */
export function recordEvents<T>(types: RealtimeEventType[], record: (data: T) => void) {
  if (typeof window === "undefined") return;
  for (const type of types) {
    window.addEventListener(realtimeEventName(type), (event) =>
      record((event as CustomEvent<T>).detail),
    );
  }
}
