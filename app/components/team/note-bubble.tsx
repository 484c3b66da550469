import type { Message } from "../../../contracts/conversations";
import { formatMessageTime } from "~/lib/format";
import { memberName, useTeam } from "./team";

/** An internal note in the thread: amber, across the middle, never sent to the customer. */
export function NoteBubble({ message }: { message: Message }) {
  const author = memberName(useTeam(), message.author_id);
  return (
    <li className="flex justify-center">
      <div className="w-full max-w-[90%] rounded-xl border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
        <p className="mb-1 text-xs font-semibold text-amber-900">
          Nota interna · {author ?? (message.author_id ? "Un miembro" : "Sistema")}
        </p>
        <p className="whitespace-pre-wrap break-words">{message.content}</p>
        <p className="mt-1 text-right text-[11px] text-amber-800">
          <time dateTime={message.created_at}>{formatMessageTime(message.created_at)}</time>
        </p>
      </div>
    </li>
  );
}
