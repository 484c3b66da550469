import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import type { ReplyActions } from "./actions";
import { MessageList } from "./message-list";
import type { useMessageThread } from "./use-message-thread";

/**
 * A conversation's thread as `useMessageThread` keeps it, for the conversation screen and the
 * agent chats: older messages on demand, the messages, and the newest one kept in view.
 */
export function ThreadView({
  thread: { messages, hasMore, loadingOlder, loadOlder, bottom },
  actions,
  windowOpen,
  marketingHeld,
}: {
  thread: ReturnType<typeof useMessageThread>;
  actions: ReplyActions;
  windowOpen: boolean;
  marketingHeld?: boolean;
}) {
  return (
    <div className="flex-1 overflow-y-auto p-4">
      {messages === null ? (
        <Spinner label="Cargando mensajes..." />
      ) : (
        <>
          {hasMore && (
            <div className="mb-3 text-center">
              <Button variant="secondary" disabled={loadingOlder} onClick={() => void loadOlder()}>
                Cargar mensajes anteriores
              </Button>
            </div>
          )}
          {messages.length === 0 && (
            <p className="py-8 text-center text-sm text-slate-500">Aún no hay mensajes.</p>
          )}
          <MessageList
            messages={messages}
            actions={actions}
            windowOpen={windowOpen}
            marketingHeld={marketingHeld}
          />
        </>
      )}
      <div ref={bottom} />
    </div>
  );
}
