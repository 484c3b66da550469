import type { Conversation } from "../../../contracts/conversations";
import { contactLabel } from "~/components/conversations/selectors";
import { formatMessageTime } from "~/lib/format";

interface ContactListProps {
  conversations: Conversation[];
  selectedId: string | null;
  onSelect: (conversation: Conversation) => void;
}

/** An agent's conversations as contacts: name or phone, last message, unread count. */
export function ContactList({ conversations, selectedId, onSelect }: ContactListProps) {
  return (
    <ul
      aria-label="Contactos"
      className="max-h-72 divide-y divide-slate-200 overflow-y-auto rounded-xl border border-slate-200 bg-white lg:max-h-none"
    >
      {conversations.map((c) => {
        const selected = c.id === selectedId;
        return (
          <li key={c.id}>
            <button
              type="button"
              onClick={() => onSelect(c)}
              aria-current={selected ? "true" : undefined}
              className={`block w-full p-3 text-left focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-emerald-600 ${selected ? "bg-emerald-50" : "hover:bg-slate-50"}`}
            >
              <span className="flex items-center justify-between gap-2">
                <span className="truncate font-medium text-slate-900">{contactLabel(c)}</span>
                <time dateTime={c.last_message_at} className="shrink-0 text-xs text-slate-500">
                  {formatMessageTime(c.last_message_at)}
                </time>
              </span>
              <span className="mt-0.5 flex items-center justify-between gap-2">
                <span className="truncate text-sm text-slate-500">
                  {c.last_message ?? "Sin mensajes"}
                </span>
                {c.unread_count > 0 && (
                  <span className="shrink-0 rounded-full bg-emerald-700 px-2 text-xs font-medium text-white">
                    {c.unread_count}
                    <span className="sr-only"> sin leer</span>
                  </span>
                )}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}
