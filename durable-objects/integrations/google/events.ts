/**
 * A booking's event in Google Calendar (decision 0127): after the booking's own transaction has
 * committed, what Google owes is written down (`google_booking_events.dirty`) and the store's
 * `google_events` job writes it: inserted with the booking's own event id (a retry whose first
 * answer was lost finds it there, 409, and patches it), patched when moved, deleted when
 * cancelled. A Google failure leaves it owed and the job is tried again later; an event Google
 * refuses as it is (decision 0154) is not owed until the booking changes again. The booking never
 * waits for Google nor fails because of it.
 */
import { and, eq, inArray } from "drizzle-orm";
import type { OrganizationDb } from "../../db";
import { bookings, googleBookingEvents, googleCalendars } from "../../schema";
import type { StoreDeps } from "../../../worker/http/deps";
import { GoogleError, type CalendarApi, type CalendarEvent } from "./client";
import { withCalendar } from "./service";

type BookingRow = typeof bookings.$inferSelect;
type EventRow = typeof googleBookingEvents.$inferSelect;

/** Events written per run; more left: again at once. */
const EVENTS_A_RUN = 20;

/** Google's event ids are base32hex (a-v, 0-9), 5 to 1024 characters: the booking's UUID fits. */
export const eventIdOf = (bookingId: string) => `bk${bookingId.replaceAll("-", "").toLowerCase()}`;

const eventOf = (booking: BookingRow): CalendarEvent => ({
  summary: booking.serviceName,
  description: [
    booking.status === "pending_payment" ? "Pendiente de pago." : null,
    booking.note,
    "Reservada desde la consola de ventas de WhatsApp.",
  ]
    .filter(Boolean)
    .join("\n"),
  start: { dateTime: booking.startsAt },
  end: { dateTime: booking.endsAt },
});

/**
 * After a booking's change committed (durable-objects/bookings/service.ts `announce`): its event is owed
 * to Google when the calendar is connected, or when it already has one (written once connected
 * again). Outside the booking's transaction, and never throws at the booking.
 */
export async function bookingChanged(deps: StoreDeps, booking: BookingRow) {
  try {
    const { orgDb } = deps;
    const [calendar] = await orgDb
      .select({ connected: googleCalendars.refreshTokenEncrypted })
      .from(googleCalendars)
      .where(eq(googleCalendars.organizationId, booking.organizationId));
    const now = new Date().toISOString();
    if (calendar?.connected) {
      await orgDb
        .insert(googleBookingEvents)
        .values({ bookingId: booking.id, organizationId: booking.organizationId, dirty: true })
        .onConflictDoUpdate({
          target: googleBookingEvents.bookingId,
          set: { dirty: true, updatedAt: now },
        });
      await deps.schedule("google_events", Date.now());
    } else {
      await orgDb
        .update(googleBookingEvents)
        .set({ dirty: true, updatedAt: now })
        .where(eq(googleBookingEvents.bookingId, booking.id));
    }
  } catch (error) {
    // The booking is done; its event is the job's, and a lost note costs only the event.
    console.error("google event note", booking.id, error);
  }
}

/** Writes one booking's event as the booking stands now. */
async function writeEvent(api: CalendarApi, chosen: string, row: EventRow, booking: BookingRow) {
  const eventId = eventIdOf(booking.id);
  const calendarId = row.calendarId ?? chosen;
  if (booking.status === "cancelled") {
    if (row.calendarId === null) return { present: false, calendarId: null };
    try {
      await api.deleteEvent(calendarId, eventId);
    } catch (error) {
      // Deleted already (by a retry, or by hand in Google Calendar).
      if (!(error instanceof GoogleError) || error.reason !== "not_found") throw error;
    }
    return { present: false, calendarId };
  }
  const event = eventOf(booking);
  if (!row.present) {
    try {
      await api.insertEvent(calendarId, eventId, event);
      return { present: true, calendarId };
    } catch (error) {
      if (!(error instanceof GoogleError) || error.reason !== "conflict") throw error;
      // An earlier insert went through and its answer was lost: the event is there.
    }
  }
  try {
    await api.patchEvent(calendarId, eventId, event);
  } catch (error) {
    // Deleted by hand in Google Calendar: the product does not put it back.
    if (!(error instanceof GoogleError) || error.reason !== "not_found") throw error;
  }
  return { present: true, calendarId };
}

async function owed(db: OrganizationDb, organizationId: string) {
  return db
    .select()
    .from(googleBookingEvents)
    .where(
      and(
        eq(googleBookingEvents.organizationId, organizationId),
        eq(googleBookingEvents.dirty, true),
      ),
    )
    .orderBy(googleBookingEvents.updatedAt)
    .limit(EVENTS_A_RUN);
}

/**
 * The `google_events` job: the events owed, written. A failure leaves its row owed and the run
 * throws at its end, so the scheduler tries again later, each time later (decision 0099); an
 * `invalid_grant` disconnects (service.ts) and the rows wait for the next connection.
 */
export async function runGoogleEvents(deps: StoreDeps, organizationId: string) {
  const rows = await owed(deps.orgDb, organizationId);
  if (rows.length === 0) return null;
  const booked = await deps.orgDb
    .select()
    .from(bookings)
    .where(
      inArray(
        bookings.id,
        rows.map((row) => row.bookingId),
      ),
    );
  let failed: unknown = null;
  for (const row of rows) {
    const booking = booked.find((b) => b.id === row.bookingId);
    if (!booking) continue;
    const updatedAt = row.updatedAt;
    try {
      const done = await withCalendar(deps, organizationId, (api, chosen) =>
        writeEvent(api, chosen, row, booking),
      );
      // Not connected: the rows wait for the next connection, which runs the job again.
      if (!done) return null;
      await deps.orgDb
        .update(googleBookingEvents)
        .set({
          present: done.value.present,
          calendarId: done.value.calendarId,
          attempts: 0,
          lastError: null,
          // Changed again meanwhile: still owed.
          dirty: false,
        })
        .where(
          and(
            eq(googleBookingEvents.bookingId, row.bookingId),
            eq(googleBookingEvents.updatedAt, updatedAt),
          ),
        );
    } catch (error) {
      if (error instanceof GoogleError && error.reason === "invalid_grant") return null;
      // Refused as it is: not owed any more (counted as refused) until the booking changes.
      const refused = error instanceof GoogleError && error.reason === "refused";
      if (refused) console.warn("google event refused", row.bookingId, error.providerMessage);
      await deps.orgDb
        .update(googleBookingEvents)
        .set({
          attempts: row.attempts + 1,
          lastError: error instanceof GoogleError ? error.message : String(error),
          ...(refused && { dirty: false }),
        })
        .where(
          and(
            eq(googleBookingEvents.bookingId, row.bookingId),
            eq(googleBookingEvents.updatedAt, updatedAt),
          ),
        );
      if (!refused) failed = error;
    }
  }
  if (failed) throw failed;
  return rows.length === EVENTS_A_RUN ? Date.now() : null;
}
