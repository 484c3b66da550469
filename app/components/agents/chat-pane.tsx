import { Link } from "react-router";
import type { Conversation } from "../../../worker/conversations/contract";
import { replyActions } from "~/components/conversations/actions";
import { MessageList } from "~/components/conversations/message-list";
import { ReplyArea } from "~/components/conversations/reply-area";
import { contactHandle, contactLabel } from "~/components/conversations/selectors";
import { useAiDraft } from "~/components/conversations/use-ai-draft";
import { useMessageThread } from "~/components/conversations/use-message-thread";
import { useWindowClock } from "~/components/conversations/window-banner";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";

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
  const { messages, hasMore, loadingOlder, loadOlder, upsert, bottom } = useMessageThread(id, {
    onRead,
  });

  const [aiDraft, setAiDraft] = useAiDraft(id, conversation.ai_draft);
  const actions = replyActions(id, upsert);

  return (
    <section
      ref={ref}
      aria-label={`Conversación con ${contactLabel(conversation)}`}
      className="flex h-[70vh] min-h-[24rem] flex-col overflow-hidden rounded-xl border border-slate-200 bg-slate-100 lg:h-[calc(100vh-12rem)]"
    >
      <header className="flex items-center justify-between gap-3 border-b border-slate-200 bg-white p-4">
        <div className="min-w-0">
          <h2 className="truncate font-semibold text-slate-900">{contactLabel(conversation)}</h2>
          {conversation.contact_name && contactHandle(conversation) && (
            <p className="text-sm text-slate-500">{contactHandle(conversation)}</p>
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
      <ReplyArea
        key={id}
        actions={actions}
        window={{ expiresAt, open: windowOpen, now }}
        suggestion={{ conversationId: id, aiDraft, onChange: setAiDraft }}
      />
    </section>
  );
}
