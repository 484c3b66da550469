/** The Agenda's words for what the API names in English. */
import type { BookingStatus, ServicePayment } from "../../../worker/bookings/contract";

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
