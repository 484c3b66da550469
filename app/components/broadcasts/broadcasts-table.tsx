import { Link } from "react-router";
import type { Broadcast } from "../../../contracts/broadcasts";
import { formatMoney } from "~/components/sales/money";
import { count } from "./labels";
import { StatusBadge } from "./status-badge";
import { hasStarted, whenShort } from "./when";

const COUNTS = [
  ["recipients", "Destinatarios"],
  ["sent", "Enviados"],
  ["delivered", "Entregados"],
  ["read", "Leídos"],
  ["replied", "Respondieron"],
] as const;

const CELL = "whitespace-nowrap px-3 py-3";

/**
 * Every broadcast, newest first: its name (to its page), status, when, and how far it went.
 * A broadcast not sent yet has no figures ("—").
 */
export function BroadcastsTable({
  broadcasts,
  timeZone,
  currency,
  busy,
}: {
  broadcasts: Broadcast[];
  timeZone: string;
  /** The organization's, for a broadcast whose figures do not say theirs. */
  currency: string;
  busy: boolean;
}) {
  return (
    <div
      className={`overflow-x-auto rounded-xl border border-slate-200 bg-white transition-opacity ${busy ? "opacity-60" : ""}`}
      aria-busy={busy}
    >
      <table aria-label="Difusiones" className="min-w-full text-left text-sm">
        <thead className="border-b border-slate-200 bg-slate-50 text-xs font-semibold text-slate-600">
          <tr>
            <th scope="col" className={CELL}>
              Nombre
            </th>
            <th scope="col" className={CELL}>
              Estado
            </th>
            <th scope="col" className={CELL}>
              Cuándo
            </th>
            {COUNTS.map(([key, label]) => (
              <th key={key} scope="col" className={`${CELL} text-right`}>
                {label}
              </th>
            ))}
            <th scope="col" className={`${CELL} text-right`}>
              Ingresos
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {broadcasts.map((b) => {
            const started = hasStarted(b);
            return (
              <tr key={b.id} className="hover:bg-slate-50">
                <th scope="row" className="max-w-56 px-3 py-3 font-medium">
                  <Link
                    to={`/broadcasts/${b.id}`}
                    className="block truncate text-emerald-800 hover:underline"
                  >
                    {b.name}
                  </Link>
                  <span className="block truncate text-xs font-normal text-slate-500">
                    {b.template.name}
                  </span>
                </th>
                <td className={CELL}>
                  <StatusBadge status={b.status} />
                  {b.waiting && <span className="ml-1 text-xs text-amber-800">(en espera)</span>}
                </td>
                <td className={`${CELL} text-slate-700`}>{whenShort(b, timeZone)}</td>
                {COUNTS.map(([key]) => (
                  <td key={key} className={`${CELL} text-right tabular-nums`}>
                    {started ? count(b.stats[key]) : "—"}
                  </td>
                ))}
                <td className={`${CELL} text-right tabular-nums`}>
                  {started ? formatMoney(b.stats.revenue, b.stats.currency || currency) : "—"}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
