/**
 * What is global, in D1 (contract section 15): accounts, sessions, limits, organizations and
 * their members, the connections that route Meta's webhooks, and the store registry. An
 * organization's own data is in its store (durable-objects/schema.ts). drizzle-kit turns this module, and
 * only it, into SQL under migrations/. Timestamps are ISO-8601 UTC strings (they sort as text
 * and are what the API returns).
 */
import { uuidv7 } from "./ids";
import {
  index,
  integer,
  primaryKey,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import { DEFAULT_AI_MONTHLY_TOKEN_BUDGET } from "../../contracts/agents";
import { ROLES } from "../../contracts/auth";
import { DEFAULT_CURRENCY } from "../../contracts/sales";
import { AUTO_ASSIGN_MODES } from "../../contracts/team-inbox";
import { STORE_JURISDICTIONS, STORE_STATES } from "../stores/contract";
import { DEFAULT_QUIET_HOURS, DEFAULT_TIME_ZONE } from "../../contracts/organizations";

import { createdAt, id, updatedAt } from "./columns";

const organizationId = () =>
  text("organization_id")
    .notNull()
    .references(() => organizations.id, { onDelete: "cascade" });

export type { Role } from "../../contracts/auth";

// ── Accounts ────────────────────────────────────────────────────────────────

/** A person who signs in. The spec's "profile" is this row's public part (id, full_name, email). */
export const users = sqliteTable("users", {
  id: id(),
  email: text("email").notNull().unique(), // stored trimmed and lower-cased
  passwordHash: text("password_hash").notNull(),
  fullName: text("full_name").notNull(),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Server-side record behind every access token: revoking it revokes the token. */
export const sessions = sqliteTable(
  "sessions",
  {
    id: id(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: text("expires_at").notNull(),
    revokedAt: text("revoked_at"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
  },
  (t) => [index("sessions_user_idx").on(t.userId)],
);

/** Fixed-window counters for rate limits (login failures, registrations, public endpoints). */
export const rateLimits = sqliteTable("rate_limits", {
  key: text("key").primaryKey(),
  count: integer("count").notNull(),
  resetAt: integer("reset_at").notNull(), // epoch milliseconds
});

// ── Organizations and their members ────────────────────────────────────────

export const organizations = sqliteTable(
  "organizations",
  {
    id: id(),
    name: text("name").notNull(),
    industry: text("industry").notNull(),
    description: text("description"),
    address: text("address"),
    employeeCount: text("employee_count").notNull(),
    servicesOffered: text("services_offered").notNull(),
    businessHours: text("business_hours").notNull(),
    city: text("city").notNull(),
    country: text("country").notNull(),
    aiUseCase: text("ai_use_case").notNull(),
    /** Public key a business's own web pages send to create tracking sessions. */
    trackingKey: text("tracking_key")
      .notNull()
      .$defaultFn(() => crypto.randomUUID().replaceAll("-", "")),
    /** Currency of sales recorded in the console when none is given (ISO 4217). */
    currency: text("currency").notNull().default(DEFAULT_CURRENCY),
    /** Model tokens the organization may spend a calendar month (UTC); the owner sets it. */
    aiMonthlyTokenBudget: integer("ai_monthly_token_budget")
      .notNull()
      .default(DEFAULT_AI_MONTHLY_TOKEN_BUDGET),
    /** `round_robin`: handed-off and new conversations go to an available member. */
    autoAssign: text("auto_assign", { enum: AUTO_ASSIGN_MODES }).notNull().default("off"),
    /** IANA time zone of the business; its broadcasts' quiet hours are in it. */
    timeZone: text("time_zone").notNull().default(DEFAULT_TIME_ZONE),
    /** No broadcast is sent from start to end (HH:MM local, crossing midnight when start > end). */
    quietHoursStart: text("quiet_hours_start").notNull().default(DEFAULT_QUIET_HOURS.start),
    quietHoursEnd: text("quiet_hours_end").notNull().default(DEFAULT_QUIET_HOURS.end),
    /**
     * Moved by D1's triggers (migration 0029) whenever this row or its WhatsApp connection
     * changes: the edge reads it with the session and hands it to the store, which keeps its
     * organization's facts while it stays the same (decision 0136).
     */
    factsVersion: integer("facts_version").notNull().default(0),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("organizations_tracking_key_idx").on(t.trackingKey)],
);

/**
 * Where each organization's data lives (docs/decisions/0052): its store, a Durable Object with
 * SQLite storage reached by `store_id` (never by a name made from the organization id, so a
 * a restore changes this row alone), in `jurisdiction` when it has one. `state` is `store` for
 * every organization since migration 0028 (decision 0075); any other value is one the upgrade
 * stop left unmoved, which this release does not serve (`store_required`).
 */
export const organizationStores = sqliteTable("organization_stores", {
  organizationId: text("organization_id")
    .primaryKey()
    .references(() => organizations.id, { onDelete: "cascade" }),
  storeId: text("store_id")
    .notNull()
    .unique()
    .$defaultFn(() => uuidv7()),
  jurisdiction: text("jurisdiction", { enum: STORE_JURISDICTIONS }),
  state: text("state", { enum: STORE_STATES }).notNull().default("d1"),
  /** The newest store migration the store has applied (it migrates itself when it wakes). */
  schemaVersion: integer("schema_version").notNull().default(0),
  /** The store's size on disk and messages, as it last reported them. */
  bytes: integer("bytes").notNull().default(0),
  messages: integer("messages").notNull().default(0),
  /**
   * When the store last ran its daily jobs (retention), as it reported them: the daily cron wakes
   * only the stores whose day has not run since yesterday (an alarm that failed).
   */
  dailyRunAt: text("daily_run_at"),
  updatedAt: updatedAt(),
});

/**
 * Organizations deleted (their last owner deleted their account), recorded in the deletion's
 * batch: the evidence a store needs before it erases itself when its registry row is gone
 * (decision 0067). A registry row missing for any other reason (a table rebuilt, a restore)
 * must never erase a store. No foreign key: the organization is gone.
 */
export const deletedOrganizations = sqliteTable("deleted_organizations", {
  organizationId: text("organization_id").primaryKey(),
  deletedAt: text("deleted_at").notNull(),
});

/** A user belongs to at most one organization (the spec: "members of one organization"). */
export const memberships = sqliteTable(
  "memberships",
  {
    id: id(),
    organizationId: organizationId(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role", { enum: ROLES }).notNull(),
    /** "Disponible" / "Ausente": only available members get conversations by round robin. */
    available: integer("available", { mode: "boolean" }).notNull().default(true),
    /** Most open conversations round robin gives them; null: no limit. */
    maxOpen: integer("max_open"),
    /** When round robin last gave them one: ties go to who waited longest. */
    lastAssignedAt: text("last_assigned_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("memberships_user_idx").on(t.userId),
    index("memberships_organization_idx").on(t.organizationId, t.role),
  ],
);

/** Single-use invitation link; only the SHA-256 of its token is stored. */
export const invitations = sqliteTable(
  "invitations",
  {
    id: id(),
    organizationId: organizationId(),
    email: text("email").notNull(),
    role: text("role", { enum: ROLES }).notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: text("invited_by").references(() => users.id, { onDelete: "set null" }),
    expiresAt: text("expires_at").notNull(),
    acceptedAt: text("accepted_at"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("invitations_token_idx").on(t.tokenHash),
    index("invitations_organization_idx").on(t.organizationId),
  ],
);

/**
 * The organizations a person has been part of (by user id, from the membership) or invited to
 * (by e-mail), which may hold data naming them (decision 0053). A store cannot be searched from
 * outside, so an account's export and deletion visit exactly these. A row outlives the
 * membership or invitation it came from (the organization's trail still names the person) and
 * goes with the account.
 */
export const organizationPeople = sqliteTable(
  "organization_people",
  {
    organizationId: organizationId(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    email: text("email"),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("organization_people_user_idx").on(t.userId, t.organizationId),
    uniqueIndex("organization_people_email_idx").on(t.email, t.organizationId),
  ],
);

// ── Connections to Meta ─────────────────────────────────────────────────────

export const CONNECTION_STATUSES = ["connected", "connecting", "disconnected", "error"] as const;

/** A WhatsApp Business number connected to one organization. Secrets are AES-GCM ciphertext. */
export const whatsappConnections = sqliteTable(
  "whatsapp_connections",
  {
    id: id(),
    organizationId: organizationId(),
    phoneNumberId: text("phone_number_id").notNull(),
    businessAccountId: text("business_account_id").notNull(),
    phoneNumber: text("phone_number"),
    accessTokenEncrypted: text("access_token_encrypted").notNull(),
    pinEncrypted: text("pin_encrypted"),
    status: text("status", { enum: CONNECTION_STATUSES }).notNull().default("connected"),
    /**
     * An agent of the organization's data, which may be in its store: no foreign key (D1 cannot
     * see the store); deleting the agent clears it (agents/service.ts).
     */
    defaultAgentId: text("default_agent_id"),
    webhookToken: text("webhook_token"),
    /** Conversions API dataset of the WhatsApp Business Account (click-to-WhatsApp events). */
    datasetId: text("dataset_id"),
    connectedAt: text("connected_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
    /** Shared with the WhatsApp Business app (contract section 16): never `/register`ed. */
    coexistence: integer("coexistence", { mode: "boolean" }).notNull().default(false),
    /** Meta's `account_update` reason, in Spanish, while `status` is `disconnected`. */
    disconnectedReason: text("disconnected_reason"),
    /** `smb_app_data` requests, each allowed once by Meta: their ids, for Meta's support. */
    contactsRequestId: text("contacts_request_id"),
    historyRequestId: text("history_request_id"),
  },
  (t) => [
    uniqueIndex("whatsapp_connections_organization_idx").on(t.organizationId),
    uniqueIndex("whatsapp_connections_phone_number_idx").on(t.phoneNumberId),
    index("whatsapp_connections_account_idx").on(t.businessAccountId),
    index("whatsapp_connections_webhook_token_idx").on(t.webhookToken),
  ],
);

/** The Meta pixel (dataset) an organization sends web conversions to. */
export const metaConnections = sqliteTable(
  "meta_connections",
  {
    id: id(),
    organizationId: organizationId(),
    pixelId: text("pixel_id").notNull(),
    adAccountId: text("ad_account_id"),
    accessTokenEncrypted: text("access_token_encrypted").notNull(),
    status: text("status", { enum: CONNECTION_STATUSES }).notNull().default("connected"),
    testEventCode: text("test_event_code"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("meta_connections_organization_idx").on(t.organizationId)],
);

/**
 * A Facebook Login code is exchanged once; the WhatsApp and pixel connects of the same
 * login share the resulting token through this row (keyed by the code's hash).
 */
export const oauthExchanges = sqliteTable(
  "oauth_exchanges",
  {
    organizationId: organizationId(),
    codeHash: text("code_hash").notNull(),
    accessTokenEncrypted: text("access_token_encrypted"),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.codeHash] })],
);

// ── Audit of accounts ───────────────────────────────────────────────────────

/**
 * An account's own audit entries (a sign-up, a failed sign-in, an account's export or deletion):
 * an organization's entries are its data, in its store (durable-objects/schema.ts), in a table of the same
 * name and columns.
 */
export const accountAuditEvents = sqliteTable(
  "audit_events",
  {
    id: id(),
    organizationId: text("organization_id").references(() => organizations.id, {
      onDelete: "cascade",
    }),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    target: text("target"),
    metadata: text("metadata", { mode: "json" }).$type<Record<string, unknown>>(),
    ip: text("ip"),
    createdAt: createdAt(),
  },
  (t) => [
    index("audit_events_organization_idx").on(t.organizationId, t.createdAt),
    index("audit_events_user_idx").on(t.userId, t.createdAt),
  ],
);
