import { useState } from "react";
import type { AiDraft, Message } from "../../../contracts/conversations";
import type { QuickReply } from "../../../contracts/quick-replies";
import type { ReplyActions } from "./actions";
import { Composer, TemplateOnlyComposer } from "./composer";
import {
  DraftSuggestion,
  SuggestButton,
  useDraftInComposer,
  useSuggestionRequests,
} from "./draft-suggestion";
import { WindowBanner } from "./window-banner";
import { NoteComposer } from "~/components/team/note-composer";

interface ReplyAreaProps {
  actions: ReplyActions;
  /** The 24-hour window, from `useWindowClock`. */
  /** `historyOnly`: the customer's messages all came with the app's history (no window). */
  window: { expiresAt: string | null; open: boolean; now: number; historyOnly: boolean };
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
  `whitespace-nowrap rounded-md px-2.5 py-1 text-xs font-medium ${on ? "bg-white text-slate-900 shadow-sm" : "text-slate-600 hover:text-slate-900"}`;

/**
 * Below a conversation's messages, in as little height as it takes: one line with
 * "Responder" / "Nota interna" and "Sugerir respuesta", the window line, the AI's suggestion
 * when there is one, then the composer (text, files, templates), or only the template picker
 * once the window has closed.
 */
export function ReplyArea({ actions, window, quickReplies, suggestion, notes }: ReplyAreaProps) {
  // Kept here, not in the composer: a draft survives the window closing and reopening.
  const [draft, setDraft] = useState("");
  const [noting, setNoting] = useState(false);
  const aiDraft = suggestion?.aiDraft ?? null;
  const ai = useDraftInComposer(aiDraft, draft, setDraft);
  const requests = useSuggestionRequests(
    suggestion?.conversationId,
    suggestion?.onChange ?? (() => undefined),
  );
  const replying = !(notes && noting);
  const canSuggest = replying && window.open && suggestion !== undefined && aiDraft === null;

  const line = (notes || canSuggest) && (
    <div className="flex items-center gap-2 px-3 pt-2">
      {notes && (
        <div
          role="group"
          aria-label="Modo del editor"
          className="flex gap-1 rounded-lg bg-slate-100 p-0.5"
        >
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
      )}
      {canSuggest && (
        <div className="ml-auto">
          <SuggestButton requests={requests} />
        </div>
      )}
    </div>
  );

  return (
    <div className="border-t border-slate-200 bg-white">
      {line}
      {notes && noting ? (
        <NoteComposer {...notes} />
      ) : (
        <>
          <WindowBanner {...window} />
          {window.open && aiDraft && (
            <DraftSuggestion
              aiDraft={aiDraft}
              inComposer={ai.fromDraft}
              onUse={ai.takeDraft}
              requests={requests}
            />
          )}
          {window.open ? (
            <Composer
              text={draft}
              onTextChange={setDraft}
              onSend={(text) => actions.send(text, ai.fromDraft)}
              sending={actions.sending !== null}
              onSendTemplate={actions.sendTemplate}
              onAttach={actions.sendFile}
              quickReplies={quickReplies}
            />
          ) : (
            <TemplateOnlyComposer onSendTemplate={actions.sendTemplate} />
          )}
        </>
      )}
    </div>
  );
}
