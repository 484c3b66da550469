/** The agenda screen's writes, made by its route's `clientAction` (decision 0105). */
import { toastDone, toastFailed } from "~/lib/outcome";
import type { Booking, Service, Slot } from "../../contracts/bookings";
import type { ReminderSettings } from "../../contracts/reminders";
import { ApiError, client, data } from "~/lib/api";
import { refusalOf } from "~/lib/forms";
import { live } from "~/lib/live-store";
import {
  type BookingMark,
  type AgendaChange,
  type AgendaActionResult,
} from "~/components/agenda/actions";
import type { GoogleActionResult, GoogleChange } from "~/components/agenda/google-calendar-panel";

const MARK_WORDS: Record<BookingMark, { done: string; failed: string }> = {
  cancelled: { done: "Cita cancelada", failed: "No se pudo cancelar la cita" },
  no_show: { done: "Cita marcada como no asistida", failed: "No se pudo marcar la cita" },
  completed: { done: "Cita completada", failed: "No se pudo marcar la cita" },
};

function says(change: AgendaChange): { done: string; failed: string } {
  switch (change.intent) {
    case "booking.create":
      return { done: "Cita reservada", failed: "No se pudo reservar la cita" };
    case "booking.move":
      return { done: "Cita movida", failed: "No se pudo mover la cita" };
    case "booking.mark":
      return MARK_WORDS[change.status];
    case "service.create":
      return { done: "Servicio creado", failed: "Error al crear el servicio" };
    case "service.update":
      return { done: "Servicio guardado", failed: "Error al guardar el servicio" };
    case "reminders.update":
      return {
        done: "Recordatorios guardados",
        failed: "No se pudieron guardar los recordatorios",
      };
  }
}

const booking = client.bookings[":id"];

async function perform(change: AgendaChange): Promise<Booking | Service | ReminderSettings> {
  switch (change.intent) {
    case "booking.create":
      return data(
        client.bookings.$post({ json: change.values, header: { "idempotency-key": change.key } }),
      );
    case "booking.move":
      return data(booking.$patch({ param: { id: change.id }, json: { start: change.start } }));
    case "booking.mark":
      return data(booking.$patch({ param: { id: change.id }, json: { status: change.status } }));
    case "service.create":
      return data(client.services.$post({ json: change.values }));
    case "service.update":
      return data(client.services[":id"].$patch({ param: { id: change.id }, json: change.values }));
    case "reminders.update":
      return data(client["booking-reminders"].$put({ json: { template: change.template } }));
  }
}

/** The nearest free slots a 409 `slot_taken` offers. */
const slotsOf = (error: unknown): Slot[] =>
  error instanceof ApiError && error.code === "slot_taken" && Array.isArray(error.extra.slots)
    ? (error.extra.slots as Slot[])
    : [];

/** Makes the change and says how it went; a refusal brings its messages and any free slots. */
export async function agendaAction(change: AgendaChange): Promise<AgendaActionResult> {
  const { done, failed } = says(change);
  try {
    const answer = await perform(change);
    if (change.intent.startsWith("booking.")) live.booking(answer as Booking);
    toastDone(done);
    return { ok: true, intent: change.intent };
  } catch (error) {
    toastFailed(failed, error);
    return { ...refusalOf(error), intent: change.intent, slots: slotsOf(error) };
  }
}

const GOOGLE_WORDS: Record<GoogleChange["intent"], { done: string; failed: string }> = {
  "google.connect": { done: "", failed: "No se pudo conectar Google Calendar" },
  "google.calendar": { done: "Calendario guardado", failed: "No se pudo guardar el calendario" },
  "google.disconnect": {
    done: "Google Calendar desconectado",
    failed: "No se pudo desconectar Google Calendar",
  },
};

const google = client.integrations.google;

/**
 * Google Calendar's changes (components/agenda/google-calendar-panel.tsx): connecting leaves
 * for Google's consent, which comes back to the Agenda; the others are one call and a toast.
 */
export async function googleCalendarAction(change: GoogleChange): Promise<GoogleActionResult> {
  const { done, failed } = GOOGLE_WORDS[change.intent];
  try {
    if (change.intent === "google.connect") {
      const { url } = await data(google.authorize.$get());
      window.location.assign(url);
      return { ok: true, intent: change.intent };
    }
    if (change.intent === "google.calendar") {
      await data(google.$put({ json: { calendar_id: change.calendar_id } }));
    } else {
      await data(google.$delete());
    }
    toastDone(done);
    return { ok: true, intent: change.intent };
  } catch (error) {
    toastFailed(failed, error);
    return { ...refusalOf(error), intent: change.intent };
  }
}
