/**
 * The booking Flow's screens, served by the organization's store (decision 0096): the edge has
 * decrypted the request and found the organization from the token; here the token is checked
 * and the customer walks SERVICE → DAY → SLOT → CONFIRM over live availability, the booking
 * made at CONFIRM by the bookings service (every rule, `slot_taken` included). A refused choice
 * answers the same screen, fresh, with `error_message` in Spanish.
 */
import { and, asc, eq } from "drizzle-orm";
import { createBooking, spokenDate } from "../bookings/service";
import { offeredSlots } from "../bookings/availability";
import { daysAsInterval, localDate } from "../bookings/hours";
import { readBookingSettings, type BookingSettings } from "../bookings/settings";
import type { ServiceRow } from "../bookings/services";
import type { Slot } from "../../contracts/bookings";
import { services } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError } from "../../worker/http/errors";
import type { ExchangeOutcome, FlowAnswer, FlowExchange } from "../../contracts/flows";
import type { FlowScreen } from "./flow-json";
import { liveToken, markUsed, rememberChoice, type FlowTokenRow } from "./tokens";
import { zonedFormat } from "../../contracts/zoned-time";
import { replaceRescheduled } from "../reminders/rescheduled";

/** How many days ahead the DAY screen offers. */
export const FLOW_DAYS_AHEAD = 14;

const REFUSED = {
  service: "Ese servicio ya no está disponible. Elige otro.",
  noDays: "No quedan horarios libres para este servicio en los próximos días. Elige otro.",
  day: "Ya no quedan horas libres ese día. Elige otro.",
  slot: "Esa hora ya no está libre. Elige otra.",
  start: "Elige primero el servicio.",
};

/** Where the organization stands: its settings and the token's service, when chosen. */
interface Walk {
  deps: StoreDeps;
  organizationId: string;
  row: FlowTokenRow;
  settings: BookingSettings;
  version: string;
}

/** "jueves, 3 de diciembre" for a local date. */
export const dayLabel = (date: string, timeZone: string) =>
  zonedFormat("es-ES", { timeZone, weekday: "long", day: "numeric", month: "long" }).format(
    daysAsInterval(date, date, timeZone).start,
  );
/** "10:00" in the organization's time zone. */
export const timeLabel = (iso: string, timeZone: string) =>
  zonedFormat("es-ES", { timeZone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(
    Date.parse(iso),
  );

/** The organization's active services, as a screen's options. */
async function activeServices(deps: StoreDeps, organizationId: string, only?: string | null) {
  return deps.orgDb
    .select()
    .from(services)
    .where(
      and(
        eq(services.organizationId, organizationId),
        eq(services.active, true),
        only ? eq(services.id, only) : undefined,
      ),
    )
    .orderBy(asc(services.id));
}

async function serviceOf(walk: Walk, id: unknown) {
  if (typeof id !== "string" || !id) return null;
  const [row] = await activeServices(walk.deps, walk.organizationId, id);
  return row ?? null;
}

/** A service's free slots over the next `days` local days, from today. */
export async function upcomingSlots(
  deps: StoreDeps,
  organizationId: string,
  service: ServiceRow,
  settings: BookingSettings,
  days = FLOW_DAYS_AHEAD,
): Promise<Slot[]> {
  if (!settings.hours) return [];
  const { timeZone } = settings.hours;
  const today = localDate(Date.now(), timeZone);
  const last = localDate(Date.now() + (days - 1) * 86_400_000, timeZone);
  const range = daysAsInterval(today, last, timeZone);
  return (await offeredSlots(deps, organizationId, service, settings, { range, now: Date.now() }))
    .slots;
}

/** A day's free slots. */
async function slotsOfDay(walk: Walk, service: ServiceRow, day: string) {
  const range = daysAsInterval(day, day, walk.settings.hours!.timeZone);
  const offered = await offeredSlots(walk.deps, walk.organizationId, service, walk.settings, {
    range,
    now: Date.now(),
  });
  return offered.slots;
}

const answer = (walk: Walk, screen: FlowScreen, data: Record<string, unknown>, error?: string) => ({
  answer: {
    version: walk.version,
    screen,
    data: { ...data, ...(error && { error_message: error }) },
  } satisfies FlowAnswer,
});

async function serviceScreen(walk: Walk, error?: string) {
  // A Flow sent for one service offers that one (when it is still active).
  const preset = await serviceOf(walk, presetOf(walk.row));
  const rows = preset ? [preset] : await activeServices(walk.deps, walk.organizationId);
  const options = rows.map((s) => ({ id: s.id, title: `${s.name} (${s.durationMinutes} min)` }));
  return answer(walk, "SERVICE", { services: options }, error);
}

async function dayScreen(walk: Walk, service: ServiceRow, error?: string) {
  const timeZone = walk.settings.hours?.timeZone ?? "UTC";
  const slots = await upcomingSlots(walk.deps, walk.organizationId, service, walk.settings);
  const days = [...new Set(slots.map((slot) => localDate(Date.parse(slot.start), timeZone)))];
  if (days.length === 0) return serviceScreen(walk, REFUSED.noDays);
  return answer(
    walk,
    "DAY",
    {
      service_name: service.name,
      days: days.map((day) => ({ id: day, title: dayLabel(day, timeZone) })),
    },
    error,
  );
}

async function slotScreen(walk: Walk, service: ServiceRow, day: string, error?: string) {
  const timeZone = walk.settings.hours!.timeZone;
  const slots = await slotsOfDay(walk, service, day);
  if (slots.length === 0) return dayScreen(walk, service, REFUSED.day);
  return answer(
    walk,
    "SLOT",
    {
      day_label: dayLabel(day, timeZone),
      slots: slots.map((slot) => ({ id: slot.start, title: timeLabel(slot.start, timeZone) })),
    },
    error,
  );
}

const PAYMENT_NOTE = {
  none: "Al reservar, la cita queda confirmada.",
  ahead: "Al reservar, te guardamos la hora mientras recibimos el pago.",
};

function confirmScreen(walk: Walk, service: ServiceRow, slot: string) {
  return answer(walk, "CONFIRM", {
    summary: `${service.name} el ${spokenDate(slot, walk.settings.hours!.timeZone)}`,
    payment_note: service.payment === "none" ? PAYMENT_NOTE.none : PAYMENT_NOTE.ahead,
  });
}

/** The service a Flow was sent for (kept in `offered`), if any. */
const presetOf = (row: FlowTokenRow) => row.offered?.[0] ?? null;

const isDay = (value: unknown): value is string =>
  typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value);

/** The customer's choice on `screen`, checked against the organization's data now. */
async function choose(walk: Walk, screen: string | undefined, data: Record<string, unknown>) {
  const chosenService = await serviceOf(walk, walk.row.serviceId);
  switch (screen) {
    case "SERVICE": {
      const service = await serviceOf(walk, data.service);
      const preset = presetOf(walk.row);
      if (!service || (preset && preset !== service.id)) {
        // A Flow sent for one service keeps it: another id is refused as unknown.
        return serviceScreen(walk, REFUSED.service);
      }
      await rememberChoice(walk.deps.orgDb, walk.row.token, {
        serviceId: service.id,
        day: null,
        slot: null,
      });
      return dayScreen(walk, service);
    }
    case "DAY": {
      if (!chosenService) return serviceScreen(walk, REFUSED.start);
      const day = data.day;
      if (!isDay(day) || (await slotsOfDay(walk, chosenService, day)).length === 0) {
        return dayScreen(walk, chosenService, REFUSED.day);
      }
      await rememberChoice(walk.deps.orgDb, walk.row.token, { day, slot: null });
      return slotScreen(walk, chosenService, day);
    }
    case "SLOT": {
      if (!chosenService || !walk.row.day) return serviceScreen(walk, REFUSED.start);
      const free = await slotsOfDay(walk, chosenService, walk.row.day);
      const slot = free.find((s) => s.start === data.slot);
      if (!slot) return slotScreen(walk, chosenService, walk.row.day, REFUSED.slot);
      await rememberChoice(walk.deps.orgDb, walk.row.token, { slot: slot.start });
      return confirmScreen(walk, chosenService, slot.start);
    }
    case "CONFIRM": {
      if (!chosenService || !walk.row.day || !walk.row.slot) {
        return serviceScreen(walk, REFUSED.start);
      }
      return book(walk, chosenService, walk.row.day, walk.row.slot);
    }
    default:
      return serviceScreen(walk);
  }
}

/**
 * Books the chosen slot as the bookings service does for a person (its rules, its race), the
 * token its idempotency key: a repeated CONFIRM answers the same booking. The token is used
 * then, and the Flow closes (`SUCCESS`), its params the customer's `nfm_reply`.
 */
async function book(walk: Walk, service: ServiceRow, day: string, slot: string) {
  const { deps, organizationId, row } = walk;
  let booking;
  try {
    booking = await createBooking(
      deps,
      { organizationId },
      {
        booking: {
          service_id: service.id,
          start: slot,
          conversation_id: row.conversationId,
          note: null,
        },
        idempotencyKey: `flow:${row.token}`,
      },
    );
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    if (error.code === "not_found") return serviceScreen(walk, REFUSED.service);
    return slotScreen(walk, service, day, REFUSED.slot);
  }
  await markUsed(deps.orgDb, row.token, booking.id);
  await replaceRescheduled(deps, organizationId, row, booking.id);
  const summary = `${booking.service_name} el ${spokenDate(booking.start, walk.settings.hours!.timeZone)}`;
  return {
    answer: {
      version: walk.version,
      screen: "SUCCESS",
      data: {
        extension_message_response: {
          params: { flow_token: row.token, booking_id: booking.id, summary },
        },
      },
    } satisfies FlowAnswer,
  };
}

/**
 * One decrypted exchange of the organization's Flow (`INIT`, `data_exchange`, `BACK`): 427 for
 * a token unknown here, used or older than 24 h; otherwise the screen to show.
 */
export async function exchangeInStore(
  deps: StoreDeps,
  organizationId: string,
  exchange: FlowExchange,
): Promise<ExchangeOutcome> {
  const token = exchange.flow_token ?? "";
  const row = await liveToken(deps.orgDb, organizationId, token, "flow");
  if (!row) return { invalidToken: true };
  const settings = await readBookingSettings(deps.orgDb, organizationId);
  const walk: Walk = { deps, organizationId, row, settings, version: exchange.version };
  if (exchange.action === "INIT") return serviceScreen(walk);
  const chosenService = await serviceOf(walk, row.serviceId);
  if (exchange.action === "BACK") {
    // The screen the customer goes back to, with its options as they are now.
    if (exchange.screen === "SLOT" && chosenService && row.day) {
      return slotScreen(walk, chosenService, row.day);
    }
    if (exchange.screen === "DAY" && chosenService) return dayScreen(walk, chosenService);
    return serviceScreen(walk);
  }
  return choose(walk, exchange.screen, exchange.data ?? {});
}
