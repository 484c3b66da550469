import { Tab, TabGroup, TabList, TabPanel, TabPanels } from "@headlessui/react";
import { format, subDays } from "date-fns";
import { useNavigation } from "react-router";
import { CONVERSIONS_PAGE_SIZE } from "../../contracts/tracking";
import { PageHeader } from "~/components/page-header";
import { RouteError } from "~/components/route-error";
import { AdsPanel } from "~/components/tracking/ads-panel";
import { ConversionsPanel, EVENT_FILTER } from "~/components/tracking/conversions-panel";
import { DateRangeForm } from "~/components/tracking/date-range-form";
import { CampaignsPanel, SourcesPanel, SummaryPanel } from "~/components/tracking/overview-panels";
import { client, data } from "~/lib/api";
import { useAuth } from "~/lib/auth";
import { revalidateUnlessOnly } from "~/lib/revalidate";
import { useUrlState } from "~/lib/use-url-state";
import type { Route } from "./+types/tracking";

export const meta = () => [{ title: "Tracking & Analytics — Atiende" }];

const TITLE = "Tracking & Analytics";
const DESCRIPTION = "Sesiones de tus anuncios, conversiones y lo que se envía a Meta.";
const DEFAULT_RANGE_DAYS = 30;

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
export async function clientLoader({ request }: Route.ClientLoaderArgs) {
  const filters = filtersFromUrl(new URL(request.url).searchParams);
  const { from, to } = filters;
  if (from > to) return { filters, stats: null, conversions: null };
  const [stats, conversions] = await Promise.all([
    data(client.tracking.stats.$get({ query: { date_from: from, date_to: to } })),
    readConversions(filters),
  ]);
  return { filters, stats, conversions };
}

/** Another tab shows what is already loaded: only the range and the event filter reload. */
export const shouldRevalidate = revalidateUnlessOnly("tab");

export function ErrorBoundary() {
  return (
    <RouteError
      title={TITLE}
      description={DESCRIPTION}
      failure="No se pudieron cargar las estadísticas"
    />
  );
}

export default function Tracking({ loaderData: loaded }: Route.ComponentProps) {
  const { organization } = useAuth();
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

  return (
    <>
      <PageHeader title={TITLE} description={DESCRIPTION} />
      <DateRangeForm from={from} to={to} onChange={(name, value) => setParam(name, value, true)} />
      {stats && (
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
            <TabPanel>
              <SummaryPanel
                stats={stats}
                from={from}
                to={to}
                currency={organization?.currency ?? "EUR"}
              />
            </TabPanel>
            <TabPanel>
              <ConversionsPanel
                firstPage={loaded.conversions}
                loadPage={(before) => readConversions(loaded.filters, before)}
                eventName={eventName}
                onEventChange={(event) => setParam("event", event, true)}
              />
            </TabPanel>
            <TabPanel>
              <SourcesPanel stats={stats} />
            </TabPanel>
            <TabPanel>
              <CampaignsPanel stats={stats} />
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
