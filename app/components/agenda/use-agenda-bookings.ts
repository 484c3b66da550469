import { useMemo } from "react";
import type { Booking } from "../../../contracts/bookings";
import { live } from "~/lib/live-store";
import { useRealtimeConnected } from "~/lib/realtime";
import { useCoalescedRevalidate } from "~/lib/use-coalesced-revalidate";
import { useLiveVersion } from "~/lib/use-live";

interface Shown {
  bookings: Booking[];
  /** The live store's mark when they were read. */
  asked: number;
  range: { from: string; to: string };
  serviceId: string;
}

/** `booking` laid over the list: its row replaced (unless older), added in start order, or dropped if it left the view. */
export function placeBooking(
  list: Booking[],
  booking: Booking,
  shown: Omit<Shown, "bookings" | "asked">,
) {
  const kept = list.find((b) => b.id === booking.id);
  if (kept && booking.updated_at < kept.updated_at) return list;
  const others = list.filter((b) => b.id !== booking.id);
  const inView =
    booking.start >= shown.range.from &&
    booking.start < shown.range.to &&
    (!shown.serviceId || booking.service_id === shown.serviceId);
  if (!inView) return others;
  return [...others, booking].sort((a, b) =>
    a.start === b.start ? a.id.localeCompare(b.id) : a.start.localeCompare(b.start),
  );
}

/**
 * The bookings on screen: the loader's with the live store's newer copies laid over them
 * (`booking_update` events, the screen's own changes), read again at each copy recorded. A
 * reconnection reads the screen again.
 */
export function useAgendaBookings(shown: Shown) {
  const revalidate = useCoalescedRevalidate();
  const version = useLiveVersion();
  useRealtimeConnected(revalidate);
  const { bookings, asked, range, serviceId } = shown;
  return useMemo(() => {
    let next = bookings;
    for (const b of live.bookingsSince(asked).values()) {
      next = placeBooking(next, b, { range, serviceId });
    }
    return next;
    // `version` is what changes when the store records a copy.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [bookings, asked, range.from, range.to, serviceId, version]);
}
