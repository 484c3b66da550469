/**
 * The organization's bookings settings (decision 0076): its structured opening hours, away
 * message and minimum notice, one row of its store, set through `PATCH /organizations/{id}`
 * beside the organization's global fields and read by availability and the inbound path.
 */
import { eq } from "drizzle-orm";
import type { OrganizationDb } from "../db";
import {
  DEFAULT_MIN_NOTICE_MINUTES,
  type BookingHours,
  type BusinessHoursInput,
} from "../../contracts/bookings";
import { isOpenAt, type OpeningHours } from "./hours";
import { bookingSettings } from "../schema";

type SettingsRow = typeof bookingSettings.$inferSelect;

/** What the organization gives of its bookings settings in one change. */
export interface BookingSettingsChange {
  businessHours?: BusinessHoursInput;
  awayMessage?: { enabled: boolean; text: string | null };
  minNoticeMinutes?: number;
}

export interface BookingSettings {
  /** Null until the organization sets its structured hours. */
  hours: OpeningHours | null;
  away: { enabled: boolean; text: string | null };
  minNoticeMinutes: number;
}

const UNSET: BookingSettings = {
  hours: null,
  away: { enabled: false, text: null },
  minNoticeMinutes: DEFAULT_MIN_NOTICE_MINUTES,
};

const toSettings = (row: SettingsRow): BookingSettings => ({
  hours:
    row.timeZone && row.week
      ? { timeZone: row.timeZone, week: row.week, closedDates: row.closedDates }
      : null,
  away: { enabled: row.awayEnabled, text: row.awayText },
  minNoticeMinutes: row.minNoticeMinutes,
});

export async function readBookingSettings(
  db: OrganizationDb,
  organizationId: string,
): Promise<BookingSettings> {
  const [row] = await db
    .select()
    .from(bookingSettings)
    .where(eq(bookingSettings.organizationId, organizationId));
  return row ? toSettings(row) : UNSET;
}

/** Writes what the change gives, keeping the rest. */
export async function saveBookingSettings(
  db: OrganizationDb,
  organizationId: string,
  change: BookingSettingsChange,
) {
  const columns = {
    ...(change.businessHours && {
      timeZone: change.businessHours.time_zone,
      week: change.businessHours.week,
      closedDates: [...new Set(change.businessHours.closed_dates)].sort(),
    }),
    ...(change.awayMessage && {
      awayEnabled: change.awayMessage.enabled,
      awayText: change.awayMessage.text,
    }),
    ...(change.minNoticeMinutes !== undefined && { minNoticeMinutes: change.minNoticeMinutes }),
    updatedAt: new Date().toISOString(),
  };
  await db
    .insert(bookingSettings)
    .values({ organizationId, closedDates: [], ...columns })
    .onConflictDoUpdate({ target: bookingSettings.organizationId, set: columns });
}

/** The settings as the organization's answer carries them, with whether it is open at `at`. */
export const toBookingHours = (settings: BookingSettings, at: number): BookingHours => ({
  opening_hours: settings.hours && {
    time_zone: settings.hours.timeZone,
    week: settings.hours.week,
    closed_dates: settings.hours.closedDates,
  },
  away_message: settings.away,
  min_notice_minutes: settings.minNoticeMinutes,
  open_now: settings.hours && isOpenAt(settings.hours, at),
});
