import { Link } from "react-router";
import type { Conversation } from "../../../contracts/conversations";
import { useReplyActions } from "~/components/conversations/actions";
import { wroteInHistory } from "~/components/conversations/coexistence";
import { ReplyArea } from "~/components/conversations/reply-area";
import { contactHandle, contactLabel } from "~/components/conversations/selectors";
import { useAiDraft } from "~/components/conversations/use-ai-draft";
import { ThreadView } from "~/components/conversations/thread-view";
import { useMessageThread } from "~/components/conversations/use-message-thread";
import { useWindowClock } from "~/components/conversations/window-banner";

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
  const thread = useMessageThread(id, { onRead });

  const [aiDraft, setAiDraft] = useAiDraft(id, conversation.ai_draft);
  const actions = useReplyActions(id, thread.upsert);

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
      <ThreadView thread={thread} actions={actions} windowOpen={windowOpen} />
      <ReplyArea
        key={id}
        actions={actions}
        window={{ expiresAt, open: windowOpen, now, historyOnly: wroteInHistory(thread.messages) }}
        suggestion={{ conversationId: id, aiDraft, onChange: setAiDraft }}
      />
    </section>
  );
}
