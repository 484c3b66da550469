import type { Booking } from "../../../contracts/bookings";
import { BookingItem, type BookingItemProps } from "./booking-item";
import { dayOfInstant, longDay, shortDay } from "./dates";

/**
 * The days shown (one, or a week's seven), each a list of its bookings in start order. A week
 * lays them side by side on a wide screen.
 */
export function AgendaDays({
  days,
  bookings,
  timeZone,
  customerOf,
  personOf,
  onMove,
}: {
  days: string[];
  bookings: Booking[];
  timeZone: string;
  customerOf: (booking: Booking) => string;
  personOf: (userId: string | null) => string | null;
  onMove: BookingItemProps["onMove"];
}) {
  const week = days.length > 1;
  return (
    <div className={week ? "grid gap-3 sm:grid-cols-2 xl:grid-cols-4 2xl:grid-cols-7" : ""}>
      {days.map((day) => {
        const ofDay = bookings.filter((b) => dayOfInstant(b.start, timeZone) === day);
        const title = week ? shortDay(day) : longDay(day);
        return (
          <section key={day} aria-label={longDay(day)} className="min-w-0">
            <h2 className="mb-2 text-sm font-semibold capitalize text-slate-900">{title}</h2>
            {ofDay.length === 0 ? (
              <p className="rounded-lg border border-dashed border-slate-300 p-3 text-sm text-slate-600">
                Sin citas
              </p>
            ) : (
              <ul aria-label={`Citas del ${longDay(day)}`} className="space-y-2">
                {ofDay.map((booking) => (
                  <BookingItem
                    key={booking.id}
                    booking={booking}
                    timeZone={timeZone}
                    customer={customerOf(booking)}
                    person={personOf(booking.staff_user_id)}
                    onMove={onMove}
                  />
                ))}
              </ul>
            )}
          </section>
        );
      })}
    </div>
  );
}
