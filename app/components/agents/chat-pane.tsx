import { useEffect, useRef, useState } from "react";
import { Link } from "react-router";
import { toast } from "sonner";
import {
  MESSAGE_PAGE_SIZE,
  type Conversation,
  type Message,
  type MessageEvent,
  type MessagePage,
  type MessageStatusEvent,
} from "../../../worker/conversations/contract";
import {
  MARK_READ_DELAY_MS,
  fetchNewestPage,
  markRead,
  mergeMessages,
  missedMoreThanAPage,
  replyActions,
  upsertMessage,
} from "~/components/conversations/actions";
import { MessageList } from "~/components/conversations/message-list";
import { ReplyArea } from "~/components/conversations/reply-area";
import { contactLabel } from "~/components/conversations/selectors";
import { useWindowClock } from "~/components/conversations/window-banner";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { ApiError, api, errorMessage } from "~/lib/api";
import { useRealtimeConnected } from "~/lib/realtime";
import { useRealtimeEvent } from "~/lib/use-realtime-event";

/** The messages call answers a page, or (older servers) a bare array. */
const toPage = (data: MessagePage | Message[]): MessagePage =>
  Array.isArray(data) ? { messages: data, has_more: false, total: data.length } : data;

const oldestFirst = (messages: Message[]) =>
  [...messages].sort((a, b) => a.created_at.localeCompare(b.created_at));

interface ChatPaneProps {
  conversation: Conversation;
  /** Called when the pane marks the conversation read. */
  onRead: (conversationId: string) => void;
  ref?: React.Ref<HTMLElement>;
}

/** One conversation: its latest messages (oldest first), older ones on demand, and the composer. */
export function ChatPane({ conversation, onRead, ref }: ChatPaneProps) {
  const id = conversation.id;
  const expiresAt = conversation.window_expires_at;
  const { open: windowOpen, now } = useWindowClock(expiresAt);
  const [messages, setMessages] = useState<Message[] | null>(null);
  const [hasMore, setHasMore] = useState(false);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const bottom = useRef<HTMLDivElement>(null);
  const onReadRef = useRef(onRead);
  onReadRef.current = onRead;

  useEffect(() => {
    let current = true;
    setMessages(null);
    setHasMore(false);
    api
      .get<MessagePage | Message[]>(`/conversations/${id}/messages?limit=${MESSAGE_PAGE_SIZE}`)
      .then(
        (data) => {
          if (!current) return;
          const page = toPage(data);
          setMessages(oldestFirst(page.messages));
          setHasMore(page.has_more);
          void markRead(id).then((ok) => ok && onReadRef.current(id));
        },
        (error: unknown) => {
          if (!current) return;
          setMessages([]);
          if (!(error instanceof ApiError && error.status === 404))
            toast.error("Error al cargar los mensajes", { description: errorMessage(error) });
        },
      );
    return () => {
      current = false;
    };
  }, [id]);

  // Follow the newest message; loading older ones leaves the view where it is.
  const newestId = messages?.at(-1)?.id;
  useEffect(() => {
    // A block body: Chromium's scrollIntoView may return a promise, not a cleanup.
    if (newestId) void bottom.current?.scrollIntoView({ block: "end" });
  }, [newestId]);

  useRealtime(id, setMessages, () => onReadRef.current(id));

  // A socket (re)opened: what happened while none was open, merged into what is shown.
  useRealtimeConnected(async () => {
    if (messages === null) return; // still loading: that answer is fresh
    const shown = messages;
    try {
      const page = await fetchNewestPage(id);
      const gap = missedMoreThanAPage(shown, page.messages);
      setMessages((current) => mergeMessages(current ?? [], page.messages, gap ? shown : []));
      if (gap) setHasMore(page.has_more);
      void markRead(id).then((ok) => ok && onReadRef.current(id));
    } catch {
      // The next event or reconnection brings the conversation up to date.
    }
  });

  async function loadOlder() {
    const oldest = messages?.[0];
    if (!oldest || loadingOlder) return;
    setLoadingOlder(true);
    try {
      const page = toPage(
        await api.get<MessagePage | Message[]>(
          `/conversations/${id}/messages?before=${encodeURIComponent(oldest.id)}&limit=${MESSAGE_PAGE_SIZE}`,
        ),
      );
      setMessages((current) => [...oldestFirst(page.messages), ...(current ?? [])]);
      setHasMore(page.has_more);
    } catch (error) {
      toast.error("Error al cargar los mensajes", { description: errorMessage(error) });
    } finally {
      setLoadingOlder(false);
    }
  }

  const actions = replyActions(id, (message) =>
    setMessages((current) => upsertMessage(current ?? [], message)),
  );

  return (
    <section
      ref={ref}
      aria-label={`Conversación con ${contactLabel(conversation)}`}
      className="flex h-[70vh] min-h-[24rem] flex-col overflow-hidden rounded-xl border border-slate-200 bg-slate-100 lg:h-[calc(100vh-12rem)]"
    >
      <header className="flex items-center justify-between gap-3 border-b border-slate-200 bg-white p-4">
        <div className="min-w-0">
          <h2 className="truncate font-semibold text-slate-900">{contactLabel(conversation)}</h2>
          {conversation.contact_name && (
            <p className="text-sm text-slate-500">+{conversation.phone_number}</p>
          )}
        </div>
        <Link
          to={`/conversations/${id}`}
          className="shrink-0 text-sm font-medium text-emerald-700 hover:underline"
        >
          Abrir en Conversaciones
        </Link>
      </header>
      {conversation.ai_error && (
        <p role="alert" className="bg-amber-50 px-4 py-2 text-sm text-amber-800">
          La IA no pudo responder: {conversation.ai_error}
        </p>
      )}
      <div className="flex-1 overflow-y-auto p-4">
        {messages === null ? (
          <Spinner label="Cargando mensajes..." />
        ) : (
          <>
            {hasMore && (
              <div className="mb-3 text-center">
                <Button
                  variant="secondary"
                  disabled={loadingOlder}
                  onClick={() => void loadOlder()}
                >
                  Cargar mensajes anteriores
                </Button>
              </div>
            )}
            {messages.length === 0 && (
              <p className="py-8 text-center text-sm text-slate-500">Aún no hay mensajes.</p>
            )}
            <MessageList messages={messages} actions={actions} windowOpen={windowOpen} />
          </>
        )}
        <div ref={bottom} />
      </div>
      <ReplyArea actions={actions} window={{ expiresAt, open: windowOpen, now }} />
    </section>
  );
}

/** Live messages of one conversation; a customer's message is marked read shortly after. */
function useRealtime(
  conversationId: string,
  setMessages: React.Dispatch<React.SetStateAction<Message[] | null>>,
  onRead: () => void,
) {
  const upsert = (message: Message) =>
    setMessages((current) => (current ? upsertMessage(current, message) : current));

  useRealtimeEvent<MessageEvent>("new_message", ({ message, conversation }) => {
    if (conversation.id !== conversationId) return;
    upsert(message);
    setTimeout(
      () => void markRead(conversationId).then((ok) => ok && onRead()),
      MARK_READ_DELAY_MS,
    );
  });
  useRealtimeEvent<MessageEvent>("message_sent", ({ message, conversation }) => {
    if (conversation.id === conversationId) upsert(message);
  });
  useRealtimeEvent<MessageStatusEvent>("message_status", ({ message }) => {
    if (message.conversation_id === conversationId) upsert(message);
  });
}
