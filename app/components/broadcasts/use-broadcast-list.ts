import { useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import type { Broadcast } from "../../../worker/broadcasts/contract";
import { client, data, errorMessage } from "~/lib/api";
import { live, olderBroadcast } from "~/lib/live-store";
import { useRealtimeConnected } from "~/lib/realtime";
import { useCoalescedRevalidate } from "~/lib/use-coalesced-revalidate";
import { useRealtimeEvent } from "~/lib/use-realtime-event";

/** How many broadcasts a page of the list brings. */
export const BROADCASTS_PAGE_SIZE = 20;

/** A page of the list, newest first: the first, or the one older than `before`. */
export const readBroadcasts = (before?: string) =>
  data(
    client.broadcasts.$get({
      query: { limit: String(BROADCASTS_PAGE_SIZE), ...(before && { before }) },
    }),
  );

type Page = Awaited<ReturnType<typeof readBroadcasts>>;

/**
 * `broadcast` placed in the list: its row replaced unless the list's copy is newer; one not
 * shown yet goes in its place by id (UUIDv7: creation order), when the list reaches that far.
 */
export function placeBroadcast(list: Broadcast[], broadcast: Broadcast, complete: boolean) {
  const index = list.findIndex((b) => b.id === broadcast.id);
  if (index >= 0) {
    if (olderBroadcast(broadcast, list[index]!)) return list;
    return list.map((b, i) => (i === index ? broadcast : b));
  }
  const last = list.at(-1);
  if (!complete && last && broadcast.id < last.id) return list;
  const at = list.findIndex((b) => b.id < broadcast.id);
  return at < 0 ? [...list, broadcast] : [...list.slice(0, at), broadcast, ...list.slice(at)];
}

/**
 * The list on screen: the loader's first page with what realtime events brought since it was
 * asked (`asked`, the live store's mark), patched by each `broadcast_update`, and the pages
 * "Cargar más" adds. A reconnection reads it again (events may have been missed).
 */
export function useBroadcastList(loaded: { page: Page; asked: number }) {
  const revalidate = useCoalescedRevalidate();
  const [list, setList] = useState(loaded.page.broadcasts);
  const [hasMore, setHasMore] = useState(loaded.page.has_more);
  const [loadingMore, setLoadingMore] = useState(false);
  const state = useRef({ list, hasMore });
  state.current = { list, hasMore };

  useEffect(() => {
    let next = loaded.page.broadcasts;
    for (const b of live.broadcastsSince(loaded.asked).values()) {
      next = placeBroadcast(next, b, !loaded.page.has_more);
    }
    setList(next);
    setHasMore(loaded.page.has_more);
  }, [loaded]);

  useRealtimeEvent<{ broadcast: Broadcast }>("broadcast_update", ({ broadcast }) => {
    setList((current) =>
      placeBroadcast(current, live.newestBroadcast(broadcast), !state.current.hasMore),
    );
  });
  useRealtimeConnected(revalidate);

  async function loadMore() {
    setLoadingMore(true);
    try {
      const page = await readBroadcasts(state.current.list.at(-1)?.id);
      setList((shown) => [
        ...shown,
        ...page.broadcasts.filter((b) => !shown.some((s) => s.id === b.id)),
      ]);
      setHasMore(page.has_more);
    } catch (error) {
      toast.error("Error al cargar las difusiones", { description: errorMessage(error) });
    } finally {
      setLoadingMore(false);
    }
  }

  return { list, hasMore, loadingMore, loadMore };
}
