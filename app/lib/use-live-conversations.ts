import type { Conversation, ConversationEvent, MessageEvent } from "../../contracts/conversations";
import type { Suggestion } from "../../contracts/sales";
import { live } from "./live-store";
import { useLiveEvent } from "./use-live";

/** What came with a conversation's newer copy. */
export interface ConversationChange {
  /** It came with a message (received or sent): lists move it to the top. */
  newMessage: boolean;
  /** A purchase Meta detected in the chat, offered to confirm. */
  suggestion?: Suggestion;
}

/**
 * Calls `handler` with the newest copy of each conversation a realtime event brings (the live
 * store's, so a late event never hands over an older copy), while mounted: the one
 * subscription the screens that show conversations share.
 */
export function useLiveConversations(
  handler: (conversation: Conversation, change: ConversationChange) => void,
) {
  const withMessage = ({ conversation }: MessageEvent) =>
    handler(live.newest(conversation), { newMessage: true });
  useLiveEvent<MessageEvent>("new_message", withMessage);
  useLiveEvent<MessageEvent>("message_sent", withMessage);
  useLiveEvent<ConversationEvent & { suggestion?: Suggestion }>(
    "conversation_update",
    ({ conversation, suggestion }) =>
      handler(live.newest(conversation), { newMessage: false, suggestion }),
  );
}
