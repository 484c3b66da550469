/**
 * The Agenda's days, in the organization's time zone: the URL names a day ("2026-12-03") and a
 * view (day or week, Monday first); the bookings are read between the instants they start and end.
 */
import { isoToZoned, zonedToIso } from "~/components/broadcasts/zoned-time";

export type AgendaView = "day" | "week";

const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MS_A_DAY = 86_400_000;

/** The day `days` after `date` (both "AAAA-MM-DD"). */
export function addDays(date: string, days: number) {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * MS_A_DAY).toISOString().slice(0, 10);
}

/** Today in `timeZone`. */
export const today = (timeZone: string) =>
  isoToZoned(new Date().toISOString(), timeZone).slice(0, 10);

/** The URL's day, if it is one, else today. */
export function dayOf(text: string | null, timeZone: string) {
  return text && DAY.test(text) && !Number.isNaN(Date.parse(`${text}T00:00:00Z`))
    ? text
    : today(timeZone);
}

/** The days the view shows: the day, or its week from Monday. */
export function daysShown(date: string, view: AgendaView) {
  if (view === "day") return [date];
  const weekday = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
  const monday = addDays(date, -weekday);
  return Array.from({ length: 7 }, (_, i) => addDays(monday, i));
}

/** The instants the view covers (`to` excluded), for `GET /bookings`. */
export function rangeOf(days: string[], timeZone: string) {
  return {
    from: zonedToIso(days[0]!, timeZone)!,
    to: zonedToIso(addDays(days.at(-1)!, 1), timeZone)!,
  };
}

/** The day (in `timeZone`) an instant falls on. */
export const dayOfInstant = (iso: string, timeZone: string) =>
  isoToZoned(iso, timeZone).slice(0, 10);

/** "miércoles, 3 de diciembre de 2026". */
export const longDay = (date: string) =>
  new Intl.DateTimeFormat("es-ES", { dateStyle: "full", timeZone: "UTC" }).format(
    new Date(`${date}T00:00:00Z`),
  );

/** "mié 3 dic". */
export const shortDay = (date: string) =>
  new Intl.DateTimeFormat("es-ES", {
    weekday: "short",
    day: "numeric",
    month: "short",
    timeZone: "UTC",
  }).format(new Date(`${date}T00:00:00Z`));
