/** Shapes of the organization calls, shared by the API and the console's forms. */
import { z } from "zod/mini";
import { AUTO_ASSIGN_MODES, type AutoAssignMode } from "./team-inbox";
import { currencyField } from "./sales";
import { wallClock } from "./zoned-time";
import { marketingBudgetField, marketingFrequencyField } from "./broadcasts";

const required = (label: string, max = 200) =>
  z
    .string({ error: `${label} es obligatorio` })
    .check(
      z.trim(),
      z.minLength(1, `${label} es obligatorio`),
      z.maxLength(max, `${label} es demasiado largo`),
    );

/** Optional free text: blank is stored as nothing. */
const optional = (label: string, max = 500) =>
  z.pipe(
    z.nullish(z.string().check(z.trim(), z.maxLength(max, `${label} es demasiado largo`))),
    z.transform((value) => value || null),
  );

/** The most tokens a month an owner may allow: far above any real use, below any overflow. */
export const MAX_AI_MONTHLY_TOKEN_BUDGET = 1_000_000_000;

export const EMPLOYEE_COUNTS = ["1-10", "11-50", "51-200", "200+"] as const;

/** The currencies the settings form offers first; any ISO 4217 code is accepted. */
export const COMMON_CURRENCIES = ["EUR", "USD", "MXN", "COP", "ARS", "CLP", "PEN", "GBP"] as const;

const servicesOffered = required("Los servicios", 2000);
/** The opening hours as a text, as onboarding gives them (the AI answers from it). */
export const businessHoursText = required("El horario", 500);
const aiUseCase = required("El uso de la IA", 2000);

/** A time zone the runtime knows (IANA: Europe/Madrid, America/Mexico_City...). */
export const timeZoneField = z
  .string({ error: "La zona horaria es obligatoria" })
  .check(
    z.trim(),
    z.minLength(1, "La zona horaria es obligatoria"),
    z.maxLength(64),
    z.refine(isTimeZone, "Zona horaria desconocida: usa el nombre IANA, por ejemplo Europe/Madrid"),
  );

export function isTimeZone(name: string) {
  try {
    new Intl.DateTimeFormat("es", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

const timeOfDayField = (label: string) =>
  z
    .string({ error: `${label} es obligatorio` })
    .check(
      z.trim(),
      z.regex(/^([01]\d|2[0-3]):[0-5]\d$/, `${label} debe ser una hora HH:MM (por ejemplo 21:00)`),
    );

/**
 * The time zone of an organization whose country says none the product knows: the product's
 * home market (the same reasoning as its default currency).
 */
export const DEFAULT_TIME_ZONE = "Europe/Madrid";

/** Quiet hours when an organization has not set its own (contract section 17). */
export const DEFAULT_QUIET_HOURS = { start: "21:00", end: "09:00" } as const;

/**
 * Quiet hours as a clock reads them, for the Worker and the console alike (contract section
 * 17): the organization's are applied by ./quiet-hours.ts.
 */
export interface QuietHours {
  timeZone: string;
  /** HH:MM, local. When start is later than end, the quiet hours cross midnight. */
  start: string;
  end: string;
}

const MINUTE_MS = 60_000;
const DAY_MINUTES = 24 * 60;

const minutesOf = (time: string) => {
  const [hours, minutes] = time.split(":").map(Number);
  return hours! * 60 + minutes!;
};

/** The local time of day at `at` in `timeZone`, in minutes since midnight (seconds dropped). */
function localMinutes(at: Date, timeZone: string) {
  const { hour, minute } = wallClock(at.getTime(), timeZone);
  return hour * 60 + minute;
}

/** Whether `minute` of the day is inside [start, end), which may cross midnight. */
function inside(minute: number, start: number, end: number) {
  return start <= end ? minute >= start && minute < end : minute >= start || minute < end;
}

/**
 * When the quiet hours `at` falls in end (the first instant the local clock reads their end),
 * or null when `at` is outside them (or they are empty: start equal to end).
 */
export function quietHoursEnd(at: Date, quiet: QuietHours): Date | null {
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const now = localMinutes(at, quiet.timeZone);
  if (start === end || !inside(now, start, end)) return null;
  const wholeMinute = at.getTime() - (at.getTime() % MINUTE_MS);
  let until = wholeMinute + ((end - now + DAY_MINUTES) % DAY_MINUTES) * MINUTE_MS;
  // A change of the clocks (summer time) in between moves the local end by its offset.
  const drift = (end - localMinutes(new Date(until), quiet.timeZone) + DAY_MINUTES) % DAY_MINUTES;
  if (drift !== 0) until += (drift > DAY_MINUTES / 2 ? drift - DAY_MINUTES : drift) * MINUTE_MS;
  return new Date(until);
}

/**
 * When the quiet hours `at` falls in began (the first instant the local clock read their start),
 * or null when `at` is outside them: what must happen before them goes just before this.
 */
export function quietHoursStart(at: Date, quiet: QuietHours): Date | null {
  const start = minutesOf(quiet.start);
  const end = minutesOf(quiet.end);
  const now = localMinutes(at, quiet.timeZone);
  if (start === end || !inside(now, start, end)) return null;
  const wholeMinute = at.getTime() - (at.getTime() % MINUTE_MS);
  let since = wholeMinute - ((now - start + DAY_MINUTES) % DAY_MINUTES) * MINUTE_MS;
  // A change of the clocks in between moves the local start by its offset.
  const drift = (start - localMinutes(new Date(since), quiet.timeZone) + DAY_MINUTES) % DAY_MINUTES;
  if (drift !== 0) since += (drift > DAY_MINUTES / 2 ? drift - DAY_MINUTES : drift) * MINUTE_MS;
  return new Date(since);
}

export const organizationCreateInput = z.object({
  name: required("El nombre", 120),
  industry: required("El sector", 120),
  employee_count: required("El número de empleados", 40),
  services_offered: servicesOffered,
  business_hours: businessHoursText,
  city: required("La ciudad", 120),
  country: required("El país", 120),
  ai_use_case: aiUseCase,
  address: optional("La dirección"),
  description: optional("La descripción", 2000),
});

export const organizationUpdateInput = z.object({
  name: z.optional(required("El nombre", 120)),
  industry: z.optional(required("El sector", 120)),
  city: z.optional(required("La ciudad", 120)),
  country: z.optional(required("El país", 120)),
  address: z.optional(optional("La dirección")),
  description: z.optional(optional("La descripción", 2000)),
  // The business facts the AI answers from stay editable after onboarding.
  employee_count: z.optional(
    z.enum(EMPLOYEE_COUNTS, { error: "Elige un número de empleados de la lista" }),
  ),
  services_offered: z.optional(servicesOffered),
  business_hours: z.optional(businessHoursText),
  ai_use_case: z.optional(aiUseCase),
  /** Default currency of the sales recorded in the console and of the ads report. */
  currency: z.optional(currencyField),
  auto_assign: z.optional(
    z.enum(AUTO_ASSIGN_MODES, { error: "Elige la asignación automática: off o round_robin" }),
  ),
  /** Model tokens a calendar month (UTC): the owner's alone to set (docs/decisions/0029). */
  /** IANA time zone (Europe/Madrid): the quiet hours are in it. */
  time_zone: z.optional(timeZoneField),
  /** No broadcast is sent between these two times of day (HH:MM, may cross midnight). */
  quiet_hours_start: z.optional(timeOfDayField("El inicio del horario de descanso")),
  quiet_hours_end: z.optional(timeOfDayField("El final del horario de descanso")),
  ai_monthly_token_budget: z.optional(
    z
      .number({ error: "El presupuesto de IA debe ser un número de tokens" })
      .check(
        z.int("El presupuesto de IA es un número entero de tokens"),
        z.gte(0, "El presupuesto de IA no puede ser negativo"),
        z.lte(
          MAX_AI_MONTHLY_TOKEN_BUDGET,
          "El presupuesto de IA máximo es de 1.000 millones de tokens",
        ),
      ),
  ),
  /** What marketing may send and cost a month (owner only; null removes it; decision 0080). */
  marketing_budget: z.optional(marketingBudgetField),
  /** Marketing messages a customer may get in `days` days (owner only). */
  marketing_frequency: z.optional(marketingFrequencyField),
});

export type OrganizationCreateInput = z.input<typeof organizationCreateInput>;
export type OrganizationUpdateInput = z.input<typeof organizationUpdateInput>;
export type OrganizationCreateData = z.output<typeof organizationCreateInput>;
export type OrganizationUpdateData = z.output<typeof organizationUpdateInput>;

export interface Organization {
  id: string;
  name: string;
  industry: string;
  description: string | null;
  address: string | null;
  employee_count: string;
  services_offered: string;
  business_hours: string;
  city: string;
  country: string;
  ai_use_case: string;
  /** ISO 4217: sales recorded without a currency, and the ads report's revenue. */
  currency: string;
  /** Model tokens the organization may spend a calendar month (UTC); `GET /agents/usage`. */
  ai_monthly_token_budget: number;
  /** `round_robin`: handed-off and new conversations go to an available member. */
  auto_assign: AutoAssignMode;
  /** IANA time zone of the business: its broadcasts' quiet hours are in it. */
  time_zone: string;
  /** No broadcast is sent from `quiet_hours_start` to `quiet_hours_end` (HH:MM, local). */
  quiet_hours_start: string;
  quiet_hours_end: string;
  tracking_key: string;
  created_at: string;
  updated_at: string;
}
