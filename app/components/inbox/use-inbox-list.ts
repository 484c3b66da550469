import { useEffect, useRef, useState } from "react";
import type { Conversation, ConversationList } from "../../../worker/conversations/contract";
import { useAuth } from "~/lib/auth";
import { patchList, type InboxFilters } from "~/lib/inbox";
import { live } from "~/lib/live-store";
import { useRealtimeConnected } from "~/lib/realtime";
import { useCoalescedRevalidate } from "~/lib/use-coalesced-revalidate";
import { useLiveConversations } from "~/lib/use-live-conversations";
import { useRealtimeEvent } from "~/lib/use-realtime-event";

/** Taken as the inbox's list is read: what the live store records after it is laid over it. */
export const markInboxRead = () => live.mark();

/** What the route's loader read: the page, the filters it was read with, and its mark. */
interface LoadedList {
  list: ConversationList | null;
  filters: InboxFilters;
  asked: number;
}

/**
 * The page on screen: the loader's, patched by realtime events and by the row selects
 * (`replace`). A change that may move rows in or out of the page reloads it, coalesced.
 */
export function useInboxList(loaded: LoadedList) {
  const me = useAuth().user?.id;
  const revalidate = useCoalescedRevalidate();
  const [list, setList] = useState(loaded.list);
  // Read by event handlers, which may run several times before the next render.
  const listRef = useRef(list);
  useEffect(() => {
    let next = loaded.list;
    for (const { conversation, newMessage } of live.conversationsSince(loaded.asked)) {
      if (next) next = patchList(next, loaded.filters, conversation, { newMessage, me }).list;
    }
    listRef.current = next;
    setList(next);
  }, [loaded, me]);

  /** The page on screen with the store's newest copy of `conversation` placed in it. */
  const patch = (conversation: Conversation, newMessage: boolean) => {
    const current = listRef.current;
    if (!current) return revalidate();
    const patched = patchList(current, loaded.filters, live.newest(conversation), {
      newMessage,
      me,
    });
    listRef.current = patched.list;
    setList(patched.list);
    if (patched.stale) revalidate();
  };
  useRealtimeConnected(revalidate);
  // An imported history fills conversations without an event each: the page is read again
  // as the import moves on (a burst of chunks costs a read or two).
  useRealtimeEvent("import_progress", revalidate);
  useLiveConversations((conversation, { newMessage }) => patch(conversation, newMessage));

  /** A row this screen changed (its selects): shown now and kept for the next reload. */
  const replace = (updated: Conversation | null) => {
    if (updated) patch(live.conversation(updated), false);
  };
  return { list, replace, revalidate };
}
