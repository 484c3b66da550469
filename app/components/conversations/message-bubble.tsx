import type { Message } from "../../../contracts/conversations";
import { NoteBubble } from "~/components/team/note-bubble";
import { formatMessageTime } from "~/lib/format";
import { AiSources } from "./ai-sources";
import { messageNotes, senderLabel } from "./coexistence";
import { MESSAGE_MARKS } from "./labels";
import { marketingKind } from "./marketing-retry";
import { hasMedia, MediaAttachment, mediaCaption } from "./media-attachment";
import { businessReaction, ReactionChips, ReactionPicker } from "./reaction-bar";
import { RetryButton } from "./retry-button";
import { Transcript } from "./transcript";

/**
 * Meta's refusals that sending again cannot mend: 131049 (its per-user marketing limit, which
 * must never be retried) and 131050 (the customer stopped marketing messages). Their reason is
 * shown, without "Reintentar".
 */
const NOT_RETRYABLE = new Set(["131049", "131050"]);

interface MessageBubbleProps {
  message: Message;
  /** Given when the team can react to this message (a customer's, inside the window). */
  onReact?: (message: Message, emoji: string) => Promise<void>;
  /** Sends a failed message again ("Reintentar"). */
  onRetry?: (message: Message) => Promise<unknown>;
  /** Marketing to this customer is held now: a marketing message is not offered "Reintentar". */
  marketingHeld?: boolean;
  /** Transcribes a voice note again whose transcript failed ("Reintentar transcripción"). */
  onRetryTranscript?: (message: Message) => Promise<unknown>;
}

/**
 * One message: customer's on the left, the team's, the bot's, the phone's and Meta's AI's on
 * the right. A deleted message keeps its place and time, nothing else: no content, no media,
 * no action.
 */
export function MessageBubble(props: MessageBubbleProps) {
  const { message } = props;
  if (message.direction === "internal") return <NoteBubble message={message} />;
  const { onReact, onRetryTranscript } = message.deleted ? {} : props;
  const onRetry =
    message.deleted ||
    NOT_RETRYABLE.has(message.error_code ?? "") ||
    (props.marketingHeld && marketingKind(message))
      ? undefined
      : props.onRetry;
  const outbound = message.direction === "outbound";
  const sender = senderLabel(message);
  const mark = MESSAGE_MARKS[message.status] ?? {
    symbol: "○",
    label: message.status === "failed" ? "Error" : "Enviando",
  };
  const media = !message.deleted && hasMedia(message);
  const text = media ? mediaCaption(message) : message.content;
  const notes = messageNotes(message);
  return (
    <li className={`flex flex-col ${outbound ? "items-end" : "items-start"}`}>
      <div
        className={`max-w-[80%] rounded-2xl px-3 py-2 text-sm shadow-sm ${outbound ? "bg-emerald-700 text-white" : "bg-white text-slate-900"}`}
      >
        {sender && (
          <p
            className={`mb-1 text-xs font-semibold ${outbound ? "text-emerald-50" : "text-slate-600"}`}
          >
            {sender}
          </p>
        )}
        {message.suggested_by_ai && (
          <p className="mb-1 text-xs font-semibold opacity-80">Sugerido por IA</p>
        )}
        {message.type === "template" && (
          <p className="mb-1 text-xs font-semibold opacity-80">Plantilla</p>
        )}
        {media && <MediaAttachment message={message} />}
        {media && (
          <Transcript
            message={message}
            onRetry={onRetryTranscript && (() => onRetryTranscript(message))}
          />
        )}
        {message.deleted ? (
          <p className="italic">Mensaje eliminado</p>
        ) : (
          text && <p className="whitespace-pre-wrap break-words">{text}</p>
        )}
        <p
          className={`mt-1 flex items-center justify-end gap-1 text-[11px] ${outbound ? "text-emerald-100" : "text-slate-500"}`}
        >
          {notes.length > 0 && <span className="italic">{notes.join(" · ")}</span>}
          <time dateTime={message.created_at}>{formatMessageTime(message.created_at)}</time>
          {outbound && (
            <span title={mark.label} aria-label={mark.label}>
              {mark.symbol}
            </span>
          )}
        </p>
        {message.status === "failed" && (message.error || onRetry) && (
          <div className="mt-1 flex items-center gap-2 rounded bg-red-50 px-2 py-1 text-xs text-red-700">
            {message.error && <p className="flex-1">{message.error}</p>}
            {outbound && onRetry && <RetryButton onRetry={() => onRetry(message)} />}
          </div>
        )}
      </div>
      {!message.deleted && <AiSources sources={message.ai_sources} />}
      {!message.deleted && (message.reactions.length > 0 || onReact) && (
        <div className="flex max-w-[80%] items-center gap-1">
          <ReactionChips reactions={message.reactions} />
          {onReact && (
            <ReactionPicker
              current={businessReaction(message.reactions)}
              onReact={(emoji) => onReact(message, emoji)}
            />
          )}
        </div>
      )}
    </li>
  );
}
