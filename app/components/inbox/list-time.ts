import { differenceInCalendarDays, format } from "date-fns";
import { es } from "date-fns/locale";

/**
 * When a conversation last moved, as a chat list says it in little room: "14:05" today,
 * "ayer", the weekday within the week, else the date ("03/11/26").
 */
export function listTime(iso: string, now = new Date()) {
  const date = new Date(iso);
  const days = differenceInCalendarDays(now, date);
  if (days <= 0) return format(date, "HH:mm", { locale: es });
  if (days === 1) return "ayer";
  if (days < 7) return format(date, "EEEE", { locale: es });
  return format(date, "dd/MM/yy", { locale: es });
}
