import { useState } from "react";
import type { AdReportRow } from "../../../contracts/ads";

type NumericColumn = Exclude<keyof AdReportRow, "ad_id" | "headline" | "source_url">;
type SortKey = "headline" | NumericColumn;
type Direction = "ascending" | "descending";

const count = new Intl.NumberFormat("es-ES");
const times = new Intl.NumberFormat("es-ES", {
  minimumFractionDigits: 2,
  maximumFractionDigits: 2,
});

/** "—" for what cannot be known (no ad account, or a ratio over zero). */
const orDash = (value: number | null, format: (value: number) => string) =>
  value === null ? "—" : format(value);

const NUMERIC_COLUMNS: { key: NumericColumn; label: string; money?: true; roas?: true }[] = [
  { key: "conversations", label: "Conversaciones" },
  { key: "leads", label: "Interesados" },
  { key: "bookings", label: "Citas" },
  { key: "sales", label: "Ventas" },
  { key: "revenue", label: "Ingresos", money: true },
  { key: "spend", label: "Gasto", money: true },
  { key: "message_cost", label: "Coste de mensajes", money: true },
  { key: "profit", label: "Beneficio", money: true },
  { key: "cost_per_conversation", label: "Coste por conversación", money: true },
  { key: "cost_per_lead", label: "Coste por interesado", money: true },
  { key: "roas", label: "ROAS", roas: true },
];

const ratio = (numerator: number, denominator: number | null) =>
  denominator === null || denominator === 0 ? null : numerator / denominator;

/** The totals row: sums, and the ratios of the sums (what the whole range cost and returned). */
function totalsOf(ads: AdReportRow[]): Record<NumericColumn, number | null> {
  const sum = (pick: (ad: AdReportRow) => number) => ads.reduce((t, ad) => t + pick(ad), 0);
  const conversations = sum((ad) => ad.conversations);
  const leads = sum((ad) => ad.leads);
  const revenue = sum((ad) => ad.revenue);
  const spend = ads.some((ad) => ad.spend !== null) ? sum((ad) => ad.spend ?? 0) : null;
  const messageCost = ads.some((ad) => ad.message_cost === null)
    ? null
    : sum((ad) => ad.message_cost ?? 0);
  return {
    conversations,
    leads,
    bookings: sum((ad) => ad.bookings),
    sales: sum((ad) => ad.sales),
    revenue,
    spend,
    message_cost: messageCost,
    profit:
      spend === null && messageCost === null ? null : revenue - (spend ?? 0) - (messageCost ?? 0),
    cost_per_conversation: spend === null ? null : ratio(spend, conversations),
    cost_per_lead: spend === null ? null : ratio(spend, leads),
    roas: ratio(revenue, spend),
  };
}

const headlineOf = (ad: AdReportRow) => ad.headline ?? ad.ad_id;

/** Unknown values (null) go last whichever the direction. */
function compare(a: AdReportRow, b: AdReportRow, key: SortKey, direction: Direction) {
  const sign = direction === "ascending" ? 1 : -1;
  if (key === "headline") return sign * headlineOf(a).localeCompare(headlineOf(b), "es");
  const x = a[key];
  const y = b[key];
  if (x === null || y === null) return x === y ? 0 : x === null ? 1 : -1;
  return sign * (x - y);
}

/** Only web links are links: the URL comes from the ad's referral. */
function webUrl(url: string | null) {
  if (!url) return null;
  try {
    return ["http:", "https:"].includes(new URL(url).protocol) ? url : null;
  } catch {
    return null;
  }
}

function AdCell({ ad }: { ad: AdReportRow }) {
  const href = webUrl(ad.source_url);
  const headline = ad.headline ?? "Anuncio sin título";
  return (
    <th scope="row" className="min-w-48 p-3 text-left font-normal">
      {href ? (
        <a
          href={href}
          target="_blank"
          rel="noopener noreferrer"
          className="font-medium text-emerald-700 hover:underline"
        >
          {headline}
        </a>
      ) : (
        <span className="font-medium">{headline}</span>
      )}
      <span className="block text-xs text-slate-500">{ad.ad_id}</span>
    </th>
  );
}

/** The Anuncios tab's table: one row per ad, sortable by any column, and a totals row. */
export function AdsTable({ ads, currency }: { ads: AdReportRow[]; currency: string }) {
  const [sort, setSort] = useState<{ key: SortKey; direction: Direction }>({
    key: "revenue",
    direction: "descending",
  });
  const money = new Intl.NumberFormat("es-ES", { style: "currency", currency });
  const show = (column: (typeof NUMERIC_COLUMNS)[number], value: number | null) =>
    orDash(value, (v) =>
      column.money ? money.format(v) : column.roas ? `${times.format(v)}x` : count.format(v),
    );
  const rows = [...ads].sort((a, b) => compare(a, b, sort.key, sort.direction));
  const totals = totalsOf(ads);

  /** A new column starts with the most first (A to Z for the ad); the same one flips. */
  const sortBy = (key: SortKey) =>
    setSort((current) =>
      current.key === key
        ? { key, direction: current.direction === "ascending" ? "descending" : "ascending" }
        : { key, direction: key === "headline" ? "ascending" : "descending" },
    );

  const header = (key: SortKey, label: string) => {
    const sorted = sort.key === key ? sort.direction : undefined;
    return (
      <th key={key} scope="col" aria-sort={sorted ?? "none"} className="p-0">
        <button
          type="button"
          onClick={() => sortBy(key)}
          className={`flex w-full items-center gap-1 p-3 text-xs uppercase hover:text-slate-800 ${key === "headline" ? "text-left" : "justify-end text-right"} ${sorted ? "text-slate-800" : ""}`}
        >
          {label}
          <span aria-hidden className="w-3">
            {sorted === "ascending" ? "▲" : sorted === "descending" ? "▼" : ""}
          </span>
        </button>
      </th>
    );
  };

  return (
    <div className="overflow-x-auto">
      <table className="w-full text-sm">
        <caption className="sr-only">Anuncios</caption>
        <thead className="text-slate-500">
          <tr>
            {header("headline", "Anuncio")}
            {NUMERIC_COLUMNS.map((column) => header(column.key, column.label))}
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {rows.map((ad) => (
            <tr key={ad.ad_id}>
              <AdCell ad={ad} />
              {NUMERIC_COLUMNS.map((column) => (
                <td key={column.key} className="p-3 text-right whitespace-nowrap tabular-nums">
                  {show(column, ad[column.key])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
        <tfoot className="border-t-2 border-slate-200 font-semibold">
          <tr>
            <th scope="row" className="p-3 text-left">
              Total
            </th>
            {NUMERIC_COLUMNS.map((column) => (
              <td key={column.key} className="p-3 text-right whitespace-nowrap tabular-nums">
                {show(column, totals[column.key])}
              </td>
            ))}
          </tr>
        </tfoot>
      </table>
    </div>
  );
}
