import { useCallback, useEffect, useRef, useState } from "react";
import { toastFailed } from "~/lib/outcome";
import {
  MESSAGE_PAGE_SIZE,
  type Message,
  type MessageEvent,
  type MessagePage,
  type MessageStatusEvent,
} from "../../../contracts/conversations";
import {
  MARK_READ_DELAY_MS,
  fetchNewestPage,
  mergeMessages,
  missedMoreThanAPage,
  upsertMessage,
} from "./thread";
import { useConversationChange } from "./actions";
import { ApiError, client, data } from "~/lib/api";
import { live } from "~/lib/live-store";
import { useRealtimeConnected } from "~/lib/realtime";
import { useLiveEvent } from "~/lib/use-live";

/**
 * A newest page with what events brought since it was asked for: newer copies of its messages,
 * and messages that arrived meanwhile (those of this conversation, within the page's time).
 */
function withLive(conversationId: string, page: MessagePage, asked: number) {
  const newer = live.messagesSince(asked);
  const oldest = page.has_more ? (page.messages[0]?.created_at ?? "") : "";
  const arrived = [...newer.values()].filter(
    (m) => m.conversation_id === conversationId && m.created_at >= oldest,
  );
  return mergeMessages(arrived, page.messages, [], newer);
}

/** A newest page read by a route loader, with the mark taken before it was asked for. */
export interface LoadedThread {
  conversationId: string;
  page: MessagePage;
  asked: number;
}

/** The newest page of a conversation, as a route loader reads it for `useMessageThread`. */
export async function loadThread(conversationId: string): Promise<LoadedThread> {
  const asked = live.mark();
  return { conversationId, page: await fetchNewestPage(conversationId), asked };
}

const olderPage = (conversationId: string, before: string) =>
  data(
    client.conversations[":id"].messages.$get({
      param: { id: conversationId },
      query: { before, limit: String(MESSAGE_PAGE_SIZE) },
    }),
  );

interface ThreadOptions {
  /** The newest page the route's loader already read (otherwise the thread reads it). */
  loaded?: LoadedThread;
  /** The conversation was marked read (the agent chats clear their unread badge). */
  onRead?: (conversationId: string) => void;
}

/**
 * One conversation's messages, oldest first, for the conversation screen and the agent chats:
 * the newest page, older pages on demand, live messages and statuses, a reconnection's
 * catch-up, marking read (at once, and 0.5 s after a customer writes), and following the
 * newest message. An answer for another conversation than the one shown is dropped.
 */
export function useMessageThread(conversationId: string, { loaded, onRead }: ThreadOptions = {}) {
  const seeded = loaded?.conversationId === conversationId ? loaded : undefined;
  const [thread, setThread] = useState(() => ({
    conversationId,
    messages: seeded ? withLive(conversationId, seeded.page, seeded.asked) : null,
    hasMore: seeded?.page.has_more ?? false,
  }));
  const [loadingOlder, setLoadingOlder] = useState(false);
  const shown = useRef(conversationId);
  shown.current = conversationId;
  const onReadRef = useRef(onRead);
  onReadRef.current = onRead;
  const bottom = useRef<HTMLDivElement>(null);

  // What is on screen belongs to this conversation, or is nothing yet.
  const messages = thread.conversationId === conversationId ? thread.messages : null;
  const hasMore = thread.conversationId === conversationId && thread.hasMore;

  // Marked read by the route's action (silent when it fails: the spec's rule).
  const { run } = useConversationChange();
  const runRef = useRef(run);
  runRef.current = run;
  const read = useCallback((id: string) => {
    void runRef
      .current({ intent: "read.mark", conversationId: id })
      .then((result) => result.ok && onReadRef.current?.(id));
  }, []);

  /** Lays a newest page over what is shown, if it is still this conversation's. */
  const showPage = useCallback(
    (id: string, page: MessagePage, asked: number, shownBefore: Message[] | null) => {
      if (shown.current !== id) return;
      const gap = shownBefore !== null && missedMoreThanAPage(shownBefore, page.messages);
      setThread((current) => {
        const base = current.conversationId === id ? (current.messages ?? []) : [];
        return {
          conversationId: id,
          messages: mergeMessages(base, withLive(id, page, asked), gap ? (shownBefore ?? []) : []),
          // Older pages already loaded still say whether there are more, unless a gap dropped them.
          hasMore: base.length === 0 || gap ? page.has_more : current.hasMore,
        };
      });
    },
    [],
  );

  // The first page: the loader's, or read here. Either way the conversation is marked read.
  const loadedRef = useRef(loaded);
  loadedRef.current = loaded;
  useEffect(() => {
    const fromLoader = loadedRef.current;
    if (fromLoader?.conversationId === conversationId) {
      showPage(conversationId, fromLoader.page, fromLoader.asked, null);
      read(conversationId);
      return;
    }
    const asked = live.mark();
    fetchNewestPage(conversationId).then(
      (page) => {
        showPage(conversationId, page, asked, null);
        if (shown.current === conversationId) read(conversationId);
      },
      (error: unknown) => {
        if (shown.current !== conversationId) return;
        setThread({ conversationId, messages: [], hasMore: false });
        if (!(error instanceof ApiError && error.status === 404))
          toastFailed("Error al cargar los mensajes", error);
      },
    );
  }, [conversationId, read, showPage]);

  // Follow the newest message; loading older ones leaves the view where it is.
  const newestId = messages?.at(-1)?.id;
  useEffect(() => {
    // A block body: Chromium's scrollIntoView may return a promise, not a cleanup.
    if (newestId) void bottom.current?.scrollIntoView({ block: "end" });
  }, [newestId]);

  /** A newer copy of a message on screen (the live store recorded the event's already). */
  const place = useCallback((message: Message) => {
    setThread((current) =>
      current.conversationId === message.conversation_id && current.messages
        ? { ...current, messages: upsertMessage(current.messages, message) }
        : current,
    );
  }, []);
  /** What this console's own send or reaction stored, recorded like an event's copy. */
  const upsert = useCallback(
    (message: Message) => {
      live.message(message);
      place(message);
    },
    [place],
  );

  useLiveEvent<MessageEvent>("new_message", ({ message, conversation }) => {
    if (conversation.id !== conversationId) return;
    place(message);
    setTimeout(() => {
      if (shown.current === conversation.id) read(conversation.id);
    }, MARK_READ_DELAY_MS);
  });
  useLiveEvent<MessageEvent>("message_sent", ({ message, conversation }) => {
    if (conversation.id === conversationId) place(message);
  });
  useLiveEvent<MessageStatusEvent>("message_status", ({ message }) => {
    if (message.conversation_id === conversationId) place(message);
  });

  // A socket (re)opened: what happened while none was open, merged into what is shown.
  useRealtimeConnected(async () => {
    if (messages === null) return; // still loading: that answer is fresh
    const id = conversationId;
    const asked = live.mark();
    try {
      showPage(id, await fetchNewestPage(id), asked, messages);
      if (shown.current === id) read(id);
    } catch {
      // The next event or reconnection brings the conversation up to date.
    }
  });

  async function loadOlder() {
    const oldest = messages?.[0];
    if (!oldest || loadingOlder) return;
    const id = conversationId;
    setLoadingOlder(true);
    try {
      const page = await olderPage(id, oldest.id);
      setThread((current) =>
        current.conversationId === id && current.messages
          ? {
              conversationId: id,
              messages: mergeMessages(current.messages, page.messages),
              hasMore: page.has_more,
            }
          : current,
      );
    } catch (error) {
      if (shown.current === id) toastFailed("Error al cargar los mensajes", error);
    } finally {
      setLoadingOlder(false);
    }
  }

  return { messages, hasMore, loadingOlder, loadOlder, upsert, bottom };
}
