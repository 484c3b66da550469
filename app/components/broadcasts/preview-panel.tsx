import { Suspense } from "react";
import { Await, useAsyncError } from "react-router";
import { SKIP_REASONS, type BroadcastPreview } from "../../../contracts/broadcasts";
import { formatMoney } from "~/components/sales/money";
import { RetryReadButton } from "~/components/ui/retry-read-button";
import { Spinner } from "~/components/ui/spinner";
import { errorMessage } from "~/lib/api";
import { count, countryName, customers, SKIP_REASON_LABELS } from "./labels";
import { MarketingAllowanceNote } from "./marketing-allowance";

/** A rate per message: up to 4 decimals ("0,0613 €"). */
const rateOf = (value: number, currency: string) =>
  new Intl.NumberFormat("es-ES", {
    style: "currency",
    currency,
    minimumFractionDigits: 2,
    maximumFractionDigits: 4,
  }).format(value);

const SOURCES = {
  analytics: "Tus datos de Meta",
  rate_card: "Tarifa publicada por Meta",
} as const;

const CELL = "whitespace-nowrap px-3 py-2";

/**
 * 'Vista previa' of a draft or scheduled broadcast: who would receive it now, who is left out
 * and why, and what Meta would charge, by country, said as an estimate. `preview` is the
 * loader's read, still on its way when the page shows.
 */
export function PreviewPanel({ preview }: { preview: Promise<BroadcastPreview> }) {
  return (
    <section
      aria-labelledby="preview-title"
      className="rounded-xl border border-slate-200 bg-white p-4 sm:p-6"
    >
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="preview-title" className="text-base font-semibold text-slate-900">
          Vista previa
        </h2>
        <RetryReadButton label="Actualizar" busyLabel="Calculando..." />
      </div>
      <p className="mt-1 text-sm text-slate-600">
        Calculada ahora: la audiencia se vuelve a calcular en el momento del envío.
      </p>
      <Suspense fallback={<Spinner label="Calculando la vista previa..." />}>
        <Await resolve={preview} errorElement={<PreviewFailed />}>
          {(answer) => <PreviewFigures preview={answer} />}
        </Await>
      </Suspense>
    </section>
  );
}

function PreviewFailed() {
  const error = useAsyncError();
  return (
    <p role="alert" className="mt-4 rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
      No se pudo calcular la vista previa: {errorMessage(error)}
    </p>
  );
}

function PreviewFigures({ preview }: { preview: BroadcastPreview }) {
  const { recipients, skipped, estimated_cost: cost } = preview;
  const left = SKIP_REASONS.reduce((sum, reason) => sum + skipped[reason], 0);
  const countries = Object.entries(cost.by_country).sort(
    ([, a], [, b]) => b.recipients - a.recipients,
  );
  return (
    <div className="mt-4 space-y-5">
      <dl className="grid gap-4 sm:grid-cols-3">
        <div className="rounded-lg bg-emerald-50 p-4">
          <dt className="text-sm text-emerald-900">La recibirán</dt>
          <dd className="mt-1 text-2xl font-semibold tabular-nums text-emerald-950">
            {customers(recipients)}
          </dd>
        </div>
        <div className="rounded-lg bg-slate-50 p-4">
          <dt className="text-sm text-slate-700">Se quedan fuera</dt>
          <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">
            {customers(left)}
          </dd>
          <dd>
            <ul
              aria-label="Motivos por los que se quedan fuera"
              className="mt-2 space-y-0.5 text-sm text-slate-700"
            >
              {SKIP_REASONS.map((reason) => (
                <li key={reason}>
                  {SKIP_REASON_LABELS[reason]}:{" "}
                  <span className="tabular-nums">{count(skipped[reason])}</span>
                </li>
              ))}
            </ul>
          </dd>
        </div>
        <div className="rounded-lg bg-slate-50 p-4">
          <dt className="text-sm text-slate-700">Coste estimado</dt>
          <dd className="mt-1 text-2xl font-semibold tabular-nums text-slate-900">
            {cost.amount === null ? "—" : `≈ ${formatMoney(cost.amount, cost.currency)}`}
          </dd>
          <dd className="mt-1 text-xs text-slate-600">
            {cost.amount === null
              ? `No se puede estimar en ${cost.currency}: falta el precio de algún país en esa moneda.`
              : "Es una estimación; Meta cobra el importe real de cada mensaje."}
          </dd>
        </div>
      </dl>
      <MarketingAllowanceNote allowance={preview.marketing} />
      {countries.length > 0 && (
        <div className="overflow-x-auto">
          <table aria-label="Coste estimado por país" className="min-w-full text-left text-sm">
            <thead className="border-b border-slate-200 text-xs font-semibold text-slate-600">
              <tr>
                <th scope="col" className={CELL}>
                  País
                </th>
                <th scope="col" className={`${CELL} text-right`}>
                  Destinatarios
                </th>
                <th scope="col" className={`${CELL} text-right`}>
                  Precio por mensaje
                </th>
                <th scope="col" className={`${CELL} text-right`}>
                  Importe estimado
                </th>
                <th scope="col" className={CELL}>
                  Precio según
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {countries.map(([code, country]) => (
                <tr key={code}>
                  <th scope="row" className={`${CELL} font-medium text-slate-900`}>
                    {countryName(code)}
                  </th>
                  <td className={`${CELL} text-right tabular-nums`}>{count(country.recipients)}</td>
                  <td className={`${CELL} text-right tabular-nums`}>
                    {country.rate === null ? "—" : rateOf(country.rate, cost.currency)}
                  </td>
                  <td className={`${CELL} text-right tabular-nums`}>
                    {country.amount === null ? "—" : formatMoney(country.amount, cost.currency)}
                  </td>
                  <td className={`${CELL} text-slate-600`}>{SOURCES[country.source]}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="mt-2 text-xs text-slate-500">
            Cada cliente se cuenta en el país de su número. El precio es el último que Meta te cobró
            en ese país o, si aún no hay, su tarifa publicada.
          </p>
        </div>
      )}
    </div>
  );
}
