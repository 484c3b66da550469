import type { Broadcast } from "../../../contracts/broadcasts";
import { formatZoned } from "./zoned-time";

/** Whether the broadcast has started sending (its results mean something). */
export const hasStarted = (b: Pick<Broadcast, "status" | "started_at">) =>
  b.started_at !== null ||
  b.status === "sending" ||
  b.status === "paused" ||
  b.status === "completed";

/** When it goes or went, in words: "Programada para el 27 nov 2026, 10:00", "Enviada el …". */
export function whenOf(b: Broadcast, timeZone: string) {
  const at = (iso: string) => formatZoned(iso, timeZone);
  switch (b.status) {
    case "draft":
      return b.send_at ? `Para el ${at(b.send_at)}` : "Sin programar";
    case "scheduled":
      return b.send_at ? `Programada para el ${at(b.send_at)}` : "Programada";
    case "sending":
    case "paused":
      return b.started_at ? `Desde el ${at(b.started_at)}` : "—";
    case "completed":
    case "cancelled":
      return b.started_at ? `Enviada el ${at(b.started_at)}` : "No se envió";
  }
}

/** The list's "Cuándo": the date it is planned for, or it started; what is missing in words. */
export function whenShort(b: Broadcast, timeZone: string) {
  const at = b.status === "draft" || b.status === "scheduled" ? b.send_at : b.started_at;
  if (at) return formatZoned(at, timeZone);
  return b.status === "draft" ? "Sin programar" : "—";
}
