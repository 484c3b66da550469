import { format } from "date-fns";
import { es } from "date-fns/locale";
import type { Conversion, ConversionEvent } from "../../../contracts/tracking";

export const EVENT_LABELS: Record<ConversionEvent, string> = {
  whatsapp_click: "Clic en WhatsApp",
  conversation_start: "Inicio de conversación",
  first_message: "Primer mensaje",
  lead: "Lead",
  contact: "Contacto",
  message_sent: "Mensaje enviado",
  purchase: "Compra",
};

const META_BADGES: Record<Conversion["capi_status"], { label: string; style: string }> = {
  sent: { label: "Enviado a Meta", style: "bg-green-100 text-green-800" },
  pending: { label: "Pendiente", style: "bg-amber-100 text-amber-800" },
  failed: { label: "Error", style: "bg-red-100 text-red-800" },
  expired: { label: "Caducado", style: "bg-red-100 text-red-800" },
  not_sent: { label: "No se envía", style: "bg-slate-100 text-slate-600" },
};

const money = (value: number, currency: string | null) =>
  new Intl.NumberFormat("es-ES", { style: "currency", currency: currency ?? "EUR" }).format(value);

export function ConversionsTable({ conversions }: { conversions: Conversion[] }) {
  if (conversions.length === 0) {
    return (
      <p className="p-6 text-center text-sm text-slate-600">No hay conversiones en este periodo.</p>
    );
  }
  return (
    <div className="overflow-x-auto">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Eventos de conversión</caption>
        <thead className="text-xs uppercase text-slate-500">
          <tr>
            <th className="p-3">Fecha</th>
            <th className="p-3">Evento</th>
            <th className="p-3">Teléfono</th>
            <th className="p-3">Fuente / campaña</th>
            <th className="p-3">Valor</th>
            <th className="p-3">Meta</th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {conversions.map((c) => {
            const badge = META_BADGES[c.capi_status];
            return (
              <tr key={c.id}>
                <td className="p-3 whitespace-nowrap">
                  {format(new Date(c.event_time), "dd/MM/yyyy HH:mm", { locale: es })}
                </td>
                <td className="p-3">{EVENT_LABELS[c.event_name]}</td>
                <td className="p-3">{c.phone_number ? `+${c.phone_number}` : "—"}</td>
                <td className="p-3">
                  {[c.tracking_params?.utm_source, c.tracking_params?.utm_campaign]
                    .filter(Boolean)
                    .join(" / ") || "Directo"}
                </td>
                <td className="p-3">
                  {c.conversion_value !== null ? money(c.conversion_value, c.currency) : "—"}
                </td>
                <td className="p-3">
                  <span className={`rounded-full px-2 py-0.5 text-xs ${badge.style}`}>
                    {badge.label}
                  </span>
                  {typeof c.capi_result?.error === "string" && (
                    <p className="mt-1 max-w-xs text-xs text-slate-500">{c.capi_result.error}</p>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
