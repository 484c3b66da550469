import { useState } from "react";
import type { QuickReply } from "../../../worker/conversations/quick-replies-contract";
import { Button } from "~/components/ui/button";

interface ComposerProps {
  onSend: (text: string) => Promise<boolean>;
  disabled?: boolean;
  /** Saved answers offered when the text starts with "/". */
  quickReplies?: QuickReply[];
}

/** Enter sends, Shift+Enter starts a new line; blank text is ignored; "/" offers quick replies. */
export function Composer({ onSend, disabled, quickReplies = [] }: ComposerProps) {
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);

  const typed = /^\/(\S*)$/.exec(text)?.[1]?.toLowerCase();
  const suggestions =
    typed === undefined ? [] : quickReplies.filter((r) => r.shortcut.startsWith(typed)).slice(0, 6);

  async function send() {
    const content = text.trim();
    if (!content || sending) return;
    setSending(true);
    if (await onSend(content)) setText("");
    setSending(false);
  }

  return (
    <form
      className="relative flex items-end gap-2 border-t border-slate-200 bg-white p-3"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
      {suggestions.length > 0 && (
        <ul
          role="listbox"
          aria-label="Respuestas rápidas"
          className="absolute bottom-full left-3 mb-1 w-80 max-w-[90%] overflow-hidden rounded-lg border border-slate-200 bg-white shadow-lg"
        >
          {suggestions.map((reply, index) => (
            <li key={reply.id} role="option" aria-selected={index === 0}>
              <button
                type="button"
                onClick={() => setText(reply.content)}
                className={`block w-full px-3 py-2 text-left text-sm hover:bg-emerald-50 ${index === 0 ? "bg-slate-50" : ""}`}
              >
                <span className="font-medium text-emerald-700">/{reply.shortcut}</span>
                <span className="block truncate text-slate-600">{reply.content}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      <label className="sr-only" htmlFor="composer">
        Escribe un mensaje
      </label>
      <textarea
        id="composer"
        rows={2}
        value={text}
        disabled={disabled}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => {
          if (e.key !== "Enter" || e.shiftKey) return;
          e.preventDefault();
          // With suggestions open, Enter picks the first one instead of sending "/…".
          if (suggestions[0]) setText(suggestions[0].content);
          else void send();
        }}
        placeholder="Escribe un mensaje… (Enter envía, Mayús+Enter nueva línea, / respuestas rápidas)"
        className="flex-1 resize-none rounded-lg border border-slate-300 px-3 py-2 text-sm disabled:bg-slate-100"
      />
      <Button type="submit" disabled={disabled || sending || !text.trim()}>
        Enviar
      </Button>
    </form>
  );
}
