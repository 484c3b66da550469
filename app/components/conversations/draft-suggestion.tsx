import { useState } from "react";
import type { AiDraft } from "../../../contracts/conversations";
import { Button } from "~/components/ui/button";
import { useConversationChange } from "./actions";

/**
 * The AI's suggestion and the composer's text, kept together by the reply area (which owns the
 * text): a suggestion that arrives fills an empty composer (or one still holding the previous
 * suggestion), never over what a person is writing. `fromDraft` says whether the text to send
 * came from the suggestion, so the message is noted "Sugerido por IA".
 */
export function useDraftInComposer(
  aiDraft: AiDraft | null,
  text: string,
  setText: (text: string) => void,
) {
  const [seen, setSeen] = useState<string | null>(null);
  const [prefilled, setPrefilled] = useState<string | null>(null);
  const current = aiDraft?.created_at ?? null;
  if (current !== seen) {
    // A new suggestion, or none any more: adjusted while rendering, not after.
    setSeen(current);
    const untouched = text.trim() === "" || text === prefilled;
    if (aiDraft && untouched) {
      setText(aiDraft.content);
      setPrefilled(aiDraft.content);
    } else if (!aiDraft) {
      if (prefilled !== null && text === prefilled) setText("");
      setPrefilled(null);
    }
  }
  const fromDraft = aiDraft !== null && prefilled !== null && text.trim() !== "";
  const takeDraft = () => {
    if (!aiDraft) return;
    setText(aiDraft.content);
    setPrefilled(aiDraft.content);
  };
  return { fromDraft, takeDraft };
}

/**
 * "Sugerir respuesta" (asks the conversation's agent for a suggestion now) and "Descartar",
 * through the route's action, with what is on its way (its pending submission).
 */
export function useSuggestionRequests(
  conversationId: string | undefined,
  onChange: (draft: AiDraft | null) => void,
) {
  const { run, pending } = useConversationChange();
  const busy =
    pending?.intent === "draft.suggest"
      ? "suggest"
      : pending?.intent === "draft.discard"
        ? "discard"
        : null;

  async function request(intent: "draft.suggest" | "draft.discard") {
    const result = await run({ intent, conversationId: conversationId ?? "" });
    if (result.ok) onChange(result.draft ?? null);
  }

  return {
    busy,
    suggest: () => request("draft.suggest"),
    discard: () => request("draft.discard"),
  };
}

export type SuggestionRequests = ReturnType<typeof useSuggestionRequests>;

/** "Sugerir respuesta": in the line above the composer, while there is no suggestion. */
export function SuggestButton({ requests }: { requests: SuggestionRequests }) {
  return (
    <button
      type="button"
      disabled={requests.busy !== null}
      aria-busy={requests.busy === "suggest"}
      onClick={() => void requests.suggest()}
      className="whitespace-nowrap rounded-lg border border-slate-300 bg-white px-2.5 py-1 text-xs font-medium text-slate-700 hover:bg-slate-50 disabled:cursor-not-allowed disabled:text-slate-500"
    >
      {requests.busy === "suggest" ? "Preparando sugerencia…" : "Sugerir respuesta"}
    </button>
  );
}

/**
 * Above the composer, once the AI has a suggestion: "Sugerencia de IA" (edit it in the
 * composer and send it, "Usar sugerencia" over one's own text, or "Descartar").
 */
export function DraftSuggestion({
  aiDraft,
  inComposer,
  onUse,
  requests,
}: {
  aiDraft: AiDraft;
  /** The suggestion is already the composer's text. */
  inComposer: boolean;
  onUse: () => void;
  requests: SuggestionRequests;
}) {
  return (
    <section
      aria-label="Sugerencia de IA"
      className="border-y border-violet-200 bg-violet-50 px-3 py-2 text-sm"
    >
      <div className="flex flex-wrap items-center gap-2">
        <h2 className="font-semibold text-violet-900">Sugerencia de IA</h2>
        <p className="flex-1 text-xs text-violet-900">
          {inComposer
            ? "Está en el cuadro de texto: revísala, edítala si hace falta y pulsa Enviar."
            : "Tienes texto propio en el cuadro: usa la sugerencia si prefieres."}
        </p>
        {!inComposer && (
          <Button variant="secondary" className="px-3 py-1" onClick={onUse}>
            Usar sugerencia
          </Button>
        )}
        <Button
          variant="secondary"
          className="px-3 py-1"
          disabled={requests.busy !== null}
          aria-busy={requests.busy === "discard"}
          onClick={() => void requests.discard()}
        >
          Descartar
        </Button>
      </div>
      {!inComposer && (
        <p className="mt-1 whitespace-pre-wrap break-words text-slate-800">{aiDraft.content}</p>
      )}
    </section>
  );
}
