import { useState } from "react";
import type { AiDraft, ConversationEvent, MessageEvent } from "../../../contracts/conversations";
import { useLiveEvent } from "~/lib/use-live";

/**
 * A conversation's AI suggestion ("Sugerencia de IA"), for the conversation screen and the agent
 * chats: the one it was loaded with, then what `draft_ready` brings, what every newer copy of
 * the conversation says (a send or a new customer message retires it on the server) and what
 * the person does with it (ask, discard).
 */
export function useAiDraft(conversationId: string, loaded: AiDraft | null) {
  const [state, setState] = useState({ conversationId, draft: loaded });
  const draft = state.conversationId === conversationId ? state.draft : loaded;
  const setDraft = (next: AiDraft | null) => setState({ conversationId, draft: next });

  const fromCopy = ({
    conversation,
  }: {
    conversation: { id: string; ai_draft: AiDraft | null };
  }) => {
    if (conversation.id === conversationId) setDraft(conversation.ai_draft);
  };
  useLiveEvent<MessageEvent>("new_message", fromCopy);
  useLiveEvent<MessageEvent>("message_sent", fromCopy);
  useLiveEvent<ConversationEvent>("conversation_update", fromCopy);
  useLiveEvent<{ conversation_id: string; draft: AiDraft }>("draft_ready", (event) => {
    if (event.conversation_id === conversationId) setDraft(event.draft);
  });
  return [draft, setDraft] as const;
}
