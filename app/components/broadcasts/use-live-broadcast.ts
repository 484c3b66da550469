import type { Broadcast } from "../../../contracts/broadcasts";
import { live, olderBroadcast } from "~/lib/live-store";
import { useRealtimeConnected } from "~/lib/realtime";
import { useCoalescedRevalidate } from "~/lib/use-coalesced-revalidate";
import { useLiveEvent, useLiveVersion } from "~/lib/use-live";

/**
 * The broadcast on screen: the loader's, or the live store's newer copy (a `broadcast_update`
 * since `asked`, the store's mark taken when the loader read it). Each of its events also
 * reads the page again, coalesced (its recipients moved on); so does a reconnection.
 */
export function useLiveBroadcast(loaded: Broadcast, asked: number) {
  const readAgain = useCoalescedRevalidate();
  useLiveVersion();
  useLiveEvent<{ broadcast: Broadcast }>("broadcast_update", ({ broadcast }) => {
    if (broadcast.id === loaded.id) readAgain();
  });
  useRealtimeConnected(readAgain);
  const copy = live.broadcastsSince(asked).get(loaded.id);
  return copy && !olderBroadcast(copy, loaded) ? copy : loaded;
}
