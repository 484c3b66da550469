import type { Conversion } from "../../../contracts/tracking";
import { DEFAULT_CURRENCY, STAGE_LABELS } from "../../../contracts/sales";
import { formatMessageTime } from "~/lib/format";
import { formatMoney } from "./money";

/** The conversions of a conversation the team cares about here: its lead and its sales. */
export const isLeadOrSale = (c: Conversion) =>
  c.event_name === "lead" || c.event_name === "purchase";

const metaError = (c: Conversion) => {
  const error = c.capi_result?.error;
  return typeof error === "string" && error ? error : null;
};

/** What Meta answered, in words (never only a colour). */
export function metaAnswer(c: Conversion) {
  switch (c.capi_status) {
    case "sent":
      return { text: "Recibido por Meta", style: "text-emerald-700" };
    case "pending":
      return { text: "Enviando a Meta…", style: "text-slate-600" };
    case "failed":
      return {
        text: `Meta lo rechazó: ${metaError(c) ?? "sin motivo indicado"}`,
        style: "text-red-700",
      };
    case "expired":
      return { text: "Caducado sin enviar", style: "text-amber-700" };
    case "not_sent": {
      const reason = metaError(c);
      return {
        text: reason ? `No se envía a Meta: ${reason}` : "No se envía a Meta",
        style: "text-slate-600",
      };
    }
  }
}

const conversionLabel = (c: Conversion) =>
  c.event_name === "purchase"
    ? c.conversion_value === null
      ? "Venta"
      : `Venta de ${formatMoney(c.conversion_value, c.currency ?? DEFAULT_CURRENCY)}`
    : c.custom_data?.source === "ia"
      ? `${STAGE_LABELS.lead} (por IA)`
      : STAGE_LABELS.lead;

/** "Conversiones enviadas a Meta": each lead and sale with its time and Meta's answer. */
export function ConversionsList({ conversions }: { conversions: Conversion[] }) {
  const shown = conversions.filter(isLeadOrSale);
  if (shown.length === 0) {
    return <p className="text-sm text-slate-600">Aún no hay interesados ni ventas.</p>;
  }
  return (
    <ul className="space-y-2" aria-label="Conversiones enviadas a Meta">
      {shown.map((c) => {
        const answer = metaAnswer(c);
        return (
          <li key={c.id} className="rounded-lg border border-slate-200 p-2 text-sm">
            <span className="flex justify-between gap-2">
              <span className="font-medium text-slate-900">{conversionLabel(c)}</span>
              <time dateTime={c.event_time} className="text-xs text-slate-500">
                {formatMessageTime(c.event_time)}
              </time>
            </span>
            <span className={`block text-xs ${answer.style}`}>{answer.text}</span>
          </li>
        );
      })}
    </ul>
  );
}
