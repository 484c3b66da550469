import { useCallback, useEffect, useRef, useState } from "react";
import { Link, useNavigate, useParams } from "react-router";
import { toast } from "sonner";
import {
  MESSAGE_PAGE_SIZE,
  type AiDraft,
  type Conversation,
  type ConversationDetail,
  type ConversationEvent,
  type Message,
  type MessageEvent,
  type MessagePage,
  type MessageStatusEvent,
} from "../../worker/conversations/contract";
import type { QuickReply } from "../../worker/conversations/quick-replies-contract";
import type { Suggestion } from "../../worker/sales/contract";
import {
  MARK_READ_DELAY_MS,
  changeAgent,
  changeStatus,
  fetchNewestPage,
  updateConversation,
  markRead,
  mergeMessages,
  missedMoreThanAPage,
  replyActions,
  upsertMessage,
} from "~/components/conversations/actions";
import { ContactNameEditor } from "~/components/conversations/contact-name";
import { MessageList } from "~/components/conversations/message-list";
import { ReplyArea } from "~/components/conversations/reply-area";
import { useWindowClock } from "~/components/conversations/window-banner";
import {
  AgentSelect,
  contactLabel,
  PrioritySelect,
  StatusBadge,
  StatusSelect,
  useAgents,
} from "~/components/conversations/selectors";
import { SalesPanel } from "~/components/sales/sales-panel";
import { StageBadge, StageSelect } from "~/components/sales/stage";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { ApiError, api, errorMessage } from "~/lib/api";
import { liveCopies } from "~/lib/live-copies";
import { useRealtimeConnected } from "~/lib/realtime";
import { useRealtimeEvent } from "~/lib/use-realtime-event";

export const meta = () => [{ title: "Conversación — Atiende" }];

/** A `conversation_update` may carry what Meta just detected in the chat. */
type ConversationUpdateEvent = ConversationEvent & { suggestion?: Suggestion };

/** The detail shown with a newer copy of the conversation, and a new suggestion if any. */
function withUpdate(current: ConversationDetail, c: Conversation, suggestion?: Suggestion) {
  const known = !suggestion || current.suggestions.some((s) => s.id === suggestion.id);
  return {
    ...current,
    ...c,
    suggestions: known ? current.suggestions : [suggestion, ...current.suggestions],
  };
}

export default function ConversationScreen() {
  const { conversationId = "" } = useParams();
  const navigate = useNavigate();
  const agents = useAgents();
  const [conversation, setConversation] = useState<ConversationDetail | null>(null);
  const [messages, setMessages] = useState<Message[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [missing, setMissing] = useState(false);
  const bottom = useRef<HTMLDivElement>(null);
  const [quickReplies, setQuickReplies] = useState<QuickReply[]>([]);
  const expiresAt = conversation?.window_expires_at ?? null;
  const { open: windowOpen, now } = useWindowClock(expiresAt);

  useEffect(() => {
    api.get<QuickReply[]>("/quick-replies").then(setQuickReplies, () => setQuickReplies([]));
  }, []);

  // What events brought, so that a page read before them does not undo them.
  const [live] = useState(liveCopies<Message>);

  const load = useCallback(async () => {
    const asked = live.mark();
    try {
      const [c, page] = await Promise.all([
        api.get<ConversationDetail>(`/conversations/${conversationId}`),
        fetchNewestPage(conversationId),
      ]);
      setConversation(c);
      setMessages((current) =>
        mergeMessages(
          current.filter((m) => m.conversation_id === conversationId),
          page.messages,
          [],
          live.since(asked),
        ),
      );
      setHasMore(page.has_more);
      void markRead(conversationId);
    } catch (error) {
      if (error instanceof ApiError && error.status === 404) return setMissing(true);
      toast.error("Error al cargar la conversación", { description: errorMessage(error) });
      navigate("/conversations");
    }
  }, [conversationId, navigate, live]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    // A block body: Chromium's scrollIntoView now returns a promise, not a cleanup.
    void bottom.current?.scrollIntoView({ block: "end" });
  }, [messages.length]);

  async function loadOlder() {
    const oldest = messages[0];
    if (!oldest) return;
    try {
      const page = await api.get<MessagePage>(
        `/conversations/${conversationId}/messages?before=${oldest.id}&limit=${MESSAGE_PAGE_SIZE}`,
      );
      setMessages((current) => [...page.messages, ...current]);
      setHasMore(page.has_more);
    } catch (error) {
      toast.error("Error al cargar los mensajes", { description: errorMessage(error) });
    }
  }

  const upsert = (message: Message) => {
    live.record(message);
    setMessages((current) => upsertMessage(current, message));
  };
  /** A newer copy of the conversation (an event, an edit): the detail's extras stay. */
  const show = (c: Conversation | null, suggestion?: Suggestion) => {
    if (c) setConversation((current) => current && withUpdate(current, c, suggestion));
  };

  useRealtimeEvent<MessageEvent>("new_message", ({ message, conversation: c }) => {
    if (c.id !== conversationId) return;
    upsert(message);
    show(c);
    setTimeout(() => void markRead(conversationId), MARK_READ_DELAY_MS);
  });
  useRealtimeEvent<MessageEvent>("message_sent", ({ message, conversation: c }) => {
    if (c.id !== conversationId) return;
    upsert(message);
    show(c);
  });
  useRealtimeEvent<MessageStatusEvent>("message_status", ({ message }) => {
    if (message.conversation_id === conversationId) upsert(message);
  });
  useRealtimeEvent<ConversationUpdateEvent>(
    "conversation_update",
    ({ conversation: c, suggestion }) => {
      if (c.id === conversationId) show(c, suggestion);
    },
  );

  /** The AI's suggestion arrived, was asked for, or went ("Sugerencia de IA"). */
  const showDraft = (draft: AiDraft | null) =>
    setConversation((current) => current && { ...current, ai_draft: draft });
  useRealtimeEvent<{ conversation_id: string; draft: AiDraft }>("draft_ready", (event) => {
    if (event.conversation_id === conversationId) showDraft(event.draft);
  });

  // A socket (re)opened: what happened while none was open, merged into what is shown.
  useRealtimeConnected(async () => {
    const shown = messages;
    const asked = live.mark();
    try {
      const [c, page] = await Promise.all([
        api.get<ConversationDetail>(`/conversations/${conversationId}`),
        fetchNewestPage(conversationId),
      ]);
      const gap = missedMoreThanAPage(shown, page.messages);
      setConversation(c);
      setMessages((current) =>
        mergeMessages(current, page.messages, gap ? shown : [], live.since(asked)),
      );
      if (gap) setHasMore(page.has_more);
      if (c.unread_count > 0) void markRead(conversationId);
    } catch {
      // The next event or reconnection brings the conversation up to date.
    }
  });

  const actions = replyActions(conversationId, upsert);

  if (missing) {
    return (
      <section className="mx-auto max-w-md rounded-xl border border-slate-200 bg-white p-8 text-center">
        <h1 className="text-xl font-semibold">Conversación no encontrada</h1>
        <Link
          to="/conversations"
          className="mt-4 inline-block rounded-lg bg-emerald-700 px-4 py-2 text-sm font-medium text-white"
        >
          Volver a conversaciones
        </Link>
      </section>
    );
  }
  if (!conversation) return <Spinner />;

  return (
    <section className="flex h-[calc(100vh-8rem)] flex-col overflow-hidden rounded-xl border border-slate-200 bg-slate-100 lg:h-[calc(100vh-4rem)]">
      <header className="flex flex-wrap items-center gap-3 border-b border-slate-200 bg-white p-4">
        <div className="min-w-0 flex-1">
          <ContactNameEditor
            name={conversation.contact_name}
            label={contactLabel(conversation)}
            onSave={async (contact_name) =>
              show(await updateConversation(conversation.id, { contact_name }))
            }
          />
          {conversation.contact_name && (
            <p className="text-sm text-slate-500">+{conversation.phone_number}</p>
          )}
        </div>
        <StatusBadge status={conversation.status} />
        <StageBadge stage={conversation.stage} />
        <StatusSelect
          label="Estado"
          value={conversation.status}
          onChange={async (status) => show(await changeStatus(conversation.id, status))}
        />
        <StageSelect
          label="Etapa"
          value={conversation.stage}
          onChange={async (stage) => show(await updateConversation(conversation.id, { stage }))}
        />
        <PrioritySelect
          label="Prioridad"
          value={conversation.priority}
          onChange={async (priority) =>
            show(await updateConversation(conversation.id, { priority }))
          }
        />
        <AgentSelect
          label="Agente asignado"
          value={conversation.agent_id}
          agents={agents}
          onChange={async (a) => show(await changeAgent(conversation.id, a))}
        />
      </header>
      {conversation.ai_error && (
        <p role="alert" className="bg-amber-50 px-4 py-2 text-sm text-amber-800">
          La IA no pudo responder: {conversation.ai_error}
        </p>
      )}
      <div className="flex min-h-0 flex-1 flex-col lg:flex-row">
        <SalesPanel
          conversation={conversation}
          onChange={(update) => setConversation((c) => c && update(c))}
        />
        <div className="flex min-h-0 flex-1 flex-col lg:order-first">
          <div className="flex-1 overflow-y-auto p-4">
            {hasMore && (
              <div className="mb-3 text-center">
                <Button variant="secondary" onClick={() => void loadOlder()}>
                  Cargar mensajes anteriores
                </Button>
              </div>
            )}
            <MessageList messages={messages} actions={actions} windowOpen={windowOpen} />
            <div ref={bottom} />
          </div>
          <ReplyArea
            key={conversationId}
            actions={actions}
            window={{ expiresAt, open: windowOpen, now }}
            quickReplies={quickReplies}
            suggestion={{ conversationId, aiDraft: conversation.ai_draft, onChange: showDraft }}
          />
        </div>
      </div>
    </section>
  );
}
