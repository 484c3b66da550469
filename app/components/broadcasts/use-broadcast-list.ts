import { useMemo, useState } from "react";
import { toastFailed } from "~/lib/outcome";
import type { Broadcast } from "../../../contracts/broadcasts";
import { client, data } from "~/lib/api";
import { live, olderBroadcast } from "~/lib/live-store";
import { useRealtimeConnected } from "~/lib/realtime";
import { useCoalescedRevalidate } from "~/lib/use-coalesced-revalidate";
import { useLiveVersion } from "~/lib/use-live";

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
 * The list on screen: the loader's first page and the pages "Cargar más" added, with the live
 * store's newer copies laid over them (`broadcast_update` events since `asked`, the store's
 * mark when the loader read it), read again at each copy recorded. A reconnection reads it
 * again (events may have been missed).
 */
export function useBroadcastList(loaded: { page: Page; asked: number }) {
  const revalidate = useCoalescedRevalidate();
  const version = useLiveVersion();
  // The pages added to this load of the list (a new load starts from its first page again).
  const [added, setAdded] = useState({ to: loaded, broadcasts: [] as Broadcast[], hasMore: true });
  const more = added.to === loaded ? added : { to: loaded, broadcasts: [], hasMore: true };
  const hasMore = loaded.page.has_more && more.hasMore;
  const [loadingMore, setLoadingMore] = useState(false);
  useRealtimeConnected(revalidate);

  const list = useMemo(() => {
    let next = [...loaded.page.broadcasts, ...more.broadcasts];
    for (const b of live.broadcastsSince(loaded.asked).values()) {
      next = placeBroadcast(next, b, !hasMore);
    }
    return next;
    // `version` is what changes when the store records a copy.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [loaded, more.broadcasts, hasMore, version]);

  async function loadMore() {
    setLoadingMore(true);
    try {
      const page = await readBroadcasts(list.at(-1)?.id);
      const shown = [...loaded.page.broadcasts, ...more.broadcasts];
      setAdded({
        to: loaded,
        broadcasts: [
          ...more.broadcasts,
          ...page.broadcasts.filter((b) => !shown.some((s) => s.id === b.id)),
        ],
        hasMore: page.has_more,
      });
    } catch (error) {
      toastFailed("Error al cargar las difusiones", error);
    } finally {
      setLoadingMore(false);
    }
  }

  return { list, hasMore, loadingMore, loadMore };
}
