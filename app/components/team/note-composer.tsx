import { useState } from "react";
import type { Message } from "../../../contracts/conversations";
import { mentionText } from "../../../contracts/team-inbox";
import { foldText } from "../../../contracts/text";
import { useAutoGrow } from "~/components/conversations/use-auto-grow";
import { Button } from "~/components/ui/button";
import { useTeam } from "./team";
import { useConversationChange } from "~/components/conversations/actions";

/** The word being written when it starts with "@": what the member list is filtered by. */
const mentionAt = (text: string, caret: number) => /(?:^|\s)@([^\s@]*)$/.exec(text.slice(0, caret));

/**
 * "Nota interna": a note for the team, never sent to WhatsApp. Typing `@` offers the
 * organization's members (arrows choose, Enter or Tab inserts `@Nombre `, or the e-mail's
 * local part for a name two members share: what the server reads as exactly that member).
 */
export function NoteComposer({
  conversationId,
  onWritten,
}: {
  conversationId: string;
  onWritten: (note: Message) => void;
}) {
  const { members } = useTeam();
  const [text, setText] = useState("");
  const [caret, setCaret] = useState(0);
  const [active, setActive] = useState(0);
  const note = useConversationChange();
  const saving = note.busy;
  const box = useAutoGrow(text);

  const typing = mentionAt(text, caret);
  const query = foldText(typing?.[1] ?? "");
  const team = members.map((m) => ({ id: m.user_id, name: m.full_name, email: m.email }));
  const options = typing ? team.filter((m) => foldText(m.name).includes(query)).slice(0, 6) : [];

  function insert(member: (typeof team)[number]) {
    const name = mentionText(member, team);
    const start = caret - (typing?.[1]?.length ?? 0) - 1;
    const next = `${text.slice(0, start)}@${name} ${text.slice(caret)}`;
    setText(next);
    setCaret(start + name.length + 2);
    setActive(0);
  }

  async function save() {
    const content = text.trim();
    if (!content || saving) return;
    const result = await note.run({ intent: "note.write", conversationId, content });
    if (!result.ok || !result.message) return;
    setText("");
    onWritten(result.message);
  }

  return (
    <form
      aria-label="Nota interna"
      className="relative mt-2 flex items-end gap-2 border-t border-amber-200 bg-amber-50 p-3"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {options.length > 0 && (
        <ul
          role="listbox"
          aria-label="Mencionar a"
          className="absolute bottom-full left-3 mb-1 w-64 overflow-hidden rounded-lg border border-slate-200 bg-white shadow-lg"
        >
          {options.map((member, index) => (
            <li key={member.id} role="option" aria-selected={index === active}>
              <button
                type="button"
                onMouseDown={(e) => e.preventDefault()}
                onClick={() => insert(member)}
                className={`block w-full px-3 py-2 text-left text-sm hover:bg-amber-50 ${index === active ? "bg-amber-100" : ""}`}
              >
                {member.name}
                {mentionText(member, team) !== member.name.trim() && (
                  <span className="block text-xs text-slate-500">{member.email}</span>
                )}
              </button>
            </li>
          ))}
        </ul>
      )}
      <label className="sr-only" htmlFor="note-composer">
        Escribe una nota interna
      </label>
      <textarea
        id="note-composer"
        ref={box}
        rows={1}
        value={text}
        onChange={(e) => {
          setText(e.target.value);
          setCaret(e.target.selectionStart);
          setActive(0);
        }}
        onSelect={(e) => setCaret(e.currentTarget.selectionStart)}
        onKeyDown={(e) => {
          if (options.length > 0) {
            if (e.key === "ArrowDown" || e.key === "ArrowUp") {
              e.preventDefault();
              const step = e.key === "ArrowDown" ? 1 : -1;
              setActive((i) => (i + step + options.length) % options.length);
              return;
            }
            if (e.key === "Enter" || e.key === "Tab") {
              e.preventDefault();
              insert(options[active]!);
              return;
            }
          }
          if (e.key === "Enter" && !e.shiftKey) {
            e.preventDefault();
            void save();
          }
        }}
        placeholder="Nota para el equipo: el cliente no la ve (@ para mencionar)"
        className="flex-1 resize-none rounded-lg border border-amber-300 bg-white px-3 py-2 text-sm"
      />
      <Button type="submit" disabled={saving || !text.trim()}>
        Guardar nota
      </Button>
    </form>
  );
}
