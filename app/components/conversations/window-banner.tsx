import { format, formatDistance } from "date-fns";
import { es } from "date-fns/locale";
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

function windowText(expiresAt: string | null, open: boolean, now: number) {
  if (!expiresAt) {
    return "El cliente todavía no ha escrito: WhatsApp solo permite iniciar la conversación con una plantilla aprobada.";
  }
  const closes = new Date(expiresAt);
  if (open) {
    return `Ventana de 24 h abierta: quedan ${formatDistance(closes, now, { locale: es })} (se cierra a las ${format(closes, "HH:mm", { locale: es })}).`;
  }
  return `La ventana de 24 horas se cerró ${formatDistance(closes, now, { addSuffix: true, locale: es })}: WhatsApp solo permite escribir con una plantilla aprobada.`;
}

/** One line above the composer: open and how long is left, or closed and why. */
export function WindowBanner({
  expiresAt,
  open,
  now,
}: {
  expiresAt: string | null;
  open: boolean;
  now: number;
}) {
  return (
    <p
      role="status"
      aria-label="Ventana de 24 horas"
      className={`border-t px-4 py-2 text-xs ${open ? "border-slate-200 bg-white text-slate-500" : "border-amber-200 bg-amber-50 text-amber-800"}`}
    >
      {windowText(expiresAt, open, now)}
    </p>
  );
}
