import type { Broadcast, BroadcastStats } from "../../../contracts/broadcasts";
import { SKIP_REASONS } from "../../../contracts/broadcasts";
import { formatMoney } from "~/components/sales/money";
import { count, customers, metaReason, percent, SKIP_REASON_LABELS } from "./labels";

const STEPS = [
  ["recipients", "Destinatarios"],
  ["sent", "Enviados"],
  ["delivered", "Entregados"],
  ["read", "Leídos"],
  ["replied", "Respondieron"],
] as const satisfies readonly (readonly [keyof BroadcastStats, string])[];

/** "Enviados 80 de 120": how far the send has gone (those not pending any more). */
export function SendProgress({ stats }: { stats: BroadcastStats }) {
  const done = Math.max(0, stats.recipients - stats.pending);
  const share = stats.recipients > 0 ? Math.round((done / stats.recipients) * 100) : 0;
  const text = `${count(done)} de ${count(stats.recipients)} procesados`;
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4">
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span id="broadcast-progress" className="font-medium text-slate-900">
          Progreso del envío
        </span>
        <span className="tabular-nums text-slate-600">{text}</span>
      </div>
      <div
        role="progressbar"
        aria-labelledby="broadcast-progress"
        aria-valuemin={0}
        aria-valuemax={stats.recipients}
        aria-valuenow={done}
        aria-valuetext={text}
        className="mt-2 h-2 overflow-hidden rounded-full bg-slate-100"
      >
        <div
          className="h-full rounded-full bg-emerald-600 transition-all"
          style={{ width: `${share}%` }}
        />
      </div>
    </div>
  );
}

/**
 * From the recipients to the replies, each step's count and its share of the recipients (a
 * read message was also delivered and sent: the counts are cumulative).
 */
export function Funnel({ stats }: { stats: BroadcastStats }) {
  return (
    <section
      aria-labelledby="funnel-title"
      className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6"
    >
      <h2 id="funnel-title" className="text-base font-semibold text-slate-900">
        Embudo
      </h2>
      <ol aria-labelledby="funnel-title" className="mt-4 space-y-3">
        {STEPS.map(([key, label]) => {
          const value = stats[key];
          const share = key === "recipients" ? null : percent(value, stats.recipients);
          const width = stats.recipients > 0 ? Math.round((value / stats.recipients) * 100) : 0;
          return (
            <li key={key}>
              <div className="flex items-baseline justify-between gap-3 text-sm">
                <span className="text-slate-700">{label}</span>
                <span className="tabular-nums">
                  <span className="font-semibold text-slate-900">{count(value)}</span>
                  {share && <span className="ml-2 text-slate-500">{share}</span>}
                </span>
              </div>
              <div aria-hidden className="mt-1 h-2 overflow-hidden rounded-full bg-slate-100">
                <div
                  className="h-full rounded-full bg-emerald-600"
                  style={{ width: `${width}%` }}
                />
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}

/** One figure of the results. */
function Figure({
  label,
  value,
  children,
}: {
  label: string;
  value: string;
  children?: React.ReactNode;
}) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">{value}</dd>
      {children && <dd className="mt-2 text-sm text-slate-600">{children}</dd>}
    </div>
  );
}

/**
 * What did not go (failed, by Meta's reason; limited; left out at send time), who opted out
 * after receiving it, and what it cost and brought, in the organization's currency.
 */
export function Results({ broadcast, currency }: { broadcast: Broadcast; currency: string }) {
  const { stats } = broadcast;
  const money = (value: number) => formatMoney(value, stats.currency || currency);
  const codes = Object.entries(stats.failed_by_code).sort(([, a], [, b]) => b - a);
  const skipped = SKIP_REASONS.reduce((sum, reason) => sum + stats.skipped[reason], 0);
  return (
    <section aria-labelledby="results-title">
      <h2 id="results-title" className="sr-only">
        Resultados
      </h2>
      <dl className="grid gap-4 sm:grid-cols-2">
        <Figure label="Ventas" value={count(stats.sales)}>
          En sus conversaciones, hasta 7 días después del envío.
        </Figure>
        <Figure label="Ingresos" value={money(stats.revenue)} />
        <Figure label="Citas" value={count(stats.bookings)}>
          Reservadas en sus conversaciones hasta 7 días después del envío, sin las canceladas.
        </Figure>
        <Figure label="Coste" value={money(stats.cost)}>
          Lo que Meta cobró por los mensajes.
        </Figure>
        <Figure label="Se dieron de baja" value={count(stats.opted_out)}>
          Pidieron no recibir más promociones después de recibirla.
        </Figure>
        <Figure label="Fallidos" value={count(stats.failed)}>
          {codes.length > 0 && (
            <ul aria-label="Fallidos por motivo" className="space-y-1">
              {codes.map(([code, n]) => (
                <li key={code}>
                  <span className="font-medium tabular-nums text-slate-900">{count(n)}</span> ·{" "}
                  {metaReason(code)}
                </li>
              ))}
            </ul>
          )}
        </Figure>
        <Figure label="Limitados por Meta (24 h)" value={count(stats.limited)}>
          Meta limita las promociones que recibe cada cliente: no es un fallo y no se reintenta.
        </Figure>
        <Figure label="Fuera del envío" value={count(skipped)}>
          <ul aria-label="Fuera del envío por motivo" className="space-y-1">
            {SKIP_REASONS.map((reason) => (
              <li key={reason}>
                {SKIP_REASON_LABELS[reason]}:{" "}
                <span className="tabular-nums">{customers(stats.skipped[reason])}</span>
              </li>
            ))}
          </ul>
        </Figure>
        {stats.pending > 0 && <Figure label="Pendientes" value={count(stats.pending)} />}
      </dl>
    </section>
  );
}
