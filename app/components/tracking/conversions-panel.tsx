import { useEffect, useState } from "react";
import { toastFailed } from "~/lib/outcome";
import type { Conversion, ConversionPage } from "../../../contracts/tracking";
import { Button } from "~/components/ui/button";
import { ConversionsTable, EVENT_LABELS } from "./conversions-table";

/** The spec's event filter of the conversions list. */
export const EVENT_FILTER = ["lead", "contact", "message_sent", "purchase"] as const;
export type EventFilter = (typeof EVENT_FILTER)[number];

/**
 * Conversiones: the loader's first page, then the pages "Cargar más" adds to it
 * (`loadPage(before)` reads the page older than the last one shown).
 */
export function ConversionsPanel({
  firstPage,
  loadPage,
  eventName,
  onEventChange,
}: {
  firstPage: ConversionPage | null;
  loadPage: (before?: string) => Promise<ConversionPage>;
  eventName: EventFilter | undefined;
  onEventChange: (event: string) => void;
}) {
  const [conversions, setConversions] = useState<Conversion[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  useEffect(() => {
    setConversions(firstPage?.conversions ?? []);
    setHasMore(firstPage?.has_more ?? false);
  }, [firstPage]);

  async function loadMore() {
    setLoadingMore(true);
    try {
      const page = await loadPage(conversions.at(-1)?.id);
      setConversions((shown) => [...shown, ...page.conversions]);
      setHasMore(page.has_more);
    } catch (error) {
      toastFailed("Error al cargar las conversiones", error);
    } finally {
      setLoadingMore(false);
    }
  }

  return (
    <section className="rounded-xl border border-slate-200 bg-white">
      <label className="flex items-center gap-2 p-4 text-sm">
        <span className="font-medium text-slate-700">Tipo de evento</span>
        <select
          className="rounded-lg border border-slate-300 px-2 py-1"
          value={eventName ?? ""}
          onChange={(e) => onEventChange(e.target.value)}
        >
          <option value="">Todos</option>
          {EVENT_FILTER.map((name) => (
            <option key={name} value={name}>
              {EVENT_LABELS[name]}
            </option>
          ))}
        </select>
      </label>
      <ConversionsTable conversions={conversions} />
      {hasMore && (
        <div className="border-t border-slate-100 p-4">
          <Button variant="secondary" disabled={loadingMore} onClick={() => void loadMore()}>
            {loadingMore ? "Cargando..." : "Cargar más"}
          </Button>
        </div>
      )}
    </section>
  );
}
