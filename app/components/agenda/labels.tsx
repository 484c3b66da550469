/** The Agenda's words for what the API names in English. */
import type {
  Booking,
  BookingReminder,
  BookingStatus,
  ServicePayment,
} from "../../../contracts/bookings";
import { formatZoned } from "~/components/broadcasts/zoned-time";

export const BOOKING_STATUS_LABELS: Record<BookingStatus, string> = {
  pending_payment: "Pendiente de pago",
  confirmed: "Confirmada",
  cancelled: "Cancelada",
  no_show: "No asistió",
  completed: "Completada",
};

export const BOOKING_STATUS_CLASSES: Record<BookingStatus, string> = {
  pending_payment: "bg-amber-100 text-amber-900",
  confirmed: "bg-emerald-100 text-emerald-900",
  cancelled: "bg-slate-200 text-slate-700",
  no_show: "bg-red-100 text-red-800",
  completed: "bg-sky-100 text-sky-900",
};

export const PAYMENT_LABELS: Record<ServicePayment, string> = {
  none: "Sin cobro por adelantado",
  deposit: "Señal",
  full: "Pago completo",
};

/** Whether a booking still holds its slot (and may be moved or marked). */
export const isLive = (status: BookingStatus) =>
  status === "confirmed" || status === "pending_payment";

export function StatusBadge({ status }: { status: BookingStatus }) {
  return (
    <span
      className={`rounded-full px-2 py-0.5 text-xs font-medium ${BOOKING_STATUS_CLASSES[status]}`}
    >
      {BOOKING_STATUS_LABELS[status]}
    </span>
  );
}

/** What a booking's reminder has done so far, in words (decision 0130). */
export function reminderText(reminder: BookingReminder, timeZone: string) {
  switch (reminder.state) {
    case "pending":
    case "sending":
      return `Recordatorio programado: ${formatZoned(reminder.due_at, timeZone)}`;
    case "sent":
      return reminder.confirmed_at
        ? "El cliente confirmó la cita desde el recordatorio"
        : "Recordatorio enviado";
    case "failed":
    case "skipped":
      return "Recordatorio no enviado";
  }
}

/** The reminder's line under a booking that still holds its slot; nothing without one. */
export function ReminderLine({ booking, timeZone }: { booking: Booking; timeZone: string }) {
  if (!booking.reminder || !isLive(booking.status)) return null;
  const failed = booking.reminder.state === "failed" || booking.reminder.state === "skipped";
  return (
    <p className={`text-xs ${failed ? "text-amber-800" : "text-slate-600"}`}>
      {reminderText(booking.reminder, timeZone)}
    </p>
  );
}
