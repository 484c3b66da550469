import { useState } from "react";
import type { Conversation } from "../../../contracts/conversations";
import { Button } from "~/components/ui/button";
import { useConversationWrites } from "./actions";
import { pausedText, type ThreadControl } from "./coexistence";

/** The composer's text box (`Composer`), focused by "Tomar la conversación". */
const COMPOSER_ID = "composer";

/**
 * One line above the messages of a number shared with the WhatsApp Business app or answered by
 * Meta's own AI: who answers the customer now, and the one action that changes it. There is
 * no call to take a thread from Meta's AI: the console's next message takes it (as Meta
 * documents), so "Tomar la conversación" focuses the composer and says so.
 */
export function ThreadControlBanner({
  control,
  conversationId,
  onChange,
  now,
}: {
  control: ThreadControl;
  conversationId: string;
  onChange: (updated: Conversation | null) => void;
  now: number;
}) {
  const [busy, setBusy] = useState(false);
  const [taking, setTaking] = useState(false);
  const { resumeAi, returnToMetaAi } = useConversationWrites();
  if (!control) return null;

  const run = async (call: (id: string) => Promise<Conversation | null>) => {
    setBusy(true);
    try {
      onChange(await call(conversationId));
    } finally {
      setBusy(false);
    }
  };

  const take = () => {
    setTaking(true);
    document.getElementById(COMPOSER_ID)?.focus();
  };

  const button = (label: string, onClick: () => void, disabled = false) => (
    <Button variant="secondary" className="px-3 py-1" disabled={disabled} onClick={onClick}>
      {label}
    </Button>
  );
  let text: string;
  let action: React.ReactNode;
  switch (control.kind) {
    case "paused":
      text = pausedText(control.until, now);
      action = button("Reanudar IA", () => void run(resumeAi), busy);
      break;
    case "meta_ai":
      text = taking
        ? "Escribe tu mensaje: al enviarlo tomas la conversación y la IA de Meta deja de responder."
        : "La IA de Meta está respondiendo esta conversación.";
      action = button("Tomar la conversación", take);
      break;
    case "returnable":
      text = "La IA de Meta respondió antes en esta conversación; ahora la lleva el equipo.";
      action = button("Devolver a la IA de Meta", () => void run(returnToMetaAi), busy);
      break;
  }

  return (
    <div
      role="status"
      aria-label="Quién responde"
      className="flex flex-wrap items-center gap-2 border-b border-violet-100 bg-violet-50 px-4 py-1.5 text-xs text-violet-900"
    >
      <p className="min-w-0 flex-1">{text}</p>
      {action}
    </div>
  );
}
