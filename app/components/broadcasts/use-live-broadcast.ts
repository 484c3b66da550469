import { useState } from "react";
import type { Broadcast } from "../../../worker/broadcasts/contract";
import { live, olderBroadcast } from "~/lib/live-store";
import { useRealtimeConnected } from "~/lib/realtime";
import { useCoalescedRevalidate } from "~/lib/use-coalesced-revalidate";
import { useRealtimeEvent } from "~/lib/use-realtime-event";

/**
 * The broadcast on screen: the loader's, or the newer copy a `broadcast_update` brought (since
 * `asked`, the live store's mark taken when the loader read it). Each of its events also reads
 * the page again, coalesced (its recipients moved on); so does a reconnection.
 */
export function useLiveBroadcast(loaded: Broadcast, asked: number) {
  const revalidate = useCoalescedRevalidate();
  const [copy, setCopy] = useState<Broadcast | null>(
    () => live.broadcastsSince(asked).get(loaded.id) ?? null,
  );
  useRealtimeEvent<{ broadcast: Broadcast }>("broadcast_update", ({ broadcast }) => {
    if (broadcast.id !== loaded.id) return;
    setCopy(live.newestBroadcast(broadcast));
    revalidate();
  });
  useRealtimeConnected(revalidate);
  return copy && copy.id === loaded.id && !olderBroadcast(copy, loaded) ? copy : loaded;
}
