/**
 * What the Agenda changes, as its route's action does it (routes/agenda.tsx): each change is an
 * intent sent as JSON by a fetcher, one call, one toast. A booking the API answers is laid in
 * the live store at once; React Router reads the screen again after.
 */
import type { BookingInput, ServiceInput, Slot } from "../../../contracts/bookings";
import { type Refusal } from "~/lib/forms";

export type BookingMark = "cancelled" | "no_show" | "completed";

/** A type, not an interface: it travels as JSON. */
export type ServiceBody = Omit<ServiceInput, "currency"> & { currency: string };

export type AgendaChange =
  | { intent: "booking.create"; values: BookingInput; key: string }
  | { intent: "booking.move"; id: string; start: string }
  | { intent: "booking.mark"; id: string; status: BookingMark }
  | { intent: "service.create"; values: ServiceBody }
  | { intent: "service.update"; id: string; values: Partial<ServiceBody> }
  | { intent: "reminders.update"; template: { name: string; language: string } | null };

export type AgendaActionResult =
  | { ok: true; intent: AgendaChange["intent"] }
  | (Refusal & { intent: AgendaChange["intent"]; slots: Slot[] });
