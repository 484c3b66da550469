import { eachDayOfInterval, format } from "date-fns";
import { lazy, Suspense } from "react";
import type { TrackingStats } from "../../../contracts/tracking";
import { Spinner } from "~/components/ui/spinner";

// chart.js is the heaviest thing in the console: it loads just after the page, and only here.
const ConversionsOverTime = lazy(() =>
  import("./charts").then((m) => ({ default: m.ConversionsOverTime })),
);
const BySource = lazy(() => import("./charts").then((m) => ({ default: m.BySource })));

const TOP_CAMPAIGNS = 5;

/** Conversions per day of the range, zeros included. */
function perDay(byDay: TrackingStats["by_day"], from: string, to: string) {
  return eachDayOfInterval({
    start: new Date(`${from}T12:00:00`),
    end: new Date(`${to}T12:00:00`),
  }).map((d) => ({
    label: format(d, "dd/MM"),
    count: byDay[format(d, "yyyy-MM-dd")] ?? 0,
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

/** Resumen: the range's figures and conversions per day. */
export function SummaryPanel({
  stats,
  from,
  to,
  currency,
}: {
  stats: TrackingStats;
  from: string;
  to: string;
  currency: string;
}) {
  const money = new Intl.NumberFormat("es-ES", { style: "currency", currency });
  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-4">
        <Card label="Sesiones" value={stats.total_sessions} />
        <Card label="Conversiones" value={stats.total_conversions} />
        <Card label="Tasa de conversión" value={`${(stats.conversion_rate * 100).toFixed(1)}%`} />
        <Card label="Valor total" value={money.format(stats.total_value)} />
      </div>
      <section className="rounded-xl border border-slate-200 bg-white p-5">
        <h2 className="mb-3 font-semibold">Conversiones por día</h2>
        <Suspense fallback={<Spinner label="Cargando gráfico..." />}>
          <ConversionsOverTime days={perDay(stats.by_day, from, to)} />
        </Suspense>
      </section>
    </div>
  );
}

/** Fuentes: conversions per source. */
export function SourcesPanel({ stats }: { stats: TrackingStats }) {
  return (
    <section className="rounded-xl border border-slate-200 bg-white p-5">
      <h2 className="mb-3 font-semibold">Conversiones por fuente</h2>
      {Object.keys(stats.by_source).length === 0 ? (
        <p className="text-sm text-slate-600">
          Aún no hay fuentes. Los anuncios que llevan a WhatsApp se atribuyen solos; para tu web,
          pega el fragmento de Configuración &gt; Tracking.
        </p>
      ) : (
        <Suspense fallback={<Spinner label="Cargando gráfico..." />}>
          <BySource sources={stats.by_source} />
        </Suspense>
      )}
    </section>
  );
}

/** Campañas: the campaigns with most conversions. */
export function CampaignsPanel({ stats }: { stats: TrackingStats }) {
  const campaigns = Object.entries(stats.by_campaign)
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP_CAMPAIGNS);
  return (
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
  );
}
