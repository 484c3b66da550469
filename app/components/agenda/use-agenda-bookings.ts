import { useEffect, useRef, useState } from "react";
import type { Booking } from "../../../worker/bookings/contract";
import { live } from "~/lib/live-store";
import { useRealtimeConnected } from "~/lib/realtime";
import { useCoalescedRevalidate } from "~/lib/use-coalesced-revalidate";
import { useRealtimeEvent } from "~/lib/use-realtime-event";

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
 * The bookings on screen: the loader's with what realtime events brought since it read them,
 * patched by each `booking_update`. A reconnection reads the screen again.
 */
export function useAgendaBookings(shown: Shown) {
  const revalidate = useCoalescedRevalidate();
  const [list, setList] = useState(shown.bookings);
  const latest = useRef(shown);
  latest.current = shown;
  const loaded = shown.bookings;
  useEffect(() => {
    let next = loaded;
    for (const b of live.bookingsSince(latest.current.asked).values()) {
      next = placeBooking(next, b, latest.current);
    }
    setList(next);
  }, [loaded]);
  useRealtimeEvent<{ booking: Booking }>("booking_update", ({ booking }) =>
    setList((current) => placeBooking(current, live.booking(booking), latest.current)),
  );
  useRealtimeConnected(revalidate);
  return list;
}
