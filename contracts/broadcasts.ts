/**
 * Broadcasts ("Difusiones", contract section 17): one approved template sent to a segment of
 * the organization's customers, paced within Meta's limits, with its results.
 */
import { z } from "zod/mini";
import { templateSendField } from "./conversations";
import { CONVERSATION_STAGES, currencyField, type ConversationStage } from "./sales";

/** A broadcast's life: edited while `draft` or `scheduled`, then sent, paused or cancelled. */
export const BROADCAST_STATUSES = [
  "draft",
  "scheduled",
  "sending",
  "paused",
  "completed",
  "cancelled",
] as const;
export type BroadcastStatus = (typeof BROADCAST_STATUSES)[number];

/** The statuses a manager may still edit or delete a broadcast in. */
export const EDITABLE_STATUSES: readonly BroadcastStatus[] = ["draft", "scheduled"];

/** The template categories a broadcast may use (Meta's, as the templates list writes them). */
export const BROADCAST_CATEGORIES = ["MARKETING", "UTILITY"] as const;
export type BroadcastCategory = (typeof BROADCAST_CATEGORIES)[number];

/**
 * One recipient's way through a send: `pending` until its turn, `sending` while Meta is asked
 * (a recipient is claimed once: never asked twice), then Meta's statuses; `skipped` when
 * consent left them out at send time (the reason in `error_code`), `limited` on 131049 (never
 * retried), `cancelled` when the broadcast was cancelled before their turn.
 */
export const RECIPIENT_STATES = [
  "pending",
  "sending",
  "sent",
  "delivered",
  "read",
  "failed",
  "limited",
  "skipped",
  "cancelled",
] as const;
export type RecipientState = (typeof RECIPIENT_STATES)[number];

/**
 * Why a recipient was left out when the broadcast was sent (as the preview counts them);
 * `frequency`: they already got the marketing the owner allows a customer in a few days.
 */
export const SKIP_REASONS = ["opted_out", "limited", "unreachable", "frequency"] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

/** Why a `sending` broadcast is waiting: quiet hours, or the account's daily messaging limit. */
export const WAIT_REASONS = ["quiet_hours", "messaging_limit"] as const;
export type WaitReason = (typeof WAIT_REASONS)[number];

/**
 * Why the product paused a broadcast by itself: Meta no longer takes its template (paused,
 * deleted, its parameters changed), WhatsApp was disconnected, the organization's store has
 * no room left (contract section 15), or the month's marketing budget is spent. A manager's
 * pause has none.
 */
export const PAUSE_REASONS = [
  "template_unusable",
  "not_connected",
  "store_full",
  "budget",
] as const;
export type PauseReason = (typeof PAUSE_REASONS)[number];

/** How many ids one criterion may list (a segment, not a customer list). */
const MAX_CRITERION_IDS = 50;

const idList = (what: string) =>
  z
    .array(
      z
        .string()
        .check(z.trim(), z.minLength(1, `Identificador de ${what} vacío`), z.maxLength(200)),
      {
        error: `Los ${what} deben ser una lista de identificadores`,
      },
    )
    .check(
      z.minLength(1, `Indica al menos un ${what} o quita el criterio`),
      z.maxLength(MAX_CRITERION_IDS, `Como mucho ${MAX_CRITERION_IDS} ${what}`),
    );

/** A day (`2026-11-20`) or an instant (`2026-11-20T10:00:00Z`, with its offset), as ISO UTC. */
const isoInstant = (message: string) =>
  z.pipe(
    z.string({ error: message }).check(
      z.trim(),
      z.refine(
        (text) =>
          /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2}))?$/.test(text) &&
          !Number.isNaN(Date.parse(text)),
        message,
      ),
    ),
    z.transform((text) => new Date(Date.parse(text)).toISOString()),
  );

/**
 * Who a broadcast goes to: every criterion given must hold (AND), each list is any of its
 * values. Evaluated when asked (preview, send), never stored as conversation ids.
 */
export const audienceField = z
  .strictObject(
    {
      label_ids: z.optional(idList("etiquetas")),
      stages: z.optional(
        z
          .array(z.enum(CONVERSATION_STAGES, { error: "Etapa desconocida" }), {
            error: "Las etapas deben ser una lista",
          })
          .check(
            z.minLength(1, "Indica al menos una etapa o quita el criterio"),
            z.maxLength(CONVERSATION_STAGES.length),
          ),
      ),
      ad_ids: z.optional(idList("anuncios")),
      last_inbound_before: z.optional(
        isoInstant("last_inbound_before debe ser una fecha ISO (por ejemplo 2026-11-20)"),
      ),
      last_inbound_after: z.optional(
        isoInstant("last_inbound_after debe ser una fecha ISO (por ejemplo 2026-11-20)"),
      ),
      has_phone: z.optional(z.boolean({ error: "has_phone debe ser verdadero o falso" })),
    },
    { error: "La audiencia debe ser un objeto con criterios conocidos" },
  )
  .check(
    z.refine(
      (a) =>
        !a.last_inbound_before ||
        !a.last_inbound_after ||
        a.last_inbound_after < a.last_inbound_before,
      {
        path: ["last_inbound_after"],
        message: "last_inbound_after debe ser anterior a last_inbound_before",
      },
    ),
  );
export type Audience = z.infer<typeof audienceField>;

const nameField = z
  .string({ error: "El nombre es obligatorio" })
  .check(
    z.trim(),
    z.minLength(1, "El nombre es obligatorio"),
    z.maxLength(120, "El nombre no puede superar 120 caracteres"),
  );

/** When to send it (UTC ISO); checked to be in the future by the service. */
const sendAtField = z.nullable(isoInstant("send_at debe ser una fecha y hora ISO"));

export const broadcastInput = z.object({
  name: nameField,
  template: templateSendField,
  audience: z._default(audienceField, {}),
  send_at: z.optional(sendAtField),
});
export type BroadcastInput = z.infer<typeof broadcastInput>;

export const broadcastUpdateInput = z
  .object({
    name: z.optional(nameField),
    template: z.optional(templateSendField),
    audience: z.optional(audienceField),
    send_at: z.optional(sendAtField),
  })
  .check(
    z.refine((input) => Object.values(input).some((value) => value !== undefined), {
      path: ["(body)"],
      message: "Indica qué quieres cambiar",
    }),
  );
export type BroadcastUpdate = z.infer<typeof broadcastUpdateInput>;

/** `GET /broadcasts`: newest first, `before` being the id of the last one already shown. */
export const broadcastListQuery = z.object({
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50),
  before: z.optional(z.uuid({ error: "before debe ser el id de una difusión" })),
});

/** `GET /broadcasts/{id}/recipients`: by state, a page at a time (`after`: the last conversation). */
export const recipientListQuery = z.object({
  state: z.optional(z.enum(RECIPIENT_STATES, { error: "Estado de destinatario desconocido" })),
  limit: z._default(z.coerce.number().check(z.int(), z.gte(1), z.lte(100)), 50),
  after: z.optional(z.string().check(z.trim(), z.minLength(1), z.maxLength(200))),
});

/** The audience as the API answers it (the criteria given, nothing else). */
export interface AudienceCriteria {
  label_ids?: string[];
  stages?: ConversationStage[];
  ad_ids?: string[];
  last_inbound_before?: string;
  last_inbound_after?: string;
  has_phone?: boolean;
}

export interface Broadcast {
  id: string;
  name: string;
  status: BroadcastStatus;
  template: {
    name: string;
    language: string;
    category: BroadcastCategory;
    parameters: string[];
  };
  audience: AudienceCriteria;
  send_at: string | null;
  created_by: string | null;
  /** When it started sending, and when the last recipient was sent (or it was cancelled). */
  started_at: string | null;
  completed_at: string | null;
  /**
   * Meta refused the Marketing Messages API (the account is not onboarded to it): the rest
   * went through the ordinary `/messages`. Said once, on the broadcast.
   */
  fell_back_at: string | null;
  /** A `sending` broadcast waiting for the end of quiet hours or of the daily limit. */
  waiting: { reason: WaitReason; until: string } | null;
  /** A `paused` broadcast the product paused, and why (null: a manager paused it). */
  pause_reason: PauseReason | null;
  stats: BroadcastStats;
  created_at: string;
  updated_at: string;
}

/**
 * A broadcast's results (contract section 17). Counts are of recipients, and cumulative:
 * a read message was also delivered and sent.
 */
export interface BroadcastStats {
  /** Everyone it is for (not those left out at send time). */
  recipients: number;
  /** Not sent yet: waiting their turn (or being sent). */
  pending: number;
  /** Accepted by Meta. */
  sent: number;
  delivered: number;
  read: number;
  /** Wrote back within 72 h of receiving it. */
  replied: number;
  /** Refused by Meta (its code in `failed_by_code`), or not sent for an error. */
  failed: number;
  failed_by_code: Record<string, number>;
  /** Meta's per-user marketing limit (131049): not the product's failure, never retried. */
  limited: number;
  /** Stopped marketing after receiving it (Meta's switch, 131050 or an opt-out word). */
  opted_out: number;
  /** Left out at send time, and why. */
  skipped: SkippedCounts;
  /** Sales recorded in the recipients' conversations within 7 days of the send. */
  sales: number;
  revenue: number;
  /** Bookings kept (confirmed, completed, no-show) made in them within 7 days of the send. */
  bookings: number;
  /** What Meta billed for the messages (statuses' pricing) at the rate known for each country. */
  cost: number;
  /** The organization's currency, of `revenue` and `cost`. */
  currency: string;
}

/** One recipient as `GET /broadcasts/{id}/recipients` answers it. */
export interface BroadcastRecipient {
  conversation_id: string;
  customer_name: string | null;
  phone_number: string | null;
  state: RecipientState;
  /** Meta's code (or the skip reason, or `interrupted`), and its reason in Spanish. */
  error_code: string | null;
  error: string | null;
  sent_at: string | null;
  delivered_at: string | null;
  read_at: string | null;
  replied_at: string | null;
  cost: number | null;
}

/** An ad conversations came from, for the audience's ad criterion (`GET /broadcasts/audience/ads`). */
export interface AudienceAd {
  ad_id: string;
  /** The ad's headline as Meta's referral gave it, when it did. */
  headline: string | null;
  conversations: number;
}

/** Why a customer of the audience is left out of the send. */
export interface SkippedCounts {
  opted_out: number;
  limited: number;
  unreachable: number;
  frequency: number;
}

/** A country's part of the estimate (`ZZ`: a customer whose country is unknown). */
export interface CountryCost {
  recipients: number;
  /** Per message, in the organization's currency; null: no rate in it (see `source`). */
  rate: number | null;
  amount: number | null;
  /** The organization's own latest figures from Meta, or the rate card the product ships. */
  source: "analytics" | "rate_card";
}

export interface BroadcastPreview {
  recipients: number;
  /** The owner's budget and what the month has used of it, and the frequency cap. */
  marketing: MarketingAllowanceView;
  skipped: SkippedCounts;
  estimated_cost: {
    /** Null when a country's rate could not be given in the organization's currency. */
    amount: number | null;
    currency: string;
    by_country: Record<string, CountryCost>;
  };
}

// ---------------------------------------------------------------------------------------------
// What the owner allows marketing (decision 0080): set on the organization, kept in its store.

/** A broadcast to more recipients than this is sent only with the preview's figures confirmed. */
export const CONFIRM_ABOVE_RECIPIENTS = 1_000;
/** How far the confirmed figures may be from the preview's now (5%). */
export const CONFIRM_TOLERANCE = 0.05;

/** Most sends a month an owner may set: far above any real use, below any overflow. */
const MAX_MONTHLY_SENDS = 10_000_000;

/** `marketing_budget` of `PATCH /organizations/{id}`: null removes it. */
export const marketingBudgetField = z.nullable(
  z
    .strictObject(
      {
        monthly_sends: z.pipe(
          z.nullish(
            z
              .number({ error: "El máximo de envíos al mes debe ser un número" })
              .check(
                z.int("El máximo de envíos al mes es un número entero"),
                z.gte(1, "El máximo de envíos al mes debe ser al menos 1"),
                z.lte(MAX_MONTHLY_SENDS, "Como mucho 10.000.000 de envíos al mes"),
              ),
          ),
          z.transform((value) => value ?? null),
        ),
        monthly_cost: z.pipe(
          z.nullish(
            z
              .number({ error: "El gasto máximo al mes debe ser un número" })
              .check(
                z.positive("El gasto máximo al mes debe ser mayor que 0"),
                z.lte(100_000_000, "El gasto máximo al mes es demasiado alto"),
              ),
          ),
          z.transform((value) => value ?? null),
        ),
        currency: currencyField,
      },
      {
        error:
          "El presupuesto de marketing debe ser un objeto {monthly_sends, monthly_cost, currency}",
      },
    )
    .check(
      z.refine((budget) => budget.monthly_sends !== null || budget.monthly_cost !== null, {
        path: ["monthly_sends"],
        message: "Indica un máximo de envíos o de gasto al mes (o quita el presupuesto)",
      }),
    ),
);

/** `marketing_frequency` of `PATCH /organizations/{id}`. */
export const marketingFrequencyField = z.strictObject(
  {
    max: z
      .number({ error: "El máximo de mensajes por cliente debe ser un número" })
      .check(
        z.int("El máximo de mensajes por cliente es un número entero"),
        z.gte(1, "Al menos 1 mensaje por cliente"),
        z.lte(50, "Como mucho 50 mensajes por cliente"),
      ),
    days: z
      .number({ error: "Los días deben ser un número" })
      .check(
        z.int("Los días son un número entero"),
        z.gte(1, "Al menos 1 día"),
        z.lte(90, "Como mucho 90 días"),
      ),
  },
  { error: "La frecuencia debe ser un objeto {max, days}" },
);

/** `POST /broadcasts/{id}/send`: the preview's figures, for a broadcast of more than 1,000. */
export const sendInput = z.object({
  confirm_recipients: z.optional(
    z.number({ error: "confirm_recipients debe ser un número" }).check(z.int(), z.gte(0)),
  ),
  confirm_cost: z.nullish(z.number({ error: "confirm_cost debe ser un número" }).check(z.gte(0))),
});
export type SendInput = z.infer<typeof sendInput>;

export interface MarketingBudget {
  monthly_sends: number | null;
  monthly_cost: number | null;
  currency: string;
}

export interface MarketingFrequency {
  max: number;
  days: number;
}

/** As the organization answers them (`GET /organizations/me`). */
export interface MarketingLimits {
  marketing_budget: MarketingBudget | null;
  marketing_frequency: MarketingFrequency;
}

/**
 * The budget with what this calendar month (UTC) has used of it: broadcast sends and marketing
 * follow-ups, the cost estimated as the preview estimates it, in the budget's currency
 * (`cost_used` null: not estimable in it). `*_left` null: no cap.
 */
export interface MarketingAllowanceView {
  budget:
    | (MarketingBudget & {
        month: string;
        sends_used: number;
        cost_used: number | null;
        sends_left: number | null;
        cost_left: number | null;
      })
    | null;
  frequency: MarketingFrequency;
}
