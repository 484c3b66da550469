import { useCallback, useEffect, useRef, useState } from "react";
import type { ConversationDetail, ConversationEvent } from "../../../contracts/conversations";
import { DEFAULT_CURRENCY, type Suggestion } from "../../../contracts/sales";
import type { Conversion } from "../../../contracts/tracking";
import { Button } from "~/components/ui/button";
import { useConversationChange } from "~/components/conversations/actions";
import { readConversions } from "./read-conversions";
import { useAuth } from "~/lib/auth";
import { useLiveEvent } from "~/lib/use-live";
import { ConversionsList } from "./conversions-list";
import { OriginCard } from "./origin-card";
import { SaleDialog } from "./sale-dialog";
import { SuggestionBanner } from "./suggestion-banner";

/**
 * Meta is told right after the server answers, so a conversion just recorded is usually
 * still "pending": look again after these delays, then stop (no endless polling).
 */
const FOLLOW_UPS_MS = [1000, 3000];

/**
 * A conversation's conversions, from the loader's first read, reloaded on demand and followed
 * up a bounded number of times.
 */
function useConversions(conversationId: string, loaded: Conversion[]) {
  const [conversions, setConversions] = useState(loaded);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);

  const load = useCallback(async () => {
    try {
      setConversions(await readConversions(conversationId));
    } catch {
      // The next refresh (an event, a sale, a reconnection) brings them.
    }
  }, [conversationId]);

  const refresh = useCallback(() => {
    timers.current.forEach(clearTimeout);
    timers.current = FOLLOW_UPS_MS.map((ms) => setTimeout(() => void load(), ms));
    void load();
  }, [load]);

  useEffect(() => () => timers.current.forEach(clearTimeout), []);
  return { conversions, refresh };
}

/**
 * "Ventas y origen": where the customer came from, what Meta detected, the sales registered
 * and what Meta answered to each lead and sale.
 */
export function SalesPanel({
  conversation,
  conversions: loaded,
  onChange,
}: {
  conversation: ConversationDetail;
  conversions: Conversion[];
  onChange: (update: (current: ConversationDetail) => ConversationDetail) => void;
}) {
  const { organization } = useAuth();
  const { conversions, refresh } = useConversions(conversation.id, loaded);
  const [selling, setSelling] = useState(false);
  const { run } = useConversationChange();

  // Any change to the conversation (a stage set by anyone, the AI's mark_lead, a sale, what
  // Meta detected) may bring a lead or a sale: look again.
  useLiveEvent<ConversationEvent>("conversation_update", ({ conversation: c }) => {
    if (c.id === conversation.id) refresh();
  });

  const withoutSuggestion = (id: string) =>
    onChange((current) => ({
      ...current,
      suggestions: current.suggestions.filter((s) => s.id !== id),
    }));

  async function confirm(suggestion: Suggestion) {
    const result = await run({
      intent: "suggestion.confirm",
      conversationId: conversation.id,
      suggestionId: suggestion.id,
    });
    if (!result.ok) return;
    withoutSuggestion(suggestion.id);
    const updated = result.conversation;
    if (updated) onChange((current) => ({ ...current, ...updated }));
    refresh();
  }

  async function dismiss(suggestion: Suggestion) {
    const result = await run({
      intent: "suggestion.dismiss",
      conversationId: conversation.id,
      suggestionId: suggestion.id,
    });
    if (result.ok) withoutSuggestion(suggestion.id);
  }

  return (
    <aside
      aria-labelledby="sales-panel-title"
      className="space-y-4 overflow-y-auto border-b border-slate-200 bg-white p-4 max-xl:max-h-64 xl:w-80 xl:border-b-0 xl:border-l"
    >
      <h2 id="sales-panel-title" className="font-semibold text-slate-900">
        Ventas y origen
      </h2>
      <section aria-label="Origen">
        <OriginCard origin={conversation.origin} />
      </section>
      {conversation.suggestions.map((suggestion) => (
        <SuggestionBanner
          key={suggestion.id}
          suggestion={suggestion}
          onConfirm={() => confirm(suggestion)}
          onDismiss={() => dismiss(suggestion)}
        />
      ))}
      <Button onClick={() => setSelling(true)}>Registrar venta</Button>
      {selling && (
        <SaleDialog
          conversationId={conversation.id}
          defaultCurrency={organization?.currency ?? DEFAULT_CURRENCY}
          onClose={() => setSelling(false)}
          onSaved={() => {
            setSelling(false);
            refresh();
          }}
        />
      )}
      <section aria-labelledby="conversions-title">
        <h3 id="conversions-title" className="mb-2 text-sm font-semibold text-slate-700">
          Conversiones enviadas a Meta
        </h3>
        <ConversionsList conversions={conversions} />
      </section>
    </aside>
  );
}
