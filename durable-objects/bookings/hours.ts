/**
 * Opening hours as instants (decision 0078): a week of local intervals and closed dates, read in
 * the organization's time zone, turned into UTC intervals day by day. Each local time is
 * converted with the offset the zone has at that moment, so a day when the clocks change opens
 * and closes at its own local times and lasts what it really lasts.
 */
import { WEEK_DAYS, type Week } from "../../contracts/bookings";
import { instantOfWall, wallClock } from "../../contracts/zoned-time";

export interface OpeningHours {
  timeZone: string;
  week: Week;
  closedDates: string[];
}

/** An interval of time, in milliseconds since the epoch: [start, end). */
export interface Interval {
  start: number;
  end: number;
}

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** How far ahead the next opening is looked for (a year of closed dates at most). */
const LOOK_AHEAD_DAYS = 400;

/** The local date (YYYY-MM-DD) at `at` in `timeZone`. */
export function localDate(at: number, timeZone: string) {
  const p = wallClock(at, timeZone);
  return `${p.year}-${String(p.month).padStart(2, "0")}-${String(p.day).padStart(2, "0")}`;
}

/**
 * The instant the local clock of `timeZone` reads `minutes` after midnight of `date`. A time
 * the clocks skip (02:30 on a spring-forward night) is read with the offset before the change.
 */
export function instantOf(date: string, minutes: number, timeZone: string) {
  return instantOfWall(Date.parse(`${date}T00:00:00Z`) + minutes * MINUTE_MS, timeZone);
}

const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

const minutesOfDay = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3));

/** The weekday of a calendar date, as the week names it. */
const weekDayOf = (date: string) => WEEK_DAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7]!;

/** The opening intervals of one local date, in order (none on a closed date). */
function intervalsOfDate(hours: OpeningHours, date: string): Interval[] {
  if (hours.closedDates.includes(date)) return [];
  return hours.week[weekDayOf(date)]
    .map(([open, close]) => ({
      start: instantOf(date, minutesOfDay(open), hours.timeZone),
      end: instantOf(date, minutesOfDay(close), hours.timeZone),
    }))
    .sort((a, b) => a.start - b.start);
}

/**
 * The whole opening intervals that meet [from, to), in order; one that ends as the next begins
 * (a day open until 24:00 and the next from 00:00) is one interval.
 */
export function openIntervals(hours: OpeningHours, from: number, to: number): Interval[] {
  const intervals: Interval[] = [];
  // A local date may start before `from` in UTC: the day before is read too.
  const last = localDate(to, hours.timeZone);
  for (let date = addDays(localDate(from, hours.timeZone), -1); date <= last;) {
    for (const interval of intervalsOfDate(hours, date)) {
      const previous = intervals.at(-1);
      if (previous?.end === interval.start) previous.end = interval.end;
      else intervals.push({ ...interval });
    }
    date = addDays(date, 1);
  }
  return intervals.filter((interval) => interval.start < to && from < interval.end);
}

/** Whether the business is open at `at`. */
export const isOpenAt = (hours: OpeningHours, at: number) =>
  openIntervals(hours, at, at + 1).length > 0;

/** When the business next opens after `at` (null: never within a year). */
export function nextOpening(hours: OpeningHours, at: number): number | null {
  const first = localDate(at, hours.timeZone);
  for (let day = 0; day <= LOOK_AHEAD_DAYS; day++) {
    const opening = intervalsOfDate(hours, addDays(first, day)).find(
      (interval) => interval.start > at,
    );
    if (opening) return opening.start;
  }
  return null;
}

/** [from, to) of local dates `from` and `to` (both included), as instants. */
export function daysAsInterval(from: string, to: string, timeZone: string): Interval {
  return { start: instantOf(from, 0, timeZone), end: instantOf(addDays(to, 1), 0, timeZone) };
}
