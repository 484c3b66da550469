import { useState } from "react";
import { Button } from "~/components/ui/button";

/** Enter sends, Shift+Enter starts a new line; blank text is ignored. */
export function Composer({
  onSend,
  disabled,
}: {
  onSend: (text: string) => Promise<boolean>;
  disabled?: boolean;
}) {
  const [text, setText] = useState("");
  const [sending, setSending] = useState(false);

  async function send() {
    const content = text.trim();
    if (!content || sending) return;
    setSending(true);
    if (await onSend(content)) setText("");
    setSending(false);
  }

  return (
    <form
      className="flex items-end gap-2 border-t border-slate-200 bg-white p-3"
      onSubmit={(e) => {
        e.preventDefault();
        void send();
      }}
    >
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
          if (e.key === "Enter" && !e.shiftKey) {
            e.preventDefault();
            void send();
          }
        }}
        placeholder="Escribe un mensaje… (Enter envía, Mayús+Enter nueva línea)"
        className="flex-1 resize-none rounded-lg border border-slate-300 px-3 py-2 text-sm disabled:bg-slate-100"
      />
      <Button type="submit" disabled={disabled || sending || !text.trim()}>
        Enviar
      </Button>
    </form>
  );
}
