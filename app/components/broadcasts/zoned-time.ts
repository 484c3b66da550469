/**
 * Times in the organization's time zone (IANA), which is where its broadcasts are scheduled
 * and its quiet hours hold, whatever the browser's own zone is. Only `Intl`: no library.
 */
import { instantOfWall, wallClock, zonedFormat } from "../../../contracts/zoned-time";

const pad = (n: number) => String(n).padStart(2, "0");

/**
 * "2026-11-27T10:00" (a `datetime-local` value) or "2026-11-27" (a day, at 00:00) read in
 * `timeZone`, as a UTC ISO instant; null when it is not such a value.
 */
export function zonedToIso(local: string, timeZone: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}))?$/.exec(local);
  if (!match) return null;
  const [, y, mo, d, h = "0", mi = "0"] = match;
  const asUtc = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi));
  if (Number.isNaN(asUtc)) return null;
  return new Date(instantOfWall(asUtc, timeZone)).toISOString();
}

/** An instant as a `datetime-local` value ("2026-11-27T10:00") in `timeZone`. */
export function isoToZoned(iso: string, timeZone: string): string {
  const w = wallClock(Date.parse(iso), timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}`;
}

/** "27 nov 2026, 10:00" in `timeZone`. */
export function formatZoned(iso: string, timeZone: string) {
  return zonedFormat("es-ES", { timeZone, dateStyle: "medium", timeStyle: "short" }).format(
    new Date(iso),
  );
}

/** "10:00" in `timeZone`. */
export function formatZonedTime(iso: string, timeZone: string) {
  return zonedFormat("es-ES", { timeZone, timeStyle: "short" }).format(new Date(iso));
}

/** "27 nov 2026" in `timeZone`. */
export function formatZonedDay(iso: string, timeZone: string) {
  return zonedFormat("es-ES", { timeZone, dateStyle: "medium" }).format(new Date(iso));
}

/** Minutes since midnight of "HH:MM". */
const minutesOf = (time: string) => {
  const [h = "0", m = "0"] = time.split(":");
  return Number(h) * 60 + Number(m);
};

/**
 * Whether a wall-clock time ("2026-11-27T22:30", its "HH:MM" part) falls inside the quiet
 * hours `start`-`end`, which may cross midnight (21:00-09:00).
 */
export function inQuietHours(local: string, start: string, end: string) {
  const at = minutesOf(local.slice(11, 16));
  const from = minutesOf(start);
  const to = minutesOf(end);
  if (from === to) return false;
  return from < to ? at >= from && at < to : at >= from || at < to;
}

/** Every time zone the browser knows, with `current` first when it is not among them. */
export function timeZones(current: string): string[] {
  const known =
    typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return known.includes(current) ? known : [current, ...known];
}
