/**
 * Bookings' tables (contract section 18, decisions 0076-0079), all of them the organization's
 * own, in its store (store migration 11): its opening hours and away message, its services, its
 * bookings and the away messages it owes. Timestamps are ISO-8601 UTC strings, as everywhere.
 */
import { sql } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { uuidv7 } from "../db/ids";
import { conversations } from "../db/schema";
import {
  AWAY_MESSAGE_STATES,
  BOOKING_STATUSES,
  DEFAULT_MIN_NOTICE_MINUTES,
  SERVICE_PAYMENTS,
  type Week,
} from "./contract";

const id = () =>
  text("id")
    .primaryKey()
    .$defaultFn(() => uuidv7());
const organizationId = () => text("organization_id").notNull();
const createdAt = () =>
  text("created_at")
    .notNull()
    .$defaultFn(() => new Date().toISOString());
const updatedAt = () =>
  text("updated_at")
    .notNull()
    .$defaultFn(() => new Date().toISOString());

/**
 * What only the store uses of the organization's settings (decision 0076), one row: its
 * structured opening hours (none until set: no slots, no away message), the away message and
 * the notice a booking needs. The free-text `business_hours` of onboarding stays in D1.
 */
export const bookingSettings = sqliteTable("booking_settings", {
  organizationId: text("organization_id").primaryKey().notNull(),
  /** IANA time zone the week and the closed dates are read in; null: no hours set. */
  timeZone: text("time_zone"),
  week: text("week", { mode: "json" }).$type<Week>(),
  closedDates: text("closed_dates", { mode: "json" }).notNull().$type<string[]>(),
  awayEnabled: integer("away_enabled", { mode: "boolean" }).notNull().default(false),
  awayText: text("away_text"),
  minNoticeMinutes: integer("min_notice_minutes").notNull().default(DEFAULT_MIN_NOTICE_MINUTES),
  updatedAt: updatedAt(),
});

export const services = sqliteTable(
  "services",
  {
    id: id(),
    organizationId: organizationId(),
    name: text("name").notNull(),
    durationMinutes: integer("duration_minutes").notNull(),
    bufferMinutes: integer("buffer_minutes").notNull().default(0),
    /** Decimal strings ("35.50"): money is never a float. */
    price: text("price"),
    currency: text("currency").notNull(),
    payment: text("payment", { enum: SERVICE_PAYMENTS }).notNull().default("none"),
    deposit: text("deposit"),
    /** Members who perform it (empty: the organization's own calendar). */
    staffUserIds: text("staff_user_ids", { mode: "json" }).notNull().$type<string[]>(),
    active: integer("active", { mode: "boolean" }).notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("services_organization_idx").on(t.organizationId, t.id)],
);

export const bookings = sqliteTable(
  "bookings",
  {
    id: id(),
    organizationId: organizationId(),
    /** Null once the service is deleted; its name stays on the booking. */
    serviceId: text("service_id").references(() => services.id, { onDelete: "set null" }),
    serviceName: text("service_name").notNull(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    staffUserId: text("staff_user_id"),
    /**
     * Whose time it takes: the staff member's id, or "" for the organization's own calendar.
     * Two live bookings of one calendar never overlap (decision 0078).
     */
    calendar: text("calendar").notNull(),
    startsAt: text("starts_at").notNull(),
    endsAt: text("ends_at").notNull(),
    /** `ends_at` plus the service's buffer: the calendar is busy until then. */
    busyUntil: text("busy_until").notNull(),
    status: text("status", { enum: BOOKING_STATUSES }).notNull(),
    /** A `pending_payment` booking holds its slot until then. */
    expiresAt: text("expires_at"),
    note: text("note"),
    /** Why it was cancelled or marked (a person's words, or `payment_expired`). */
    reason: text("reason"),
    /** The `Idempotency-Key` it was made with, and what was asked, to answer a retry the same. */
    idempotencyKey: text("idempotency_key"),
    requestHash: text("request_hash"),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("bookings_calendar_idx").on(t.organizationId, t.calendar, t.startsAt),
    index("bookings_starts_idx").on(t.organizationId, t.startsAt),
    index("bookings_conversation_idx").on(t.conversationId),
    index("bookings_service_idx").on(t.serviceId),
    uniqueIndex("bookings_idempotency_idx")
      .on(t.organizationId, t.idempotencyKey)
      .where(sql`idempotency_key IS NOT NULL`),
    index("bookings_holds_idx")
      .on(t.expiresAt)
      .where(sql`status = 'pending_payment'`),
  ],
);

/**
 * The away message a conversation is owed for one closed stretch (decision 0077): claimed when
 * the customer's message is stored, sent by the store's `away_messages` job. The stretch is
 * named by when it ends (the next opening), so a second message in it claims nothing.
 */
export const awayMessageSends = sqliteTable(
  "away_message_sends",
  {
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    organizationId: organizationId(),
    stretchEndsAt: text("stretch_ends_at").notNull(),
    state: text("state", { enum: AWAY_MESSAGE_STATES }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.stretchEndsAt] }),
    index("away_message_sends_pending_idx")
      .on(t.organizationId)
      .where(sql`state = 'pending'`),
  ],
);
