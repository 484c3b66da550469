/**
 * Quiet hours (contract section 17): no broadcast or follow-up is sent between the
 * organization's `quiet_hours_start` and `quiet_hours_end` in its time zone (21:00-09:00 unless
 * it set others); a send that falls inside them waits for their end.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { organizations } from "../db/schema";

export interface QuietHours {
  timeZone: string;
  /** HH:MM, local. When start is later than end, the quiet hours cross midnight. */
  start: string;
  end: string;
}

const MINUTE_MS = 60_000;
const DAY_MINUTES = 24 * 60;

const minutesOf = (time: string) => {
  const [hours, minutes] = time.split(":").map(Number);
  return hours! * 60 + minutes!;
};

/** The local time of day at `at` in `timeZone`, in minutes since midnight (seconds dropped). */
function localMinutes(at: Date, timeZone: string) {
  const parts = new Intl.DateTimeFormat("en-GB", {
    timeZone,
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(at);
  const part = (type: string) => Number(parts.find((p) => p.type === type)!.value);
  return part("hour") * 60 + part("minute");
}

/** Whether `minute` of the day is inside [start, end), which may cross midnight. */
function inside(minute: number, start: number, end: number) {
  return start <= end ? minute >= start && minute < end : minute >= start || minute < end;
}

/**
 * When the quiet hours `at` falls in end (the first instant the local clock reads their end),
 * or null when `at` is outside them (or they are empty: start equal to end).
 */
export function quietHoursEnd(at: Date, quiet: QuietHours): Date | null {
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const now = localMinutes(at, quiet.timeZone);
  if (start === end || !inside(now, start, end)) return null;
  const wholeMinute = at.getTime() - (at.getTime() % MINUTE_MS);
  let until = wholeMinute + ((end - now + DAY_MINUTES) % DAY_MINUTES) * MINUTE_MS;
  // A change of the clocks (summer time) in between moves the local end by its offset.
  const drift = (end - localMinutes(new Date(until), quiet.timeZone) + DAY_MINUTES) % DAY_MINUTES;
  if (drift !== 0) until += (drift > DAY_MINUTES / 2 ? drift - DAY_MINUTES : drift) * MINUTE_MS;
  return new Date(until);
}

/** When the organization's quiet hours that `at` falls in end, or null outside them. */
export async function organizationQuietHoursEnd(db: Db, organizationId: string, at: Date) {
  const organization = await db.query.organizations.findFirst({
    where: eq(organizations.id, organizationId),
    columns: { timeZone: true, quietHoursStart: true, quietHoursEnd: true },
  });
  if (!organization) return null;
  return quietHoursEnd(at, {
    timeZone: organization.timeZone,
    start: organization.quietHoursStart,
    end: organization.quietHoursEnd,
  });
}
