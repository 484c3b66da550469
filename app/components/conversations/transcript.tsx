import type { Message } from "../../../contracts/conversations";
import { RetryButton } from "./retry-button";

/**
 * What a customer's voice note says, under its player: "Transcribiendo…" while the model
 * works, the words once done, and why not when it failed (the audio itself stays playable).
 * The transcript arrives live with the message's `message_status` event.
 */
export function Transcript({
  message,
  onRetry,
}: {
  message: Message;
  /** Given where the team can ask for it again once it failed. */
  onRetry?: () => Promise<unknown>;
}) {
  switch (message.transcript_status) {
    case "pending":
      return (
        <p role="status" className="mb-1 text-xs text-slate-600 italic">
          Transcribiendo…
        </p>
      );
    case "done":
      return (
        <div className="mb-1 rounded-lg bg-slate-100 px-2 py-1">
          <p className="text-xs font-medium text-slate-700">Transcripción</p>
          <p className="whitespace-pre-wrap text-slate-900">{message.transcript}</p>
        </div>
      );
    case "failed":
      return (
        <div className="mb-1 flex items-center gap-2 text-xs text-red-700">
          <p className="flex-1">
            No se pudo transcribir: {message.transcript_error ?? "error desconocido"}
          </p>
          {onRetry && <RetryButton onRetry={onRetry} label="Reintentar transcripción" />}
        </div>
      );
    default:
      return null;
  }
}
