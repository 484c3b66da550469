import type { Message } from "../../../contracts/conversations";
import type { ReplyActions } from "./actions";
import { MessageBubble } from "./message-bubble";

/**
 * A conversation's messages, oldest first, for the conversation screen and the agent chats:
 * customers' messages can be reacted to while the window is open, failed sends retried (a
 * marketing one only while marketing to the customer is not held).
 */
export function MessageList({
  messages,
  actions,
  windowOpen,
  marketingHeld = false,
}: {
  messages: Message[];
  actions: ReplyActions;
  windowOpen: boolean;
  /** Marketing to the customer is held now (./marketing-retry.ts). */
  marketingHeld?: boolean;
}) {
  return (
    <ol className="space-y-2" aria-live="polite" aria-label="Mensajes">
      {messages.map((message) => (
        <MessageBubble
          key={message.id}
          message={message}
          onReact={windowOpen && message.direction === "inbound" ? actions.react : undefined}
          onRetry={actions.retry}
          marketingHeld={marketingHeld}
          onRetryTranscript={actions.retryTranscript}
        />
      ))}
    </ol>
  );
}
