import { useState } from "react";
import type { QuickReply } from "../../../worker/conversations/quick-replies-contract";
import type { ReplyActions } from "./actions";
import { Composer, TemplateOnlyComposer } from "./composer";
import { WindowBanner } from "./window-banner";

interface ReplyAreaProps {
  actions: ReplyActions;
  /** The 24-hour window, from `useWindowClock`. */
  window: { expiresAt: string | null; open: boolean; now: number };
  quickReplies?: QuickReply[];
}

/**
 * Below a conversation's messages: the window line, then the composer (text, files,
 * templates), or only the template picker once the window has closed.
 */
export function ReplyArea({ actions, window, quickReplies }: ReplyAreaProps) {
  // Kept here, not in the composer: a draft survives the window closing and reopening.
  const [draft, setDraft] = useState("");
  return (
    <>
      <WindowBanner expiresAt={window.expiresAt} open={window.open} now={window.now} />
      {window.open ? (
        <Composer
          text={draft}
          onTextChange={setDraft}
          onSend={actions.send}
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
