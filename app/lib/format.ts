import { differenceInHours, format, formatDistanceToNow } from "date-fns";
import { es } from "date-fns/locale";

/** The spec's message times: under 24 h "HH:mm"; under 168 h weekday and time; else full date. */
export function formatMessageTime(iso: string, now = new Date()) {
  const date = new Date(iso);
  const hours = differenceInHours(now, date);
  if (hours < 24) return format(date, "HH:mm", { locale: es });
  if (hours < 168) return format(date, "EEEE HH:mm", { locale: es });
  return format(date, "dd/MM/yyyy HH:mm", { locale: es });
}

/** "hace 5 minutos". */
export function formatRelative(iso: string) {
  return formatDistanceToNow(new Date(iso), { addSuffix: true, locale: es });
}
