import { Tab, TabGroup, TabList, TabPanel, TabPanels } from "@headlessui/react";
import { eachDayOfInterval, format, subDays } from "date-fns";
import { lazy, Suspense, useEffect, useState } from "react";
import { useLoaderData, useNavigation, type ClientLoaderFunctionArgs } from "react-router";
import { toast } from "sonner";
import {
  CONVERSIONS_PAGE_SIZE,
  type Conversion,
  type TrackingStats,
} from "../../worker/tracking/contract";
import { PageHeader } from "~/components/page-header";
import { AdsPanel } from "~/components/tracking/ads-panel";
import { ConversionsTable, EVENT_LABELS } from "~/components/tracking/conversions-table";
import { Button } from "~/components/ui/button";
import { Spinner } from "~/components/ui/spinner";
import { client, data, errorMessage } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import { useUrlState } from "~/lib/use-url-state";
import { RouteError } from "~/components/route-error";
import { revalidateUnlessOnly } from "~/lib/revalidate";

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

/** The tabs, each with the key it has in the URL (`?tab=`). */
const TABS = [
  { key: "resumen", label: "Resumen" },
  { key: "conversiones", label: "Conversiones" },
  { key: "fuentes", label: "Fuentes" },
  { key: "campanas", label: "Campañas" },
  { key: "anuncios", label: "Anuncios" },
] as const;

const day = (date: Date) => format(date, "yyyy-MM-dd");

/** A `YYYY-MM-DD` from the URL, or the fallback when it is missing or not a date. */
const dayParam = (value: string | null, fallback: string) =>
  value && /^\d{4}-\d{2}-\d{2}$/.test(value) && !Number.isNaN(Date.parse(value)) ? value : fallback;

/** Conversions per UTC day of the range, zeros included. */
function perDay(byDay: TrackingStats["by_day"], from: string, to: string) {
  return eachDayOfInterval({
    start: new Date(`${from}T12:00:00`),
    end: new Date(`${to}T12:00:00`),
  }).map((d) => ({
    label: format(d, "dd/MM"),
    count: byDay[day(d)] ?? 0,
  }));
}

/** The range and event filter the URL asks for (the last 30 days and every event by default). */
function filtersFromUrl(params: URLSearchParams) {
  const today = new Date();
  const event = params.get("event") ?? "";
  return {
    from: dayParam(params.get("date_from"), day(subDays(today, DEFAULT_RANGE_DAYS - 1))),
    to: dayParam(params.get("date_to"), day(today)),
    eventName: EVENT_FILTER.find((name) => name === event),
  };
}

/** A page of the range's conversions, the newest first, after `before` if given. */
const readConversions = (
  { from, to, eventName }: ReturnType<typeof filtersFromUrl>,
  before?: string,
) =>
  data(
    client.tracking.conversions.$get({
      query: {
        date_from: from,
        date_to: to,
        limit: String(CONVERSIONS_PAGE_SIZE),
        ...(eventName && { event_name: eventName }),
        ...(before && { before }),
      },
    }),
  );

/** The range's figures and the first page of its conversions, side by side. */
export async function clientLoader({ request }: ClientLoaderFunctionArgs) {
  const filters = filtersFromUrl(new URL(request.url).searchParams);
  const { from, to } = filters;
  if (from > to) return { filters, stats: null, conversions: null };
  const [stats, conversions] = await Promise.all([
    data(client.tracking.stats.$get({ query: { date_from: from, date_to: to } })),
    readConversions(filters),
  ]);
  return { filters, stats, conversions };
}
clientLoader.hydrate = true as const;

/** Another tab shows what is already loaded: only the range and the event filter reload. */
export const shouldRevalidate = revalidateUnlessOnly("tab");

export function HydrateFallback() {
  return <Spinner />;
}

export function ErrorBoundary() {
  return (
    <RouteError
      title="Tracking & Analytics"
      description="Sesiones de tus anuncios, conversiones y lo que se envía a Meta."
      failure="No se pudieron cargar las estadísticas"
    />
  );
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
  const { organization } = useAuth();
  const loaded = useLoaderData<typeof clientLoader>();
  const { stats } = loaded;
  // The controls show what was asked for, even while its figures load.
  const [params, setParams] = useUrlState();
  const { from, to, eventName } = filtersFromUrl(params);
  const navigation = useNavigation();
  const reloading = navigation.state === "loading" && navigation.location.pathname === "/tracking";
  // The tab, the range and the event filter live in the URL: reload, links and Back keep them.
  const tab = Math.max(
    0,
    TABS.findIndex(({ key }) => key === params.get("tab")),
  );
  /** A tab is a place (Back returns to it); a date or the event only refines the one shown. */
  const setParam = (name: string, value: string, replace: boolean) => {
    const next = new URLSearchParams(params);
    if (value) next.set(name, value);
    else next.delete(name);
    setParams(next, { replace, preventScrollReset: true });
  };
  const money = new Intl.NumberFormat("es-ES", {
    style: "currency",
    currency: organization?.currency ?? "EUR",
  });
  // The loader's first page, then the pages "Cargar más" adds to it.
  const [conversions, setConversions] = useState<Conversion[]>([]);
  const [hasMore, setHasMore] = useState(false);
  const [loadingMore, setLoadingMore] = useState(false);
  useEffect(() => {
    setConversions(loaded.conversions?.conversions ?? []);
    setHasMore(loaded.conversions?.has_more ?? false);
  }, [loaded]);

  async function loadMore() {
    setLoadingMore(true);
    try {
      const page = await readConversions(loaded.filters, conversions.at(-1)?.id);
      setConversions((shown) => [...shown, ...page.conversions]);
      setHasMore(page.has_more);
    } catch (error) {
      toast.error("Error al cargar las conversiones", { description: errorMessage(error) });
    } finally {
      setLoadingMore(false);
    }
  }

  const campaigns = Object.entries(stats?.by_campaign ?? {})
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP_CAMPAIGNS);

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
            onChange={(e) => setParam("date_from", e.target.value, true)}
            className="rounded-lg border border-slate-300 px-3 py-2"
          />
        </label>
        <label className="text-sm">
          <span className="mb-1 block font-medium text-slate-700">Hasta</span>
          <input
            type="date"
            value={to}
            min={from}
            onChange={(e) => setParam("date_to", e.target.value, true)}
            className="rounded-lg border border-slate-300 px-3 py-2"
          />
        </label>
        {from > to && (
          <p className="text-sm text-red-600">La fecha inicial debe ser anterior a la final.</p>
        )}
      </form>
      {!stats ? null : (
        <TabGroup
          aria-busy={reloading}
          className={reloading ? "opacity-60 transition-opacity" : "transition-opacity"}
          selectedIndex={tab}
          onChange={(index) => setParam("tab", TABS[index]!.key, false)}
        >
          <TabList className="mb-6 flex gap-1 overflow-x-auto border-b border-slate-200">
            {TABS.map(({ key, label }) => (
              <Tab
                key={key}
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
                  <ConversionsOverTime days={perDay(stats.by_day, from, to)} />
                </Suspense>
              </section>
            </TabPanel>
            <TabPanel>
              <section className="rounded-xl border border-slate-200 bg-white">
                <label className="flex items-center gap-2 p-4 text-sm">
                  <span className="font-medium text-slate-700">Tipo de evento</span>
                  <select
                    className="rounded-lg border border-slate-300 px-2 py-1"
                    value={eventName ?? ""}
                    onChange={(e) => setParam("event", e.target.value, true)}
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
                    <Button
                      variant="secondary"
                      disabled={loadingMore}
                      onClick={() => void loadMore()}
                    >
                      {loadingMore ? "Cargando..." : "Cargar más"}
                    </Button>
                  </div>
                )}
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
            <TabPanel>
              <AdsPanel from={from} to={to} />
            </TabPanel>
          </TabPanels>
        </TabGroup>
      )}
    </>
  );
}
