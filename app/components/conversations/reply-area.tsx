import { useState } from "react";
import type { AiDraft, ConversationBilling, Message } from "../../../worker/conversations/contract";
import type { QuickReply } from "../../../worker/conversations/quick-replies-contract";
import type { ReplyActions } from "./actions";
import { Composer, TemplateOnlyComposer } from "./composer";
import { DraftSuggestion, useDraftInComposer } from "./draft-suggestion";
import { WindowBanner } from "./window-banner";
import { NoteComposer } from "~/components/team/note-composer";

interface ReplyAreaProps {
  actions: ReplyActions;
  /** The 24-hour window, from `useWindowClock`. */
  window: { expiresAt: string | null; open: boolean; now: number };
  /** What Meta bills for the conversation, shown beside the window. */
  billing?: ConversationBilling;
  quickReplies?: QuickReply[];
  /** Given in a conversation: its AI suggestion ("Sugerencia de IA", "Sugerir respuesta"). */
  suggestion?: {
    conversationId: string;
    aiDraft: AiDraft | null;
    onChange: (draft: AiDraft | null) => void;
  };
  /** Given in a conversation: "Nota interna", a note for the team instead of a reply. */
  notes?: { conversationId: string; onWritten: (note: Message) => void };
}

const modeClass = (on: boolean) =>
  `rounded-md px-3 py-1 text-xs font-medium ${on ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900"}`;

/**
 * Below a conversation's messages: the window line, then the composer (text, files,
 * templates), or only the template picker once the window has closed.
 */
export function ReplyArea({
  actions,
  window,
  billing,
  quickReplies,
  suggestion,
  notes,
}: ReplyAreaProps) {
  // Kept here, not in the composer: a draft survives the window closing and reopening.
  const [draft, setDraft] = useState("");
  const [noting, setNoting] = useState(false);
  const ai = useDraftInComposer(suggestion?.aiDraft ?? null, draft, setDraft);
  const modes = notes && (
    <div role="group" aria-label="Modo del editor" className="flex gap-1 bg-slate-100 px-3 pt-2">
      <button
        type="button"
        aria-pressed={!noting}
        className={modeClass(!noting)}
        onClick={() => setNoting(false)}
      >
        Responder
      </button>
      <button
        type="button"
        aria-pressed={noting}
        className={modeClass(noting)}
        onClick={() => setNoting(true)}
      >
        Nota interna
      </button>
    </div>
  );
  if (notes && noting) {
    return (
      <>
        {modes}
        <NoteComposer {...notes} />
      </>
    );
  }
  return (
    <>
      {modes}
      <WindowBanner
        expiresAt={window.expiresAt}
        open={window.open}
        now={window.now}
        billing={billing}
      />
      {window.open && suggestion && (
        <DraftSuggestion {...suggestion} inComposer={ai.fromDraft} onUse={ai.takeDraft} />
      )}
      {window.open ? (
        <Composer
          text={draft}
          onTextChange={setDraft}
          onSend={(text) => actions.send(text, ai.fromDraft)}
          onSendTemplate={actions.sendTemplate}
          onAttach={actions.sendFile}
          quickReplies={quickReplies}
        />
      ) : (
        <TemplateOnlyComposer onSendTemplate={actions.sendTemplate} />
      )}
    </>
  );
}
