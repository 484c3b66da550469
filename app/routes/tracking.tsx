import { Tab, TabGroup, TabList, TabPanel, TabPanels } from "@headlessui/react";
import { eachDayOfInterval, format, subDays } from "date-fns";
import { lazy, Suspense, useCallback, useEffect, useState } from "react";
import { toast } from "sonner";
import type { Conversion, TrackingStats } from "../../worker/tracking/contract";
import { PageHeader } from "~/components/page-header";
import { ConversionsTable, EVENT_LABELS } from "~/components/tracking/conversions-table";
import { Spinner } from "~/components/ui/spinner";
import { api, errorMessage } from "~/lib/api";

export const meta = () => [{ title: "Tracking & Analytics — Atiende" }];

// chart.js is the heaviest thing in the console: it loads just after the page, and only here.
const ConversionsOverTime = lazy(() =>
  import("~/components/tracking/charts").then((m) => ({ default: m.ConversionsOverTime })),
);
const BySource = lazy(() =>
  import("~/components/tracking/charts").then((m) => ({ default: m.BySource })),
);

const DEFAULT_RANGE_DAYS = 30;
const TOP_CAMPAIGNS = 5;
/** The spec's event filter of the conversions list. */
const EVENT_FILTER = ["lead", "contact", "message_sent", "purchase"] as const;

const day = (date: Date) => format(date, "yyyy-MM-dd");
const money = new Intl.NumberFormat("es-ES", { style: "currency", currency: "EUR" });

/** Conversions per UTC day of the range, zeros included. */
function perDay(conversions: Conversion[], from: string, to: string) {
  const counts = new Map<string, number>();
  for (const c of conversions)
    counts.set(c.event_time.slice(0, 10), (counts.get(c.event_time.slice(0, 10)) ?? 0) + 1);
  return eachDayOfInterval({
    start: new Date(`${from}T12:00:00`),
    end: new Date(`${to}T12:00:00`),
  }).map((d) => ({
    label: format(d, "dd/MM"),
    count: counts.get(day(d)) ?? 0,
  }));
}

function Card({ label, value }: { label: string; value: string | number }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-5">
      <span className="text-sm text-slate-600">{label}</span>
      <span className="mt-1 block text-3xl font-bold">{value}</span>
    </div>
  );
}

export default function Tracking() {
  const today = new Date();
  const [from, setFrom] = useState(day(subDays(today, DEFAULT_RANGE_DAYS - 1)));
  const [to, setTo] = useState(day(today));
  const [eventName, setEventName] = useState("");
  const [stats, setStats] = useState<TrackingStats | null>(null);
  const [conversions, setConversions] = useState<Conversion[]>([]);

  const load = useCallback(async () => {
    if (from > to) return;
    try {
      const range = `date_from=${from}&date_to=${to}`;
      const [s, list] = await Promise.all([
        api.get<TrackingStats>(`/tracking/stats?${range}`),
        api.get<Conversion[]>(`/tracking/conversions?${range}`),
      ]);
      setStats(s);
      setConversions(list);
    } catch (error) {
      toast.error("Error al cargar las conversiones", { description: errorMessage(error) });
    }
  }, [from, to]);

  useEffect(() => {
    void load();
  }, [load]);

  const campaigns = Object.entries(stats?.by_campaign ?? {})
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP_CAMPAIGNS);
  const filtered = eventName ? conversions.filter((c) => c.event_name === eventName) : conversions;

  return (
    <>
      <PageHeader
        title="Tracking & Analytics"
        description="Sesiones de tus anuncios, conversiones y lo que se envía a Meta."
      />
      <form className="mb-6 flex flex-wrap items-end gap-4" onSubmit={(e) => e.preventDefault()}>
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-700">Desde</span>
          <input
            type="date"
            value={from}
            max={to}
            onChange={(e) => setFrom(e.target.value)}
            className="rounded-lg border border-slate-300 px-3 py-2"
          />
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-700">Hasta</span>
          <input
            type="date"
            value={to}
            min={from}
            onChange={(e) => setTo(e.target.value)}
            className="rounded-lg border border-slate-300 px-3 py-2"
          />
        </label>
        {from > to && (
          <p className="text-sm text-red-600">La fecha inicial debe ser anterior a la final.</p>
        )}
      </form>
      {!stats ? (
        <Spinner />
      ) : (
        <TabGroup>
          <TabList className="mb-6 flex gap-1 overflow-x-auto border-b border-slate-200">
            {["Resumen", "Conversiones", "Fuentes", "Campañas"].map((label) => (
              <Tab
                key={label}
                className="whitespace-nowrap border-b-2 border-transparent px-4 py-2 text-sm font-medium text-slate-600 data-[selected]:border-emerald-600 data-[selected]:text-emerald-700"
              >
                {label}
              </Tab>
            ))}
          </TabList>
          <TabPanels>
            <TabPanel className="space-y-6">
              <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
                <Card label="Sesiones" value={stats.total_sessions} />
                <Card label="Conversiones" value={stats.total_conversions} />
                <Card
                  label="Tasa de conversión"
                  value={`${(stats.conversion_rate * 100).toFixed(1)}%`}
                />
                <Card label="Valor total" value={money.format(stats.total_value)} />
              </div>
              <section className="rounded-xl border border-slate-200 bg-white p-5">
                <h2 className="mb-3 font-semibold">Conversiones por día</h2>
                <Suspense fallback={<Spinner label="Cargando gráfico..." />}>
                  <ConversionsOverTime days={perDay(conversions, from, to)} />
                </Suspense>
              </section>
            </TabPanel>
            <TabPanel>
              <section className="rounded-xl border border-slate-200 bg-white">
                <label className="flex items-center gap-2 p-4 text-sm">
                  <span className="font-medium text-slate-700">Tipo de evento</span>
                  <select
                    className="rounded-lg border border-slate-300 px-2 py-1"
                    value={eventName}
                    onChange={(e) => setEventName(e.target.value)}
                  >
                    <option value="">Todos</option>
                    {EVENT_FILTER.map((name) => (
                      <option key={name} value={name}>
                        {EVENT_LABELS[name]}
                      </option>
                    ))}
                  </select>
                </label>
                <ConversionsTable conversions={filtered} />
              </section>
            </TabPanel>
            <TabPanel>
              <section className="rounded-xl border border-slate-200 bg-white p-5">
                <h2 className="mb-3 font-semibold">Conversiones por fuente</h2>
                {Object.keys(stats.by_source).length === 0 ? (
                  <p className="text-sm text-slate-600">
                    Aún no hay fuentes. Los anuncios que llevan a WhatsApp se atribuyen solos; para
                    tu web, pega el fragmento de Configuración &gt; Tracking.
                  </p>
                ) : (
                  <Suspense fallback={<Spinner label="Cargando gráfico..." />}>
                    <BySource sources={stats.by_source} />
                  </Suspense>
                )}
              </section>
            </TabPanel>
            <TabPanel>
              <section className="rounded-xl border border-slate-200 bg-white p-5">
                <h2 className="mb-3 font-semibold">Campañas principales</h2>
                {campaigns.length === 0 ? (
                  <p className="text-sm text-slate-600">
                    Ninguna conversión con campaña (utm_campaign) en este periodo.
                  </p>
                ) : (
                  <ol className="divide-y divide-slate-100" aria-label="Campañas">
                    {campaigns.map(([campaign, count]) => (
                      <li key={campaign} className="flex justify-between py-2 text-sm">
                        <span>{campaign}</span>
                        <span className="font-semibold">{count}</span>
                      </li>
                    ))}
                  </ol>
                )}
              </section>
            </TabPanel>
          </TabPanels>
        </TabGroup>
      )}
    </>
  );
}
