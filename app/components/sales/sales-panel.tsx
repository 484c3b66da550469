import { useCallback, useEffect, useRef, useState } from "react";
import { toast } from "sonner";
import type { ConversationDetail, ConversationEvent } from "../../../worker/conversations/contract";
import { DEFAULT_CURRENCY, type Suggestion } from "../../../worker/sales/contract";
import type { Conversion } from "../../../worker/tracking/contract";
import { Button } from "~/components/ui/button";
import { api, errorMessage } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import { useRealtimeEvent } from "~/lib/use-realtime-event";
import { ConversionsList } from "./conversions-list";
import { OriginCard } from "./origin-card";
import { SaleDialog } from "./sale-dialog";
import { SuggestionBanner } from "./suggestion-banner";

/**
 * Meta is told right after the server answers, so a conversion just recorded is usually
 * still "pending": look again after these delays, then stop (no endless polling).
 */
const FOLLOW_UPS_MS = [1000, 3000];

/** A conversation's conversions, reloaded on demand and followed up a bounded number of times. */
function useConversions(conversationId: string) {
  const [conversions, setConversions] = useState<Conversion[]>([]);
  const timers = useRef<ReturnType<typeof setTimeout>[]>([]);

  const load = useCallback(async () => {
    try {
      setConversions(await api.get<Conversion[]>(`/conversations/${conversationId}/conversions`));
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
  onChange,
}: {
  conversation: ConversationDetail;
  onChange: (update: (current: ConversationDetail) => ConversationDetail) => void;
}) {
  const { organization } = useAuth();
  const { conversions, refresh } = useConversions(conversation.id);
  const [selling, setSelling] = useState(false);

  useEffect(refresh, [refresh]);
  // Any change to the conversation (a stage set by anyone, the AI's mark_lead, a sale, what
  // Meta detected) may bring a lead or a sale: look again.
  useRealtimeEvent<ConversationEvent>("conversation_update", ({ conversation: c }) => {
    if (c.id === conversation.id) refresh();
  });

  const withoutSuggestion = (id: string) =>
    onChange((current) => ({
      ...current,
      suggestions: current.suggestions.filter((s) => s.id !== id),
    }));

  async function confirm(suggestion: Suggestion) {
    try {
      await api.post(`/conversations/${conversation.id}/suggestions/${suggestion.id}/confirm`);
      toast.success("Conversión confirmada");
      withoutSuggestion(suggestion.id);
      const updated = await api.get<ConversationDetail>(`/conversations/${conversation.id}`);
      onChange((current) => ({ ...current, ...updated }));
      refresh();
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  async function dismiss(suggestion: Suggestion) {
    try {
      await api.delete(`/conversations/${conversation.id}/suggestions/${suggestion.id}`);
      withoutSuggestion(suggestion.id);
    } catch (error) {
      toast.error(errorMessage(error));
    }
  }

  return (
    <aside
      aria-labelledby="sales-panel-title"
      className="space-y-4 overflow-y-auto border-b border-slate-200 bg-white p-4 max-lg:max-h-64 lg:w-80 lg:border-b-0 lg:border-l"
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
