import type { Message } from "../../../worker/conversations/contract";
import { formatMessageTime } from "~/lib/format";
import { MESSAGE_MARKS } from "./labels";

/** One message: customer's on the left, the team's and the bot's on the right. */
export function MessageBubble({ message }: { message: Message }) {
  const outbound = message.direction === "outbound";
  const mark = MESSAGE_MARKS[message.status] ?? {
    symbol: "○",
    label: message.status === "failed" ? "Error" : "Enviando",
  };
  return (
    <li className={`flex ${outbound ? "justify-end" : "justify-start"}`}>
      <div
        className={`max-w-[80%] rounded-2xl px-3 py-2 text-sm shadow-sm ${outbound ? "bg-emerald-600 text-white" : "bg-white text-slate-900"}`}
      >
        {message.sender_type === "bot" && (
          <p className="mb-1 text-xs font-semibold opacity-80">Agente IA</p>
        )}
        <p className="whitespace-pre-wrap break-words">{message.content}</p>
        {message.reactions.length > 0 && (
          <p className="mt-1 text-base" aria-label="Reacciones">
            {message.reactions.map((r) => r.emoji).join(" ")}
          </p>
        )}
        <p
          className={`mt-1 flex items-center justify-end gap-1 text-[11px] ${outbound ? "text-emerald-100" : "text-slate-400"}`}
        >
          <time dateTime={message.created_at}>{formatMessageTime(message.created_at)}</time>
          {outbound && (
            <span title={mark.label} aria-label={mark.label}>
              {mark.symbol}
            </span>
          )}
        </p>
        {message.status === "failed" && message.error && (
          <p className="mt-1 rounded bg-red-50 px-2 py-1 text-xs text-red-700">{message.error}</p>
        )}
      </div>
    </li>
  );
}
