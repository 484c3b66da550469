/**
 * Clocks in a time zone (IANA) with `Intl` alone, shared by the server and the console: an
 * organization's hours, quiet hours, bookings and broadcasts are in its zone, whatever the
 * machine's or the browser's own zone is.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

/** One formatter per locale and options for the page's or isolate's life: building one costs more than using it. */
export function zonedFormat(locale: string, options: Intl.DateTimeFormatOptions) {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

/** The wall clock's date and time at an instant (ms) in `timeZone`. */
export function wallClock(at: number, timeZone: string) {
  const parts = zonedFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    second: "2-digit",
  }).formatToParts(new Date(at));
  const part = (type: Intl.DateTimeFormatPartTypes) =>
    Number(parts.find((p) => p.type === type)!.value);
  return {
    year: part("year"),
    month: part("month"),
    day: part("day"),
    hour: part("hour"),
    minute: part("minute"),
    second: part("second"),
  };
}

/** How far the zone's clock is ahead of UTC at `at`, in milliseconds. */
function offsetAt(at: number, timeZone: string) {
  const p = wallClock(at, timeZone);
  const wholeSecond = at - (((at % 1000) + 1000) % 1000);
  return Date.UTC(p.year, p.month - 1, p.day, p.hour, p.minute, p.second) - wholeSecond;
}

/**
 * The instant (ms) the zone's clock reads `wall` (a wall time written as if it were UTC). A
 * time the clocks skip (02:30 on a spring-forward night) is read with the offset before the
 * change.
 */
export function instantOfWall(wall: number, timeZone: string) {
  // The offset at the wall time read as UTC is a guess; the offset at that guess is the one in
  // force then (in a skipped hour, the one before the change).
  const guess = wall - offsetAt(wall, timeZone);
  return wall - offsetAt(guess, timeZone);
}
