import { useState } from "react";
import type {
  AiDraft,
  ConversationEvent,
  MessageEvent,
} from "../../../worker/conversations/contract";
import { useRealtimeEvent } from "~/lib/use-realtime-event";

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
  useRealtimeEvent<MessageEvent>("new_message", fromCopy);
  useRealtimeEvent<MessageEvent>("message_sent", fromCopy);
  useRealtimeEvent<ConversationEvent>("conversation_update", fromCopy);
  useRealtimeEvent<{ conversation_id: string; draft: AiDraft }>("draft_ready", (event) => {
    if (event.conversation_id === conversationId) setDraft(event.draft);
  });
  return [draft, setDraft] as const;
}
