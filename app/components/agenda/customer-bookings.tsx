import { useEffect, useId, useMemo, useState } from "react";
import { Link } from "react-router";
import type { Booking } from "../../../contracts/bookings";
import { useOrganizationTime } from "~/components/broadcasts/organization-time";
import { formatZoned } from "~/components/broadcasts/zoned-time";
import { live } from "~/lib/live-store";
import { useLiveVersion } from "~/lib/use-live";
import { readBookings } from "./data";
import { ReminderLine, StatusBadge } from "./labels";
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
  /** What was read, and the live store's mark when it was asked. */
  const [read, setRead] = useState<{ bookings: Booking[]; asked: number } | null>(null);
  const [failed, setFailed] = useState(false);
  const version = useLiveVersion();
  useEffect(() => {
    let current = true;
    const asked = live.mark();
    setRead(null);
    readBookings({ conversation_id: conversationId }).then(
      ({ bookings }) => current && setRead({ bookings, asked }),
      () => current && setFailed(true),
    );
    return () => {
      current = false;
    };
  }, [conversationId]);
  // What was read with the store's newer copies laid over it (`booking_update`, the Agenda's
  // own changes), read again at each copy recorded.
  const bookings = useMemo(() => {
    if (!read) return null;
    let next = read.bookings;
    for (const b of live.bookingsSince(read.asked).values()) {
      if (b.conversation_id === conversationId) next = placeBooking(next, b, ALL);
    }
    return next;
    // `version` is what changes when the store records a copy.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [read, conversationId, version]);

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
            <li key={b.id}>
              <div className="flex flex-wrap items-center justify-between gap-2">
                <span className="text-slate-900">
                  {formatZoned(b.start, timeZone)} · {b.service_name}
                </span>
                <StatusBadge status={b.status} />
              </div>
              <ReminderLine booking={b} timeZone={timeZone} />
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
