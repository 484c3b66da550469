import { useEffect, useId, useState } from "react";
import { Link } from "react-router";
import type { Booking } from "../../../worker/bookings/contract";
import { useOrganizationTime } from "~/components/broadcasts/organization-time";
import { formatZoned } from "~/components/broadcasts/zoned-time";
import { live } from "~/lib/live-store";
import { useRealtimeEvent } from "~/lib/use-realtime-event";
import { readBookings } from "./data";
import { StatusBadge } from "./labels";
import { placeBooking } from "./use-agenda-bookings";

/** Every booking of the conversation is in view, whenever it starts. */
const ALL = { range: { from: "", to: "\uffff" }, serviceId: "" };

/**
 * "Citas": the customer's bookings in the conversation's details, with their status, read on
 * their own and kept up to date by `booking_update`.
 */
export function CustomerBookings({ conversationId }: { conversationId: string }) {
  const id = useId();
  const { timeZone } = useOrganizationTime();
  const [bookings, setBookings] = useState<Booking[] | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let current = true;
    const asked = live.mark();
    setBookings(null);
    readBookings({ conversation_id: conversationId }).then(
      ({ bookings: read }) => {
        if (!current) return;
        let next = read;
        for (const b of live.bookingsSince(asked).values()) {
          if (b.conversation_id === conversationId) next = placeBooking(next, b, ALL);
        }
        setBookings(next);
      },
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [conversationId]);
  useRealtimeEvent<{ booking: Booking }>("booking_update", ({ booking }) => {
    if (booking.conversation_id !== conversationId) return;
    setBookings((list) => list && placeBooking(list, live.booking(booking), ALL));
  });

  return (
    <section aria-labelledby={id} className="space-y-2.5 p-4">
      <h2 id={id} className="font-semibold text-slate-900">
        Citas
      </h2>
      {failed ? (
        <p className="text-sm text-red-700">No se pudieron cargar las citas.</p>
      ) : bookings === null ? (
        <p className="text-sm text-slate-600">Cargando citas...</p>
      ) : bookings.length === 0 ? (
        <p className="text-sm text-slate-600">Sin citas.</p>
      ) : (
        <ul aria-label="Citas del cliente" className="space-y-1.5 text-sm">
          {bookings.map((b) => (
            <li key={b.id} className="flex flex-wrap items-center justify-between gap-2">
              <span className="text-slate-900">
                {formatZoned(b.start, timeZone)} · {b.service_name}
              </span>
              <StatusBadge status={b.status} />
            </li>
          ))}
        </ul>
      )}
      <Link to="/agenda" className="text-sm text-emerald-800 underline">
        Ir a la Agenda
      </Link>
    </section>
  );
}
