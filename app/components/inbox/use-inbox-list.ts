import { useEffect, useMemo } from "react";
import type { Conversation, ConversationList } from "../../../contracts/conversations";
import { useAuth } from "~/lib/auth";
import { patchList, type InboxFilters } from "~/lib/inbox";
import { live } from "~/lib/live-store";
import { useRealtimeConnected } from "~/lib/realtime";
import { useCoalescedRevalidate } from "~/lib/use-coalesced-revalidate";
import { useLiveEvent, useLiveVersion } from "~/lib/use-live";

/** Taken as the inbox's list is read: what the live store records after it is laid over it. */
export const markInboxRead = () => live.mark();

/** What the route's loader read: the page, the filters it was read with, and its mark. */
interface LoadedList {
  list: ConversationList | null;
  filters: InboxFilters;
  asked: number;
}

/**
 * The page on screen: the loader's, with the live store's newer copies laid over it (realtime
 * events, and the rows this screen changed: `replace`), read again at each copy recorded. A
 * copy that may move rows in or out of the page reloads it, coalesced.
 */
export function useInboxList(loaded: LoadedList) {
  const me = useAuth().user?.id;
  const readAgain = useCoalescedRevalidate();
  const version = useLiveVersion();
  const { list, stale } = useMemo(() => {
    let next = loaded.list;
    let stale = false;
    for (const { conversation, newMessage } of live.conversationsSince(loaded.asked)) {
      if (!next) break;
      const patched = patchList(next, loaded.filters, conversation, { newMessage, me });
      next = patched.list;
      stale ||= patched.stale;
    }
    return { list: next, stale: stale || (!next && version > loaded.asked) };
    // `version` is what changes when the store records a copy.
  }, [loaded, me, version]);
  useEffect(() => {
    if (stale) readAgain();
  }, [stale, version, readAgain]);
  useRealtimeConnected(readAgain);
  // An imported history fills conversations without an event each: the page is read again
  // as the import moves on (a burst of chunks costs a read or two).
  useLiveEvent("import_progress", readAgain);

  /** A row this screen changed (its selects): recorded, so the page shows it and keeps it. */
  const replace = (updated: Conversation | null) => {
    if (updated) live.conversation(updated);
  };
  return { list, replace };
}
