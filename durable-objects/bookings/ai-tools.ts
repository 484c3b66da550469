/**
 * The AI agent's booking tools (contract section 18, "The AI agent acts"; decision 0109), for an
 * agent with `can_book`: it looks at free slots, books, moves and cancels, always for the
 * conversation it answers. Bookings are made and changed by the same service as the API's, so
 * the same checks hold (an active service of this organization, opening hours, notice, a free
 * calendar in one transaction: `slot_taken` comes back with the nearest free slots).
 */
import { and, asc, eq, gte } from "drizzle-orm";
import { z } from "zod/mini";
import { defineTool, type ToolContext } from "../ai/tools";
import { bookings, services } from "../schema";
import { AppError, fieldError } from "../../worker/http/errors";
import { offeredSlots } from "./availability";
import {
  bookingInput,
  bookingUpdateInput,
  idField,
  isCalendarDate,
  type Booking,
} from "../../contracts/bookings";
import { daysAsInterval } from "./hours";
import { createBooking, spokenDate, toBooking, updateBooking, type AgentActor } from "./service";
import { findService } from "./services";
import { readBookingSettings } from "./settings";

/** Slots one answer gives the model: enough to offer a few, short enough for every prompt. */
const SLOTS_A_LOOK = 12;
/** The most days one look covers. */
const MAX_LOOK_DAYS = 7;
/** Bookings `my_bookings` lists, the soonest first. */
const BOOKINGS_A_LOOK = 10;

const actorOf = (context: ToolContext): AgentActor => ({
  organizationId: context.organizationId,
  agentId: context.agentId,
  conversationId: context.conversationId,
});

/** The organization's time zone; without opening hours nothing can be booked. */
async function timeZoneOf(context: ToolContext) {
  const settings = await readBookingSettings(context.deps.orgDb, context.organizationId);
  if (!settings.hours) {
    throw new AppError(
      422,
      "no_business_hours",
      "El negocio aún no ha configurado su horario de citas: no se pueden reservar por aquí.",
    );
  }
  return { settings, timeZone: settings.hours.timeZone };
}

/** A booking as the model reads it: its local time spelled out, so it never converts zones. */
const forModel = (booking: Booking, timeZone: string) => ({
  booking_id: booking.id,
  service: booking.service_name,
  start: booking.start,
  local_time: spokenDate(booking.start, timeZone),
  status: booking.status,
  ...(booking.expires_at && { payment_due_by: booking.expires_at }),
});

const serviceId = bookingInput.shape.service_id;
const start = bookingInput.shape.start;
const bookingId = idField("La cita");

const checkAvailability = defineTool({
  definition: {
    type: "function",
    function: {
      name: "check_availability",
      description:
        "Consulta los huecos libres de un servicio del negocio a partir de un día (hora local del negocio). Úsala antes de proponer o reservar una hora.",
      parameters: {
        type: "object",
        properties: {
          service_id: { type: "string", description: "Id del servicio (de la lista de servicios)" },
          date: { type: "string", description: "Primer día, AAAA-MM-DD" },
          days: {
            type: "integer",
            minimum: 1,
            maximum: MAX_LOOK_DAYS,
            description: "Cuántos días mirar (1 por defecto)",
          },
        },
        required: ["service_id", "date"],
      },
    },
  },
  acts: false,
  allowedFor: (agent) => agent.canBook,
  arguments: z.object({
    service_id: serviceId,
    date: z
      .string({ error: "El día es obligatorio (AAAA-MM-DD)" })
      .check(z.refine(isCalendarDate, "Día AAAA-MM-DD (por ejemplo 2026-12-03)")),
    days: z._default(
      z
        .number({ error: "Los días son un número" })
        .check(
          z.int("Los días son un número entero"),
          z.gte(1, "Al menos 1 día"),
          z.lte(MAX_LOOK_DAYS, `Como mucho ${MAX_LOOK_DAYS} días`),
        ),
      1,
    ),
  }),
  async run(context, args) {
    const { orgDb } = context.deps;
    const service = await findService(orgDb, context.organizationId, args.service_id);
    if (!service.active) throw fieldError("service_id", "Este servicio no está activo");
    const { settings, timeZone } = await timeZoneOf(context);
    const last = new Date(Date.parse(`${args.date}T00:00:00Z`) + (args.days - 1) * 86_400_000)
      .toISOString()
      .slice(0, 10);
    const { slots } = await offeredSlots(context.deps, context.organizationId, service, settings, {
      range: daysAsInterval(args.date, last, timeZone),
      now: Date.now(),
    });
    return {
      service: service.name,
      time_zone: timeZone,
      slots: slots
        .slice(0, SLOTS_A_LOOK)
        .map((slot) => ({ start: slot.start, local_time: spokenDate(slot.start, timeZone) })),
      more: slots.length > SLOTS_A_LOOK,
    };
  },
  async instructions(context) {
    const offered = await context.deps.orgDb
      .select()
      .from(services)
      .where(and(eq(services.organizationId, context.organizationId), eq(services.active, true)))
      .orderBy(asc(services.id));
    const settings = await readBookingSettings(context.deps.orgDb, context.organizationId);
    const list = offered.length
      ? offered.map((s) => {
          const price = s.price ? `, ${s.price} ${s.currency}` : "";
          return `- ${s.name} (service_id: ${s.id}, ${s.durationMinutes} min${price})`;
        })
      : ["(El negocio no tiene servicios activos: no se pueden reservar citas.)"];
    return [
      "Citas: puedes consultar huecos, reservar, mover y cancelar citas de este cliente con tus herramientas.",
      `Zona horaria del negocio: ${settings.hours?.timeZone ?? "sin horario configurado"}. Las horas van en ISO 8601 con zona, tal como las devuelve check_availability.`,
      "Consulta siempre los huecos antes de reservar y confirma con el cliente el servicio, el día y la hora. Nunca digas que una cita está hecha si la herramienta no lo confirmó.",
      "Servicios que se pueden reservar:",
      ...list,
    ].join("\n");
  },
});

const book = defineTool({
  definition: {
    type: "function",
    function: {
      name: "book",
      description:
        "Reserva una cita para este cliente en un hueco libre, cuando el cliente ha confirmado servicio, día y hora.",
      parameters: {
        type: "object",
        properties: {
          service_id: { type: "string", description: "Id del servicio" },
          start: {
            type: "string",
            description: "Inicio, ISO 8601 con zona (de check_availability)",
          },
          note: { type: "string", description: "Nota breve para el equipo (opcional)" },
        },
        required: ["service_id", "start"],
      },
    },
  },
  acts: true,
  allowedFor: (agent) => agent.canBook,
  arguments: z.object({ service_id: serviceId, start, note: bookingInput.shape.note }),
  async run(context, args) {
    const { timeZone } = await timeZoneOf(context);
    const booking = await createBooking(context.deps, actorOf(context), {
      booking: { ...args, conversation_id: context.conversationId, staff_user_id: null },
      idempotencyKey: null,
    });
    return { booked: forModel(booking, timeZone) };
  },
});

const reschedule = defineTool({
  definition: {
    type: "function",
    function: {
      name: "reschedule",
      description: "Mueve una cita de este cliente a otro hueco libre.",
      parameters: {
        type: "object",
        properties: {
          booking_id: { type: "string", description: "Id de la cita (de my_bookings)" },
          start: { type: "string", description: "Nuevo inicio, ISO 8601 con zona" },
        },
        required: ["booking_id", "start"],
      },
    },
  },
  acts: true,
  allowedFor: (agent) => agent.canBook,
  arguments: z.object({ booking_id: bookingId, start }),
  async run(context, args) {
    const { timeZone } = await timeZoneOf(context);
    const booking = await updateBooking(context.deps, actorOf(context), {
      id: args.booking_id,
      changes: { start: args.start },
    });
    return { moved: forModel(booking, timeZone) };
  },
});

const cancel = defineTool({
  definition: {
    type: "function",
    function: {
      name: "cancel",
      description: "Cancela una cita de este cliente cuando el cliente lo pide.",
      parameters: {
        type: "object",
        properties: {
          booking_id: { type: "string", description: "Id de la cita (de my_bookings)" },
          reason: { type: "string", description: "Motivo que dio el cliente (opcional)" },
        },
        required: ["booking_id"],
      },
    },
  },
  acts: true,
  allowedFor: (agent) => agent.canBook,
  arguments: z.object({ booking_id: bookingId, reason: bookingUpdateInput.shape.reason }),
  async run(context, args) {
    const { timeZone } = await timeZoneOf(context);
    const booking = await updateBooking(context.deps, actorOf(context), {
      id: args.booking_id,
      changes: { status: "cancelled", reason: args.reason },
    });
    return { cancelled: forModel(booking, timeZone) };
  },
});

const myBookings = defineTool({
  definition: {
    type: "function",
    function: {
      name: "my_bookings",
      description: "Lista las próximas citas de este cliente (las de esta conversación).",
      parameters: { type: "object", properties: {} },
    },
  },
  acts: false,
  allowedFor: (agent) => agent.canBook,
  arguments: z.object({}),
  async run(context) {
    const { timeZone } = await timeZoneOf(context);
    const rows = await context.deps.orgDb
      .select()
      .from(bookings)
      .where(
        and(
          eq(bookings.organizationId, context.organizationId),
          eq(bookings.conversationId, context.conversationId),
          gte(bookings.endsAt, new Date().toISOString()),
        ),
      )
      .orderBy(asc(bookings.startsAt), asc(bookings.id))
      .limit(BOOKINGS_A_LOOK);
    return {
      bookings: rows.map((row) => forModel(toBooking(row), timeZone)),
    };
  },
});

/** The booking tools, in the order the model is offered them. */
export const BOOKING_TOOLS = [checkAvailability, myBookings, book, reschedule, cancel];
