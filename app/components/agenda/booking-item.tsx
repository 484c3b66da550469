import { Link } from "react-router";
import type { Booking } from "../../../contracts/bookings";
import { formatZonedTime } from "~/components/broadcasts/zoned-time";
import { Button } from "~/components/ui/button";
import type { BookingMark } from "./actions";
import { isLive, ReminderLine, StatusBadge } from "./labels";
import { useAgendaChange } from "./use-agenda-change";

export interface BookingItemProps {
  booking: Booking;
  timeZone: string;
  /** The customer's name or number, when the conversation is known. */
  customer: string;
  /** Who performs it. */
  person: string | null;
  onMove: (booking: Booking) => void;
}

const MARKS: { status: BookingMark; label: string; variant: "secondary" | "danger" }[] = [
  { status: "completed", label: "Marcar completada", variant: "secondary" },
  { status: "no_show", label: "Marcar no asistió", variant: "secondary" },
  { status: "cancelled", label: "Cancelar cita", variant: "danger" },
];

/** One booking: its time, service, customer (a link to the conversation), person and status; what can be done with it. */
export function BookingItem({ booking, timeZone, customer, person, onMove }: BookingItemProps) {
  const change = useAgendaChange();
  const time = `${formatZonedTime(booking.start, timeZone)}–${formatZonedTime(booking.end, timeZone)}`;
  return (
    <li
      aria-label={`${time} ${booking.service_name}`}
      className="rounded-lg border border-slate-200 bg-white p-3 text-sm shadow-sm"
    >
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="font-semibold text-slate-900">
          <time dateTime={booking.start}>{time}</time> · {booking.service_name}
        </p>
        <StatusBadge status={booking.status} />
      </div>
      <p className="mt-1 text-slate-700">
        <Link
          to={`/conversations/${booking.conversation_id}`}
          className="text-emerald-800 underline hover:text-emerald-900"
        >
          {customer}
        </Link>
        {person && <span className="text-slate-600"> · con {person}</span>}
      </p>
      {booking.note && <p className="mt-1 text-slate-600">{booking.note}</p>}
      <ReminderLine booking={booking} timeZone={timeZone} />
      {isLive(booking.status) && (
        <div className="mt-2 flex flex-wrap gap-2">
          <Button
            variant="secondary"
            className="px-2 py-1"
            disabled={change.busy}
            onClick={() => onMove(booking)}
          >
            Mover
          </Button>
          {MARKS.map((mark) => (
            <Button
              key={mark.status}
              variant={mark.variant}
              className="px-2 py-1"
              disabled={change.busy}
              onClick={() =>
                void change.submit({ intent: "booking.mark", id: booking.id, status: mark.status })
              }
            >
              {mark.label}
            </Button>
          ))}
        </div>
      )}
    </li>
  );
}
