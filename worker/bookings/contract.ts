/**
 * Bookings (contract section 18, "Agenda y cobra"): the organization's opening hours and away
 * message, its services, their availability and its bookings. Shared with the console.
 */
import { z } from "zod";
import { currencyField, moneyField } from "../sales/contract";
import { maxPaymentAmountField } from "../payments/contract";
import type { MarketingLimits } from "../broadcasts/contract";
import {
  organizationUpdateInput,
  timeZoneField,
  type Organization,
} from "../organizations/contract";
import type { PaymentLimits } from "../payments/contract";
import type { ReminderState } from "../reminders/contract";

export const WEEK_DAYS = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] as const;
export type WeekDay = (typeof WEEK_DAYS)[number];
/** Each day's opening intervals, local times "HH:MM" ("24:00" closes at midnight). */
export type Week = Record<WeekDay, [string, string][]>;

/** The notice a booking needs unless the organization sets its own (contract section 18). */
export const DEFAULT_MIN_NOTICE_MINUTES = 120;
/** How long a `pending_payment` booking holds its slot. */
export const HOLD_MINUTES = 30;
/** Slots start every this many minutes from each opening (decision 0078). */
export const SLOT_STEP_MINUTES = 15;
/** The longest range one availability call covers. */
export const MAX_AVAILABILITY_DAYS = 31;
/** Services an organization may have. */
export const MAX_SERVICES = 100;
/** The longest a service lasts, and the longest buffer after it. */
export const MAX_DURATION_MINUTES = 480;
export const MAX_BUFFER_MINUTES = 120;
/** Intervals one day may have (a split shift is two). */
const MAX_INTERVALS_A_DAY = 6;
const MAX_CLOSED_DATES = 400;
const MAX_AWAY_TEXT = 1000;

export const SERVICE_PAYMENTS = ["none", "deposit", "full"] as const;
export type ServicePayment = (typeof SERVICE_PAYMENTS)[number];

export const BOOKING_STATUSES = [
  "pending_payment",
  "confirmed",
  "cancelled",
  "no_show",
  "completed",
] as const;
export type BookingStatus = (typeof BOOKING_STATUSES)[number];
/**
 * A booking the customer kept (confirmed, then done or missed): what the ads report and a
 * broadcast's results count. A hold that expired unpaid, or a cancelled one, is not (decision 0128).
 */
export const KEPT_BOOKING_STATUSES = [
  "confirmed",
  "completed",
  "no_show",
] as const satisfies readonly BookingStatus[];
/** What a person may move a booking to; `confirmed` comes from a payment (a later slice). */
export const BOOKING_STATUS_CHANGES = ["cancelled", "no_show", "completed"] as const;
/** Why the store cancelled a booking whose payment never came. */
export const PAYMENT_EXPIRED = "payment_expired";

export const AWAY_MESSAGE_STATES = ["pending", "sent", "failed"] as const;

// ---------------------------------------------------------------------------------------------
// Opening hours, away message, notice: `PATCH /organizations/{id}`.

const TIME_OF_DAY = /^(([01]\d|2[0-3]):[0-5]\d|24:00)$/;
const minutesOfDay = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3));

const intervalField = z
  .tuple(
    [
      z.string().regex(TIME_OF_DAY, "Hora HH:MM (por ejemplo 09:00)"),
      z.string().regex(TIME_OF_DAY, "Hora HH:MM (por ejemplo 14:00)"),
    ],
    { error: 'Cada tramo es ["HH:MM", "HH:MM"]' },
  )
  .refine(([open, close]) => minutesOfDay(open) < minutesOfDay(close), {
    message: "Cada tramo debe cerrar después de abrir, el mismo día",
  });

const dayField = z
  .array(intervalField, { error: "Cada día es una lista de tramos" })
  .max(MAX_INTERVALS_A_DAY, `Como mucho ${MAX_INTERVALS_A_DAY} tramos al día`)
  .refine(
    (intervals) =>
      [...intervals]
        .sort((a, b) => minutesOfDay(a[0]) - minutesOfDay(b[0]))
        .every((interval, i, sorted) => i === 0 || interval[0] >= sorted[i - 1]![1]),
    { message: "Los tramos de un día no pueden solaparse" },
  )
  .default([]);

const LOCAL_DATE = /^\d{4}-\d{2}-\d{2}$/;
export const isCalendarDate = (date: string) =>
  LOCAL_DATE.test(date) && new Date(`${date}T00:00:00Z`).toISOString().startsWith(date);

export const businessHoursInput = z.strictObject(
  {
    time_zone: timeZoneField,
    week: z.strictObject(
      Object.fromEntries(WEEK_DAYS.map((day) => [day, dayField])) as Record<
        WeekDay,
        typeof dayField
      >,
      { error: "La semana es un objeto con mon..sun" },
    ),
    closed_dates: z
      .array(z.string().refine(isCalendarDate, "Fecha AAAA-MM-DD (por ejemplo 2026-12-25)"), {
        error: "Los días cerrados son una lista de fechas",
      })
      .max(MAX_CLOSED_DATES, `Como mucho ${MAX_CLOSED_DATES} días cerrados`)
      .default([]),
  },
  { error: "El horario es un texto o un objeto con time_zone, week y closed_dates" },
);
export type BusinessHoursInput = z.output<typeof businessHoursInput>;

export const awayMessageInput = z
  .strictObject(
    {
      enabled: z.boolean({ error: "enabled debe ser verdadero o falso" }),
      text: z
        .string({ error: "El mensaje de ausencia debe ser un texto" })
        .trim()
        .max(MAX_AWAY_TEXT, `El mensaje de ausencia no puede superar ${MAX_AWAY_TEXT} caracteres`)
        .nullish()
        .transform((text) => text || null),
    },
    { error: "El mensaje de ausencia es un objeto con enabled y text" },
  )
  .refine((away) => !away.enabled || away.text, {
    path: ["text"],
    message: "Escribe el mensaje de ausencia para activarlo",
  });

export const minNoticeField = z
  .number({ error: "La antelación mínima es un número de minutos" })
  .int("La antelación mínima es un número entero de minutos")
  .min(0, "La antelación mínima no puede ser negativa")
  .max(60 * 24 * 30, "La antelación mínima es de 30 días como mucho");

/**
 * `business_hours` on `PATCH /organizations/{id}` (decision 0076): a text, as onboarding gave it
 * (the AI answers from it), or the structured hours of section 18. Each is checked as itself,
 * so that a wrong day of the week is named rather than "neither a text nor an object".
 */
const businessHoursField = z.unknown().transform((value, ctx) => {
  const text = organizationUpdateInput.shape.business_hours.unwrap();
  const parsed = (typeof value === "string" ? text : businessHoursInput).safeParse(value);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      ctx.addIssue({ code: "custom", message: issue.message, path: issue.path });
    }
    return z.NEVER;
  }
  return parsed.data;
});

/** `PATCH /organizations/{id}`: the organization's fields and its bookings settings. */
export const organizationSettingsInput = organizationUpdateInput.extend({
  business_hours: businessHoursField.optional(),
  away_message: awayMessageInput.optional(),
  min_notice_minutes: minNoticeField.optional(),
  max_payment_amount: maxPaymentAmountField.optional(),
});
export type OrganizationSettingsData = z.output<typeof organizationSettingsInput>;

/** What the organization's answer carries of its bookings' settings (decision 0076). */
export interface BookingHours {
  /** The structured hours of contract section 18; null until set. */
  opening_hours: { time_zone: string; week: Week; closed_dates: string[] } | null;
  away_message: { enabled: boolean; text: string | null };
  min_notice_minutes: number;
  /** Whether the business is open now by those hours (null: no hours set). */
  open_now: boolean | null;
}

/**
 * The organization as `GET /organizations/me` and its `PATCH` answer it: with what the owner
 * allows marketing and its bookings' hours, which its store keeps (decisions 0080, 0076).
 */
export type OrganizationSettings = Organization & MarketingLimits & BookingHours & PaymentLimits;

// ---------------------------------------------------------------------------------------------
// Services.

const serviceFields = {
  name: z
    .string({ error: "El nombre es obligatorio" })
    .trim()
    .min(1, "El nombre es obligatorio")
    .max(120, "El nombre no puede superar 120 caracteres"),
  duration_minutes: z
    .number({ error: "La duración es un número de minutos" })
    .int("La duración es un número entero de minutos")
    .min(5, "La duración mínima es de 5 minutos")
    .max(MAX_DURATION_MINUTES, `La duración máxima es de ${MAX_DURATION_MINUTES} minutos`),
  buffer_minutes: z
    .number({ error: "El margen es un número de minutos" })
    .int("El margen es un número entero de minutos")
    .min(0, "El margen no puede ser negativo")
    .max(MAX_BUFFER_MINUTES, `El margen máximo es de ${MAX_BUFFER_MINUTES} minutos`),
  price: moneyField("El precio").nullable(),
  currency: currencyField,
  payment: z.enum(SERVICE_PAYMENTS, { error: "El cobro es none, deposit o full" }),
  deposit: moneyField("La señal").nullable(),
  staff_user_ids: z
    .array(z.string().trim().min(1, "Identificador de persona vacío").max(100), {
      error: "Las personas son una lista de identificadores",
    })
    .max(50, "Como mucho 50 personas por servicio"),
  active: z.boolean({ error: "active debe ser verdadero o falso" }),
};

const PRICE_NEEDED = "Indica el precio para cobrar por adelantado";
const DEPOSIT_NEEDED = "Indica la señal que se cobra";
const DEPOSIT_TOO_HIGH = "La señal no puede superar el precio";

/** A whole service, as a new one is given and as a change must leave it. */
export const serviceInput = z
  .object({
    name: serviceFields.name,
    duration_minutes: serviceFields.duration_minutes,
    buffer_minutes: serviceFields.buffer_minutes.default(0),
    price: serviceFields.price.default(null),
    currency: serviceFields.currency.optional(),
    payment: serviceFields.payment.default("none"),
    deposit: serviceFields.deposit.default(null),
    staff_user_ids: serviceFields.staff_user_ids.default([]),
    active: serviceFields.active.default(true),
  })
  .refine((service) => service.payment === "none" || service.price !== null, {
    path: ["price"],
    message: PRICE_NEEDED,
  })
  .refine((service) => service.payment !== "deposit" || service.deposit !== null, {
    path: ["deposit"],
    message: DEPOSIT_NEEDED,
  })
  .refine(
    (service) =>
      service.deposit === null ||
      service.price === null ||
      Number(service.deposit) <= Number(service.price),
    { path: ["deposit"], message: DEPOSIT_TOO_HIGH },
  );
export type ServiceInput = z.output<typeof serviceInput>;

/** A change: what is given replaces what was; the service it makes is checked whole. */
export const serviceUpdateInput = z
  .object({
    name: serviceFields.name.optional(),
    duration_minutes: serviceFields.duration_minutes.optional(),
    buffer_minutes: serviceFields.buffer_minutes.optional(),
    price: serviceFields.price.optional(),
    currency: serviceFields.currency.optional(),
    payment: serviceFields.payment.optional(),
    deposit: serviceFields.deposit.optional(),
    staff_user_ids: serviceFields.staff_user_ids.optional(),
    active: serviceFields.active.optional(),
  })
  .refine((input) => Object.values(input).some((value) => value !== undefined), {
    path: ["(body)"],
    message: "Indica qué quieres cambiar",
  });
export type ServiceUpdate = z.output<typeof serviceUpdateInput>;

export interface Service {
  id: string;
  name: string;
  duration_minutes: number;
  buffer_minutes: number;
  price: string | null;
  currency: string;
  payment: ServicePayment;
  deposit: string | null;
  staff_user_ids: string[];
  active: boolean;
  created_at: string;
  updated_at: string;
}

// ---------------------------------------------------------------------------------------------
// Availability and bookings.

const instantField = (label: string) =>
  z.iso
    .datetime({ offset: true, error: `${label}: fecha y hora ISO 8601 (2026-12-03T10:00:00Z)` })
    .transform((text) => new Date(text).toISOString());

/** A day of the organization's calendar, or an instant. */
const dayOrInstantField = (label: string) =>
  z.union([
    z
      .string()
      .refine(isCalendarDate)
      .transform((date) => ({ date })),
    instantField(label).transform((instant) => ({ instant })),
  ]);
export type DayOrInstant = { date: string } | { instant: string };

export const idField = (label: string) =>
  z
    .string({ error: `${label} es obligatorio` })
    .trim()
    .min(1, `${label} es obligatorio`)
    .max(100);

/**
 * `GET /bookings/availability`: `from` and `to` are days of the organization's calendar
 * (`to` included) or instants (`to` excluded).
 */
export const availabilityQuery = z.object({
  service_id: idField("El servicio"),
  from: dayOrInstantField("from"),
  to: dayOrInstantField("to"),
  staff_user_id: z.string().trim().min(1).max(100).optional(),
});

export interface Slot {
  start: string;
  end: string;
  staff_user_id?: string;
}

export const bookingInput = z.object({
  service_id: idField("El servicio"),
  start: instantField("El inicio"),
  conversation_id: idField("La conversación"),
  staff_user_id: z.string().trim().min(1).max(100).nullish(),
  note: z
    .string({ error: "La nota debe ser un texto" })
    .trim()
    .max(1000, "La nota no puede superar 1000 caracteres")
    .nullish()
    .transform((note) => note || null),
});
export type BookingInput = z.output<typeof bookingInput>;

export const bookingUpdateInput = z
  .object({
    start: instantField("El inicio").optional(),
    status: z
      .enum(BOOKING_STATUS_CHANGES, { error: "El estado es cancelled, no_show o completed" })
      .optional(),
    reason: z
      .string({ error: "El motivo debe ser un texto" })
      .trim()
      .max(500, "El motivo no puede superar 500 caracteres")
      .optional(),
  })
  .refine((input) => input.start !== undefined || input.status !== undefined, {
    path: ["(body)"],
    message: "Indica un nuevo inicio o un estado",
  })
  .refine((input) => input.start === undefined || input.status === undefined, {
    path: ["status"],
    message: "Cambia el inicio o el estado, no ambos a la vez",
  });
export type BookingUpdate = z.output<typeof bookingUpdateInput>;

export const BOOKINGS_PAGE_SIZE = 20;

export const bookingListQuery = z.object({
  from: instantField("from").optional(),
  to: instantField("to").optional(),
  status: z.enum(BOOKING_STATUSES).optional(),
  service_id: z.string().trim().min(1).max(100).optional(),
  conversation_id: z.string().trim().min(1).max(100).optional(),
  limit: z.coerce.number().int().min(1).max(100).default(BOOKINGS_PAGE_SIZE),
  page: z.coerce.number().int().min(1).default(1),
});

export interface Booking {
  id: string;
  service_id: string | null;
  service_name: string;
  conversation_id: string;
  staff_user_id: string | null;
  start: string;
  end: string;
  status: BookingStatus;
  /** A `pending_payment` booking holds its slot until then. */
  expires_at: string | null;
  note: string | null;
  reason: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  /** Its reminder for this start (decisions 0121-0123, 0130); null: none planned. */
  reminder: BookingReminder | null;
}

/** Where a booking's reminder stands, as the console shows it. */
export interface BookingReminder {
  state: Exclude<ReminderState, "cancelled">;
  /** When it is (or was) due. */
  due_at: string;
  sent_at: string | null;
  /** The customer pressed "Confirmar". */
  confirmed_at: string | null;
}
