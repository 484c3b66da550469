import { useState } from "react";
import type { AiDraft, ConversationBilling } from "../../../worker/conversations/contract";
import type { QuickReply } from "../../../worker/conversations/quick-replies-contract";
import type { ReplyActions } from "./actions";
import { Composer, TemplateOnlyComposer } from "./composer";
import { DraftSuggestion, useDraftInComposer } from "./draft-suggestion";
import { WindowBanner } from "./window-banner";

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
}

/**
 * Below a conversation's messages: the window line, then the composer (text, files,
 * templates), or only the template picker once the window has closed.
 */
export function ReplyArea({ actions, window, billing, quickReplies, suggestion }: ReplyAreaProps) {
  // Kept here, not in the composer: a draft survives the window closing and reopening.
  const [draft, setDraft] = useState("");
  const ai = useDraftInComposer(suggestion?.aiDraft ?? null, draft, setDraft);
  return (
    <>
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
