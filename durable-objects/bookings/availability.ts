/**
 * Availability (contract section 18, decision 0078): the slots a service can be booked in,
 * every `SLOT_STEP_MINUTES` from each opening, inside the opening hours, after the minimum
 * notice, and clear of every live booking of the calendar (with its buffer). The calendars'
 * busy times are one list; Google Calendar's busy intervals, when connected, take every
 * calendar (decision 0126).
 */
import { and, eq, gt, inArray, lt, or } from "drizzle-orm";
import type { OrganizationDb } from "../db";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { fieldError } from "../../worker/http/errors";
import {
  MAX_AVAILABILITY_DAYS,
  MAX_BUFFER_MINUTES,
  MAX_DURATION_MINUTES,
  SLOT_STEP_MINUTES,
  type DayOrInstant,
  type Slot,
} from "../../contracts/bookings";
import { daysAsInterval, openIntervals, type Interval, type OpeningHours } from "./hours";
import { bookings } from "../schema";
import { findService, type ServiceRow } from "./services";
import { readBookingSettings, type BookingSettings } from "./settings";
import { googleBusy } from "../integrations/google/service";
import { GOOGLE_UNAVAILABLE_NOTICE } from "../../contracts/google-calendar";

const MINUTE_MS = 60_000;
const DAY_MS = 24 * 60 * MINUTE_MS;
/** A range of whole local days may be an hour longer than its days (a fall-back night). */
const MAX_RANGE_MS = MAX_AVAILABILITY_DAYS * DAY_MS + 60 * MINUTE_MS;
/** Slots offered when the one asked for was taken, and how far around it they are looked for. */
const NEAREST_SLOTS = 5;
const NEAREST_BEFORE_MS = 3 * DAY_MS;
const NEAREST_AFTER_MS = 14 * DAY_MS;

/** The longest a booking keeps its calendar busy: how far back a busy one may have started. */
const LONGEST_BUSY_MS = (MAX_DURATION_MINUTES + MAX_BUFFER_MINUTES) * MINUTE_MS;

/** The organization's own calendar, when a service names nobody to perform it. */
export const OWN_CALENDAR = "";

/** A calendar's busy interval: a live booking, from its start to the end of its buffer. */
interface Busy extends Interval {
  calendar: string;
}

const iso = (at: number) => new Date(at).toISOString();

/** A booking holds its calendar while confirmed, or while its payment is awaited. */
const liveAt = (now: number) =>
  or(
    eq(bookings.status, "confirmed"),
    and(eq(bookings.status, "pending_payment"), gt(bookings.expiresAt, iso(now))),
  );

/**
 * The live bookings whose busy time meets `range`. Their start is bounded on both sides (none
 * lasts longer than `LONGEST_BUSY_MS`), so the index on it is walked only that far back.
 */
export const busyDuring = (range: Interval, now: number) =>
  and(
    gt(bookings.startsAt, iso(range.start - LONGEST_BUSY_MS)),
    lt(bookings.startsAt, iso(range.end)),
    gt(bookings.busyUntil, iso(range.start)),
    liveAt(now),
  );

/** The calendars a service's booking may take (one named member, or any of its staff). */
export const calendarsOf = (service: ServiceRow, staffUserId?: string | null) =>
  staffUserId
    ? [staffUserId]
    : service.staffUserIds.length > 0
      ? service.staffUserIds
      : [OWN_CALENDAR];

/** What a booking of `service` starting at `start` keeps busy: its duration and its buffer. */
export const busyOf = (service: ServiceRow, start: number) => ({
  start,
  end: start + service.durationMinutes * MINUTE_MS,
  busyUntil: start + (service.durationMinutes + service.bufferMinutes) * MINUTE_MS,
});

const overlaps = (a: Interval, b: Interval) => a.start < b.end && b.start < a.end;

/** The live bookings of these calendars that meet [from, to). */
async function busyTimes(
  db: OrganizationDb,
  organizationId: string,
  calendars: string[],
  range: Interval,
  now: number,
): Promise<Busy[]> {
  const rows = await db
    .select({
      calendar: bookings.calendar,
      startsAt: bookings.startsAt,
      busyUntil: bookings.busyUntil,
    })
    .from(bookings)
    .where(
      and(
        eq(bookings.organizationId, organizationId),
        inArray(bookings.calendar, calendars),
        busyDuring(range, now),
      ),
    );
  return rows.map((row) => ({
    calendar: row.calendar,
    start: Date.parse(row.startsAt),
    end: Date.parse(row.busyUntil),
  }));
}

/** The earliest a booking may start: now plus the organization's notice. */
export const earliestStart = (settings: BookingSettings, now: number) =>
  now + settings.minNoticeMinutes * MINUTE_MS;

/**
 * The free slots of a service in [from, to): one per start time, with the first of its
 * calendars free for it (the slot names the staff member when the service has staff).
 */
function freeSlots(
  service: ServiceRow,
  hours: OpeningHours,
  calendars: string[],
  busy: Busy[],
  range: Interval,
  earliest: number,
  external: Interval[] = [],
): Slot[] {
  const slots: Slot[] = [];
  const duration = service.durationMinutes * MINUTE_MS;
  // Whole intervals: slots start every step from the opening, wherever the range begins.
  for (const open of openIntervals(hours, range.start, range.end)) {
    for (
      let start = open.start;
      start + duration <= open.end;
      start += SLOT_STEP_MINUTES * MINUTE_MS
    ) {
      if (start < earliest || start < range.start || start >= range.end) continue;
      const taking = busyOf(service, start);
      const needed = { start, end: taking.busyUntil };
      // Google Calendar's busy time takes every calendar of the organization (decision 0126).
      if (external.some((b) => overlaps(b, needed))) continue;
      const calendar = calendars.find(
        (name) => !busy.some((b) => b.calendar === name && overlaps(b, needed)),
      );
      if (calendar === undefined) continue;
      slots.push({
        start: new Date(start).toISOString(),
        end: new Date(taking.end).toISOString(),
        ...(calendar !== OWN_CALENDAR && { staff_user_id: calendar }),
      });
    }
  }
  return slots;
}

/** The slots of a service in a range, as the organization's data stands now. */
export async function slotsIn(
  db: OrganizationDb,
  organizationId: string,
  service: ServiceRow,
  settings: BookingSettings,
  {
    range,
    staffUserId,
    now,
    external,
  }: { range: Interval; staffUserId?: string | null; now: number; external?: Interval[] },
) {
  if (!settings.hours || !service.active) return [];
  const calendars = calendarsOf(service, staffUserId);
  // A slot near the range's end lasts past it, into bookings that start after it.
  const reach = { start: range.start, end: range.end + LONGEST_BUSY_MS };
  const busy = await busyTimes(db, organizationId, calendars, reach, now);
  return freeSlots(
    service,
    settings.hours,
    calendars,
    busy,
    range,
    earliestStart(settings, now),
    external,
  );
}

/**
 * The slots offered to someone booking (the API's availability, the booking Flow, the AI's
 * `check_availability`): `slotsIn` less Google Calendar's busy times when it is connected, read
 * with one `freeBusy` call as far as a slot near the range's end keeps the calendar busy. Google
 * failing leaves the own calendar's slots, and `google` says so (decision 0126).
 */
export async function offeredSlots(
  deps: StoreDeps,
  organizationId: string,
  service: ServiceRow,
  settings: BookingSettings,
  options: { range: Interval; staffUserId?: string | null; now: number },
) {
  const google =
    settings.hours && service.active
      ? await googleBusy(deps, organizationId, {
          start: options.range.start,
          end: options.range.end + LONGEST_BUSY_MS,
        })
      : { use: null, busy: [] };
  const slots = await slotsIn(deps.orgDb, organizationId, service, settings, {
    ...options,
    external: google.busy,
  });
  return { slots, google: google.use };
}

/** The free slots nearest to `start` (the answer of a `slot_taken`), in time order. */
export async function nearestSlots(
  db: OrganizationDb,
  organizationId: string,
  service: ServiceRow,
  settings: BookingSettings,
  { start, staffUserId, now }: { start: number; staffUserId?: string | null; now: number },
) {
  const range = { start: start - NEAREST_BEFORE_MS, end: start + NEAREST_AFTER_MS };
  const slots = await slotsIn(db, organizationId, service, settings, { range, staffUserId, now });
  const distance = (slot: Slot) => Math.abs(Date.parse(slot.start) - start);
  return slots
    .sort((a, b) => distance(a) - distance(b))
    .slice(0, NEAREST_SLOTS)
    .sort((a, b) => Date.parse(a.start) - Date.parse(b.start));
}

/** A query's `from` and `to` as instants: days of the organization's calendar, or instants. */
function rangeOf(from: DayOrInstant, to: DayOrInstant, timeZone: string): Interval {
  const start =
    "date" in from
      ? daysAsInterval(from.date, from.date, timeZone).start
      : Date.parse(from.instant);
  const end =
    "date" in to ? daysAsInterval(to.date, to.date, timeZone).end : Date.parse(to.instant);
  if (end <= start) throw fieldError("to", "El final debe ser posterior al inicio");
  if (end - start > MAX_RANGE_MS) {
    throw fieldError("to", `Como mucho ${MAX_AVAILABILITY_DAYS} días por consulta`);
  }
  return { start, end };
}

/**
 * `GET /bookings/availability`. With Google Calendar connected its busy times count too; when
 * Google fails the slots are the own calendar's, and `google_calendar: "unavailable"` says so.
 */
export async function availability(
  deps: StoreDeps,
  member: Member,
  query: { service_id: string; from: DayOrInstant; to: DayOrInstant; staff_user_id?: string },
) {
  const { orgDb } = deps;
  const service = await findService(orgDb, member.organizationId, query.service_id);
  const settings = await readBookingSettings(orgDb, member.organizationId);
  if (query.staff_user_id && !service.staffUserIds.includes(query.staff_user_id)) {
    throw fieldError("staff_user_id", "Esa persona no atiende este servicio");
  }
  // Without hours there is no slot; the range is still checked, as days of UTC.
  const range = rangeOf(query.from, query.to, settings.hours?.timeZone ?? "UTC");
  const { slots, google } = await offeredSlots(deps, member.organizationId, service, settings, {
    range,
    staffUserId: query.staff_user_id,
    now: Date.now(),
  });
  return {
    slots,
    google_calendar: google,
    ...(google === "unavailable" && { notice: GOOGLE_UNAVAILABLE_NOTICE }),
  };
}
