import { useState } from "react";
import type { Reaction } from "../../../contracts/conversations";

/** The emojis the team can react with. */
export const REACTION_EMOJIS = ["👍", "❤️", "😂", "😮", "😢", "🙏"] as const;

const BUSINESS = "business";
const who = (reaction: Reaction) => (reaction.from === BUSINESS ? "Tú/Equipo" : "Cliente");

/** The reactions on a message, as emoji chips that say who reacted. */
export function ReactionChips({ reactions }: { reactions: Reaction[] }) {
  if (reactions.length === 0) return null;
  return (
    <ul aria-label="Reacciones" className="mt-1 flex flex-wrap gap-1">
      {reactions.map((reaction) => (
        <li
          key={`${reaction.from}-${reaction.emoji}`}
          title={who(reaction)}
          aria-label={`${reaction.emoji} (${who(reaction)})`}
          className="rounded-full border border-slate-200 bg-white px-1.5 text-base leading-6 text-slate-900 shadow-sm"
        >
          {reaction.emoji}
        </li>
      ))}
    </ul>
  );
}

/** 'Reaccionar' on a customer's message: a few emojis; choosing the current one removes it. */
export function ReactionPicker({
  current,
  onReact,
}: {
  current: string | null;
  onReact: (emoji: string) => Promise<void>;
}) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);

  async function choose(emoji: string) {
    setOpen(false);
    setBusy(true);
    await onReact(emoji === current ? "" : emoji);
    setBusy(false);
  }

  return (
    <div
      className="relative"
      onKeyDown={(e) => {
        if (e.key === "Escape") setOpen(false);
      }}
      onBlur={(e) => {
        if (!e.currentTarget.contains(e.relatedTarget)) setOpen(false);
      }}
    >
      <button
        type="button"
        aria-expanded={open}
        disabled={busy}
        onClick={() => setOpen((o) => !o)}
        className="rounded-full px-2 py-0.5 text-xs text-slate-600 hover:bg-slate-200 disabled:opacity-50"
      >
        {busy ? "Enviando…" : "Reaccionar"}
      </button>
      {open && (
        <div
          role="group"
          aria-label="Elegir reacción"
          className="absolute bottom-full left-0 z-10 mb-1 flex gap-1 rounded-full border border-slate-200 bg-white px-2 py-1 shadow-lg"
        >
          {REACTION_EMOJIS.map((emoji) => (
            <button
              key={emoji}
              type="button"
              aria-pressed={emoji === current}
              aria-label={
                emoji === current ? `Quitar reacción ${emoji}` : `Reaccionar con ${emoji}`
              }
              onClick={() => void choose(emoji)}
              className={`rounded-full px-1 text-lg hover:bg-slate-100 ${emoji === current ? "bg-emerald-100" : ""}`}
            >
              {emoji}
            </button>
          ))}
        </div>
      )}
    </div>
  );
}

/** The team's current reaction on a message, if any. */
export const businessReaction = (reactions: Reaction[]) =>
  reactions.find((r) => r.from === BUSINESS)?.emoji ?? null;
