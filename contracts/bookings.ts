/**
 * Bookings (contract section 18, "Agenda y cobra"): the organization's opening hours and away
 * message, its services, their availability and its bookings. Shared with the console.
 */
import { z } from "zod/mini";
import { currencyField, moneyField } from "./sales";
import { maxPaymentAmountField } from "./payments";
import type { MarketingLimits } from "./broadcasts";
import {
  businessHoursText,
  organizationUpdateInput,
  timeZoneField,
  type Organization,
} from "./organizations";
import type { PaymentLimits } from "./payments";
import type { ReminderState } from "./reminders";

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
      z.string().check(z.regex(TIME_OF_DAY, "Hora HH:MM (por ejemplo 09:00)")),
      z.string().check(z.regex(TIME_OF_DAY, "Hora HH:MM (por ejemplo 14:00)")),
    ],
    { error: 'Cada tramo es ["HH:MM", "HH:MM"]' },
  )
  .check(
    z.refine(([open, close]) => minutesOfDay(open) < minutesOfDay(close), {
      message: "Cada tramo debe cerrar después de abrir, el mismo día",
    }),
  );

const dayField = z._default(
  z.array(intervalField, { error: "Cada día es una lista de tramos" }).check(
    z.maxLength(MAX_INTERVALS_A_DAY, `Como mucho ${MAX_INTERVALS_A_DAY} tramos al día`),
    z.refine(
      (intervals) =>
        [...intervals]
          .sort((a, b) => minutesOfDay(a[0]) - minutesOfDay(b[0]))
          .every((interval, i, sorted) => i === 0 || interval[0] >= sorted[i - 1]![1]),
      { message: "Los tramos de un día no pueden solaparse" },
    ),
  ),
  [],
);

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
    closed_dates: z._default(
      z
        .array(
          z.string().check(z.refine(isCalendarDate, "Fecha AAAA-MM-DD (por ejemplo 2026-12-25)")),
          {
            error: "Los días cerrados son una lista de fechas",
          },
        )
        .check(z.maxLength(MAX_CLOSED_DATES, `Como mucho ${MAX_CLOSED_DATES} días cerrados`)),
      [],
    ),
  },
  { error: "El horario es un texto o un objeto con time_zone, week y closed_dates" },
);
export type BusinessHoursInput = z.output<typeof businessHoursInput>;

export const awayMessageInput = z
  .strictObject(
    {
      enabled: z.boolean({ error: "enabled debe ser verdadero o falso" }),
      text: z.pipe(
        z.nullish(
          z
            .string({ error: "El mensaje de ausencia debe ser un texto" })
            .check(
              z.trim(),
              z.maxLength(
                MAX_AWAY_TEXT,
                `El mensaje de ausencia no puede superar ${MAX_AWAY_TEXT} caracteres`,
              ),
            ),
        ),
        z.transform((text) => text || null),
      ),
    },
    { error: "El mensaje de ausencia es un objeto con enabled y text" },
  )
  .check(
    z.refine((away) => !away.enabled || away.text, {
      path: ["text"],
      message: "Escribe el mensaje de ausencia para activarlo",
    }),
  );

export const minNoticeField = z
  .number({ error: "La antelación mínima es un número de minutos" })
  .check(
    z.int("La antelación mínima es un número entero de minutos"),
    z.gte(0, "La antelación mínima no puede ser negativa"),
    z.lte(60 * 24 * 30, "La antelación mínima es de 30 días como mucho"),
  );

/**
 * `business_hours` on `PATCH /organizations/{id}` (decision 0076): a text, as onboarding gave it
 * (the AI answers from it), or the structured hours of section 18. Each is checked as itself,
 * so that a wrong day of the week is named rather than "neither a text nor an object".
 */
const businessHoursField = z.pipe(
  z.unknown(),
  z.transform((value, ctx) => {
    const parsed = (typeof value === "string" ? businessHoursText : businessHoursInput).safeParse(
      value,
    );
    if (!parsed.success) {
      for (const issue of parsed.error.issues) {
        ctx.issues.push({ code: "custom", message: issue.message, path: issue.path, input: value });
      }
      return z.NEVER;
    }
    return parsed.data;
  }),
);

/** `PATCH /organizations/{id}`: the organization's fields and its bookings settings. */
export const organizationSettingsInput = z.extend(organizationUpdateInput, {
  business_hours: z.optional(businessHoursField),
  away_message: z.optional(awayMessageInput),
  min_notice_minutes: z.optional(minNoticeField),
  max_payment_amount: z.optional(maxPaymentAmountField),
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
    .check(
      z.trim(),
      z.minLength(1, "El nombre es obligatorio"),
      z.maxLength(120, "El nombre no puede superar 120 caracteres"),
    ),
  duration_minutes: z
    .number({ error: "La duración es un número de minutos" })
    .check(
      z.int("La duración es un número entero de minutos"),
      z.gte(5, "La duración mínima es de 5 minutos"),
      z.lte(MAX_DURATION_MINUTES, `La duración máxima es de ${MAX_DURATION_MINUTES} minutos`),
    ),
  buffer_minutes: z
    .number({ error: "El margen es un número de minutos" })
    .check(
      z.int("El margen es un número entero de minutos"),
      z.gte(0, "El margen no puede ser negativo"),
      z.lte(MAX_BUFFER_MINUTES, `El margen máximo es de ${MAX_BUFFER_MINUTES} minutos`),
    ),
  price: z.nullable(moneyField("El precio")),
  currency: currencyField,
  payment: z.enum(SERVICE_PAYMENTS, { error: "El cobro es none, deposit o full" }),
  deposit: z.nullable(moneyField("La señal")),
  staff_user_ids: z
    .array(
      z
        .string()
        .check(z.trim(), z.minLength(1, "Identificador de persona vacío"), z.maxLength(100)),
      {
        error: "Las personas son una lista de identificadores",
      },
    )
    .check(z.maxLength(50, "Como mucho 50 personas por servicio")),
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
    buffer_minutes: z._default(serviceFields.buffer_minutes, 0),
    price: z._default(serviceFields.price, null),
    currency: z.optional(serviceFields.currency),
    payment: z._default(serviceFields.payment, "none"),
    deposit: z._default(serviceFields.deposit, null),
    staff_user_ids: z._default(serviceFields.staff_user_ids, []),
    active: z._default(serviceFields.active, true),
  })
  .check(
    z.refine((service) => service.payment === "none" || service.price !== null, {
      path: ["price"],
      message: PRICE_NEEDED,
    }),
    z.refine((service) => service.payment !== "deposit" || service.deposit !== null, {
      path: ["deposit"],
      message: DEPOSIT_NEEDED,
    }),
    z.refine(
      (service) =>
        service.deposit === null ||
        service.price === null ||
        Number(service.deposit) <= Number(service.price),
      { path: ["deposit"], message: DEPOSIT_TOO_HIGH },
    ),
  );
export type ServiceInput = z.output<typeof serviceInput>;

/** A change: what is given replaces what was; the service it makes is checked whole. */
export const serviceUpdateInput = z
  .object({
    name: z.optional(serviceFields.name),
    duration_minutes: z.optional(serviceFields.duration_minutes),
    buffer_minutes: z.optional(serviceFields.buffer_minutes),
    price: z.optional(serviceFields.price),
    currency: z.optional(serviceFields.currency),
    payment: z.optional(serviceFields.payment),
    deposit: z.optional(serviceFields.deposit),
    staff_user_ids: z.optional(serviceFields.staff_user_ids),
    active: z.optional(serviceFields.active),
  })
  .check(
    z.refine((input) => Object.values(input).some((value) => value !== undefined), {
      path: ["(body)"],
      message: "Indica qué quieres cambiar",
    }),
  );
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
  z.pipe(
    z.iso.datetime({
      offset: true,
      error: `${label}: fecha y hora ISO 8601 (2026-12-03T10:00:00Z)`,
    }),
    z.transform((text) => new Date(text).toISOString()),
  );

/** A day of the organization's calendar, or an instant. */
const dayOrInstantField = (label: string) =>
  z.union([
    z.pipe(
      z.string().check(z.refine(isCalendarDate)),
      z.transform((date) => ({ date })),
    ),
    z.pipe(
      instantField(label),
      z.transform((instant) => ({ instant })),
    ),
  ]);
export type DayOrInstant = { date: string } | { instant: string };

export const idField = (label: string) =>
  z
    .string({ error: `${label} es obligatorio` })
    .check(z.trim(), z.minLength(1, `${label} es obligatorio`), z.maxLength(100));

/**
 * `GET /bookings/availability`: `from` and `to` are days of the organization's calendar
 * (`to` included) or instants (`to` excluded).
 */
export const availabilityQuery = z.object({
  service_id: idField("El servicio"),
  from: dayOrInstantField("from"),
  to: dayOrInstantField("to"),
  staff_user_id: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
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
  staff_user_id: z.nullish(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
  note: z.pipe(
    z.nullish(
      z
        .string({ error: "La nota debe ser un texto" })
        .check(z.trim(), z.maxLength(1000, "La nota no puede superar 1000 caracteres")),
    ),
    z.transform((note) => note || null),
  ),
});
export type BookingInput = z.output<typeof bookingInput>;

export const bookingUpdateInput = z
  .object({
    start: z.optional(instantField("El inicio")),
    status: z.optional(
      z.enum(BOOKING_STATUS_CHANGES, { error: "El estado es cancelled, no_show o completed" }),
    ),
    reason: z.optional(
      z
        .string({ error: "El motivo debe ser un texto" })
        .check(z.trim(), z.maxLength(500, "El motivo no puede superar 500 caracteres")),
    ),
  })
  .check(
    z.refine((input) => input.start !== undefined || input.status !== undefined, {
      path: ["(body)"],
      message: "Indica un nuevo inicio o un estado",
    }),
    z.refine((input) => input.start === undefined || input.status === undefined, {
      path: ["status"],
      message: "Cambia el inicio o el estado, no ambos a la vez",
    }),
  );
export type BookingUpdate = z.output<typeof bookingUpdateInput>;

export const BOOKINGS_PAGE_SIZE = 20;

export const bookingListQuery = z.object({
  from: z.optional(instantField("from")),
  to: z.optional(instantField("to")),
  status: z.optional(z.enum(BOOKING_STATUSES)),
  service_id: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
  conversation_id: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(100))),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), BOOKINGS_PAGE_SIZE),
  page: z._default(z.coerce.number().check(z.int(), z.gte(1)), 1),
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
