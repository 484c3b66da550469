import { format, formatDistance } from "date-fns";
import { es } from "date-fns/locale";
import type { ConversationBilling } from "../../../contracts/conversations";
import { useEffect, useState } from "react";

const TICK_MS = 60_000;
/** setTimeout's largest delay; a window never lasts longer than 24 h anyway. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Whether WhatsApp's 24-hour customer-service window is open now, re-evaluated every minute
 * and exactly when it closes.
 */
export function useWindowClock(expiresAt: string | null) {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    if (!expiresAt) return;
    const left = Date.parse(expiresAt) - Date.now();
    if (left <= 0 || left > MAX_TIMEOUT_MS) return;
    const timer = setTimeout(() => setNow(Date.now()), left + 50);
    return () => clearTimeout(timer);
  }, [expiresAt]);
  const open = expiresAt !== null && Date.parse(expiresAt) > now;
  return { open, now };
}

/** "queda 1 día", "queda menos de un minuto", "quedan 23 horas": the verb agrees with the count. */
export function timeLeft(until: Date, now: number) {
  const distance = formatDistance(until, now, { locale: es });
  return `${/\b(1|un|una)\b/.test(distance) ? "queda" : "quedan"} ${distance}`;
}

/**
 * What the window allows now. `historyOnly`: the customer's messages all came with the WhatsApp
 * Business app's history, which opens no window (contract section 16): they did write, before.
 */
export function windowText(
  expiresAt: string | null,
  open: boolean,
  now: number,
  historyOnly = false,
) {
  if (!expiresAt && historyOnly) {
    return "El cliente no ha escrito desde que se conectó el número (lo anterior es el historial de la app): WhatsApp solo permite escribirle con una plantilla aprobada.";
  }
  if (!expiresAt) {
    return "El cliente todavía no ha escrito: WhatsApp solo permite iniciar la conversación con una plantilla aprobada.";
  }
  const closes = new Date(expiresAt);
  if (open) {
    return `Ventana de 24 h abierta: ${timeLeft(closes, now)} (se cierra a las ${format(closes, "HH:mm", { locale: es })}).`;
  }
  return `La ventana de 24 horas se cerró ${formatDistance(closes, now, { addSuffix: true, locale: es })}: WhatsApp solo permite escribir con una plantilla aprobada.`;
}

/** Meta's pricing categories, as the console names them. */
const CATEGORY_LABELS: Record<string, string> = {
  service: "servicio",
  marketing: "marketing",
  marketing_lite: "marketing lite",
  utility: "utilidad",
  authentication: "autenticación",
  authentication_international: "autenticación internacional",
  referral_conversion: "conversión de anuncio",
};

/**
 * What Meta bills for the conversation: billable messages, and an ad's free window (shown in
 * the conversation's details).
 */
export function billingText(billing: ConversationBilling, now: number) {
  const parts = Object.entries(billing.by_category)
    .map(([category, n]) => `${CATEGORY_LABELS[category] ?? category} ${n}`)
    .join(", ");
  const billed =
    billing.billable_messages === 0
      ? "Ningún mensaje facturado por Meta."
      : `Mensajes facturados por Meta: ${billing.billable_messages} (${parts}).`;
  const free = billing.free_entry_point_until;
  if (!free || Date.parse(free) <= now) return billed;
  return `${billed} Conversación de anuncio gratuita hasta el ${format(new Date(free), "d MMM, HH:mm", { locale: es })}.`;
}

/** One line above the composer: open and how long is left, or closed and why. */
export function WindowBanner({
  expiresAt,
  open,
  now,
  historyOnly,
}: {
  expiresAt: string | null;
  open: boolean;
  now: number;
  historyOnly: boolean;
}) {
  return (
    <p
      role="status"
      aria-label="Ventana de 24 horas"
      className={`text-xs ${open ? "px-4 pt-1.5 text-slate-600" : "mx-3 mt-2 rounded-lg bg-amber-50 px-3 py-2 text-amber-900"}`}
    >
      {windowText(expiresAt, open, now, historyOnly)}
    </p>
  );
}
