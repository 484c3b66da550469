/**
 * An organization's own data, in its store's SQLite (contract section 15, decision 0075): the
 * store migrates itself with durable-objects/migrations/store-migrations.ts, which must create what this
 * declares (tests/api/store-schema.test.ts checks every column). Nothing here is in D1, and
 * nothing of D1 is here: a user is named by id, without a foreign key the store cannot hold.
 * Every row carries `organization_id`, the store's own organization.
 */
import { sql } from "drizzle-orm";
import {
  index,
  integer,
  primaryKey,
  real,
  sqliteTable,
  text,
  uniqueIndex,
} from "drizzle-orm/sqlite-core";
import {
  AGENT_MODELS,
  AGENT_MODES,
  DEFAULT_MODEL,
  DEFAULT_TEMPERATURE,
  WHATSAPP_STATUSES,
} from "../contracts/agents";
import { CONVERSION_EVENTS } from "../contracts/tracking";
import { CONVERSATION_STAGES, DETECTED_EVENTS, SUGGESTION_STATUSES } from "../contracts/sales";
import { HISTORY_IMPORT_STATES, type TemplateComponent } from "../contracts/whatsapp";
import type { LabelRef } from "../contracts/team-inbox";
import {
  type AiDraft,
  type AiSource,
  type Reaction,
  CONVERSATION_STATUSES,
  TRANSCRIPT_STATUSES,
  MESSAGE_DIRECTIONS,
  MESSAGE_STATUSES,
  PRIORITIES,
  SENDER_TYPES,
  THREAD_CONTROLLERS,
  MARKETING_OPT_OUT_SOURCES,
} from "../contracts/conversations";
import {
  BROADCAST_CATEGORIES,
  BROADCAST_STATUSES,
  RECIPIENT_STATES,
  WAIT_REASONS,
  PAUSE_REASONS,
  type AudienceCriteria,
} from "../contracts/broadcasts";
import { FOLLOW_UP_SEND_STATES } from "../contracts/follow-ups";
import { REMINDER_ACTIONS, REMINDER_STATES } from "../contracts/reminders";
import {
  AWAY_MESSAGE_STATES,
  BOOKING_STATUSES,
  DEFAULT_MIN_NOTICE_MINUTES,
  SERVICE_PAYMENTS,
  type Week,
} from "../contracts/bookings";
import type { ConversationStage } from "../contracts/sales";
import {
  DEFAULT_MAX_PAYMENT_AMOUNT,
  PAYMENT_PROVIDERS,
  PAYMENT_STATUSES,
} from "../contracts/payments";

import { createdAt, id, updatedAt } from "../worker/db/columns";

/** The store's own organization (store_owner); kept on every row, as every query filters on it. */
const organizationId = () => text("organization_id").notNull();

// ── AI agents ───────────────────────────────────────────────────────────────

export const agents = sqliteTable(
  "agents",
  {
    id: id(),
    organizationId: organizationId(),
    name: text("name").notNull(),
    model: text("model", { enum: AGENT_MODELS }).notNull().default(DEFAULT_MODEL),
    temperature: real("temperature").notNull().default(DEFAULT_TEMPERATURE),
    systemPrompt: text("system_prompt").notNull(),
    isActive: integer("is_active", { mode: "boolean" }).notNull().default(true),
    whatsappStatus: text("whatsapp_status", { enum: WHATSAPP_STATUSES })
      .notNull()
      .default("disconnected"),
    whatsappQr: text("whatsapp_qr"),
    /** Whether the model is offered the `mark_lead` tool. */
    canMarkLeads: integer("can_mark_leads", { mode: "boolean" }).notNull().default(true),
    /** Whether the model is offered the booking tools (decision 0109). */
    canBook: integer("can_book", { mode: "boolean" }).notNull().default(false),
    /** Whether the model may charge (the payment link tool, a later entry of the registry). */
    canCharge: integer("can_charge", { mode: "boolean" }).notNull().default(false),
    /** auto answers, draft prepares an answer a person sends, off stays silent. */
    mode: text("mode", { enum: AGENT_MODES }).notNull().default("auto"),
    /** The knowledge entries the agent may use; null means all of the organization's. */
    knowledgeIds: text("knowledge_ids", { mode: "json" }).$type<string[]>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("agents_organization_idx").on(t.organizationId, t.createdAt)],
);

// ── Conversations and messages ─────────────────────────────────────────────

export const conversations = sqliteTable(
  "conversations",
  {
    id: id(),
    organizationId: organizationId(),
    platform: text("platform").notNull().default("whatsapp"),
    /**
     * The customer's WhatsApp id (wa_id): digits with country code. Null while a customer
     * with a username withholds it (docs/decisions/0037).
     */
    phoneNumber: text("phone_number"),
    /** Business-scoped user id (BSUID, `contacts[].user_id`): how Meta names every customer since 2026. */
    waUserId: text("wa_user_id"),
    /** The customer's WhatsApp username (`contacts[].profile.username`), when they set one. */
    username: text("username"),
    contactName: text("contact_name"),
    status: text("status", { enum: CONVERSATION_STATUSES }).notNull().default("open"),
    priority: text("priority", { enum: PRIORITIES }).notNull().default("medium"),
    stage: text("stage", { enum: CONVERSATION_STAGES }).notNull().default("new"),
    unreadCount: integer("unread_count").notNull().default(0),
    agentId: text("agent_id").references(() => agents.id, { onDelete: "set null" }),
    /** The team member holding the conversation; while set, the AI stays silent there. */
    assigneeId: text("assignee_id"),
    /** Its labels as shown, [{id, name, color}], kept with `conversation_labels` (JSON). */
    labels: text("labels", { mode: "json" }).$type<LabelRef[]>(),
    lastMessageAt: text("last_message_at").notNull(),
    lastMessagePreview: text("last_message_preview"),
    /** Time of the customer's last inbound message: opens the 24-hour service window. */
    lastInboundAt: text("last_inbound_at"),
    fbclid: text("fbclid"),
    ctwaClid: text("ctwa_clid"),
    adId: text("ad_id"),
    adHeadline: text("ad_headline"),
    trackingSessionId: text("tracking_session_id").references(() => trackingSessions.id, {
      onDelete: "set null",
    }),
    /** Last failure of the AI reply pipeline, shown in the console; null when healthy. */
    aiError: text("ai_error"),
    /** The agent's answer waiting for a person (draft mode or "Sugerir respuesta"). */
    aiDraft: text("ai_draft", { mode: "json" }).$type<AiDraft>(),
    createdAt: createdAt(),
    /** Every write of the row moves it, even one that does not name it (the console's staleness). */
    updatedAt: updatedAt().$onUpdateFn(() => new Date().toISOString()),
    /**
     * Someone answered from the WhatsApp Business app (an echo): the AI stays silent here until
     * then, or until a member resumes it (contract section 16).
     */
    aiPausedUntil: text("ai_paused_until"),
    /** Who answers on the number for this customer: this app, or Meta's own AI (`standby`). */
    controlledBy: text("controlled_by", { enum: THREAD_CONTROLLERS }).notNull().default("app"),
    /**
     * The customer's marketing consent (contract section 17), kept with `marketing_consents`
     * (its triggers give a new conversation what is known of its customer): opted out since
     * when and how (both null while they accept marketing), and Meta's time of the latest
     * change either way, so that an older one delivered late changes nothing.
     */
    marketingOptedOutAt: text("marketing_opted_out_at"),
    marketingOptOutSource: text("marketing_opt_out_source", { enum: MARKETING_OPT_OUT_SOURCES }),
    marketingConsentAt: text("marketing_consent_at"),
    /** Meta refused them a marketing template with 131049: none is sent before this time. */
    marketingLimitedUntil: text("marketing_limited_until"),
    /**
     * When the business last wrote (a person or the AI) with no answer since: its follow-ups
     * count their wait from here. Null when none may be sent: the customer wrote, bought or
     * opted out, or a broadcast reached them since.
     */
    followUpSince: text("follow_up_since"),
  },
  (t) => [
    // A customer is one conversation per organization, found by BSUID first, then by phone.
    uniqueIndex("conversations_customer_idx").on(t.organizationId, t.phoneNumber),
    uniqueIndex("conversations_user_idx").on(t.organizationId, t.waUserId),
    index("conversations_recent_idx").on(t.organizationId, t.lastMessageAt),
    index("conversations_status_idx").on(t.organizationId, t.status, t.lastMessageAt),
    index("conversations_priority_idx").on(t.organizationId, t.priority, t.lastMessageAt),
    index("conversations_agent_idx").on(t.organizationId, t.agentId, t.lastMessageAt),
    index("conversations_assignee_idx").on(t.organizationId, t.assigneeId, t.lastMessageAt),
    index("conversations_stage_idx").on(t.organizationId, t.stage, t.lastMessageAt),
    index("conversations_ad_idx").on(t.organizationId, t.adId),
    // The follow-ups job's look for waits that are due.
    index("conversations_follow_up_idx")
      .on(t.organizationId, t.followUpSince)
      .where(sql`follow_up_since IS NOT NULL`),
    index("conversations_last_message_idx").on(t.lastMessageAt),
    // Foreign keys retention's deletes follow (ON DELETE SET NULL).
    index("conversations_session_idx").on(t.trackingSessionId),
  ],
);

/**
 * The inbox stats of each organization, kept by triggers on `conversations` (migration
 * 0004): one row per tally (`status:open`, `priority:high`, `unassigned`, `unread`), so the
 * stats read a handful of rows however large the inbox.
 */
export const conversationCounts = sqliteTable(
  "conversation_counts",
  {
    organizationId: organizationId(),
    tally: text("tally").notNull(),
    n: integer("n").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.tally] })],
);

/**
 * Each conversation's model calls in its current hour (`takeConversationAiCall`, decision
 * 0137): a fixed window that starts again at its first call after `reset_at`. Bookkeeping, not
 * exported; gone with its conversation.
 */
export const conversationAiCalls = sqliteTable("conversation_ai_calls", {
  conversationId: text("conversation_id")
    .primaryKey()
    .notNull()
    .references(() => conversations.id, { onDelete: "cascade" }),
  organizationId: organizationId(),
  count: integer("count").notNull(),
  /** When the window ends (ms since the epoch). */
  resetAt: integer("reset_at").notNull(),
});

export const messages = sqliteTable(
  "messages",
  {
    id: id(),
    organizationId: organizationId(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /** WhatsApp message id; unique so a redelivered webhook never stores a message twice. */
    wamid: text("wamid"),
    type: text("type").notNull().default("text"),
    content: text("content").notNull(),
    direction: text("direction", { enum: MESSAGE_DIRECTIONS }).notNull(),
    senderType: text("sender_type", { enum: SENDER_TYPES }).notNull(),
    /** Team member who wrote an outbound message, when a person did. */
    senderUserId: text("sender_user_id"),
    status: text("status", { enum: MESSAGE_STATUSES }).notNull(),
    error: text("error"),
    errorCode: text("error_code"),
    mediaId: text("media_id"),
    mediaMimeType: text("media_mime_type"),
    /** Click-to-WhatsApp referral as Meta sent it (JSON). */
    referral: text("referral", { mode: "json" }).$type<Record<string, unknown>>(),
    /** Customer reactions: [{emoji, from, at}] (JSON). */
    reactions: text("reactions", { mode: "json" }).$type<Reaction[]>(),
    /** Meta's own timestamp of the message (ISO), for the service window. */
    sentAt: text("sent_at"),
    /** What a voice note or audio says, once the model transcribed it. */
    transcript: text("transcript"),
    transcriptStatus: text("transcript_status", { enum: TRANSCRIPT_STATUSES }),
    transcriptError: text("transcript_error"),
    /**
     * When a path (the hub, a reply, a draft) took the note to transcribe it (epoch ms): one
     * model call per note, and a claim older than its lease is taken over (durable-objects/ai/transcribe.ts).
     */
    transcriptClaimedAt: integer("transcript_claimed_at"),
    /** The knowledge entries an AI answer used: [{id, title}]. */
    aiSources: text("ai_sources", { mode: "json" }).$type<AiSource[]>(),
    /** A person sent it from the AI's suggestion (draft). */
    suggestedByAi: integer("suggested_by_ai", { mode: "boolean" }).notNull().default(false),
    /** The members an internal note mentions (user ids); notes only. */
    mentions: text("mentions", { mode: "json" }).$type<string[]>(),
    /** Meta's `pricing` of an outbound message, from its first status that carried one. */
    billable: integer("billable", { mode: "boolean" }),
    pricingCategory: text("pricing_category"),
    pricingType: text("pricing_type"),
    createdAt: createdAt(),
    /** The customer edited it (`type: "edit"`): its content is the latest version. */
    editedAt: text("edited_at"),
    /** The customer deleted it (`type: "revoke"`): its content and media are gone. */
    deletedAt: text("deleted_at"),
    /** Came with the WhatsApp Business app's history: never answered, counted or notified. */
    imported: integer("imported", { mode: "boolean" }).notNull().default(false),
  },
  (t) => [
    uniqueIndex("messages_wamid_idx").on(t.organizationId, t.wamid),
    index("messages_conversation_idx").on(t.conversationId, t.createdAt, t.id),
    // The cron's sweep of voice notes whose hub was never reached (durable-objects/ai/transcribe.ts).
    index("messages_pending_transcript_idx")
      .on(t.createdAt)
      .where(sql`transcript_status = 'pending'`),
    // A broadcast's audience asks which customers Meta reported undeliverable (131026).
    index("messages_undeliverable_idx")
      .on(t.conversationId, t.createdAt)
      .where(sql`error_code = '131026'`),
  ],
);

/** An organization's saved answers, inserted in the composer by typing "/". */
export const quickReplies = sqliteTable(
  "quick_replies",
  {
    id: id(),
    organizationId: organizationId(),
    shortcut: text("shortcut").notNull(),
    content: text("content").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("quick_replies_shortcut_idx").on(t.organizationId, t.shortcut)],
);

/** Every call to the AI model: what the agents cost and do. */
export const aiCalls = sqliteTable(
  "ai_calls",
  {
    id: id(),
    organizationId: organizationId(),
    agentId: text("agent_id").references(() => agents.id, { onDelete: "set null" }),
    conversationId: text("conversation_id").references(() => conversations.id, {
      onDelete: "cascade",
    }),
    model: text("model").notNull(),
    promptTokens: integer("prompt_tokens"),
    completionTokens: integer("completion_tokens"),
    latencyMs: integer("latency_ms").notNull(),
    /** replied · handoff · failed · test · draft · transcribed */
    outcome: text("outcome").notNull(),
    error: text("error"),
    createdAt: createdAt(),
  },
  (t) => [
    index("ai_calls_agent_idx").on(t.organizationId, t.agentId),
    index("ai_calls_conversation_idx").on(t.conversationId),
  ],
);

/** Model tokens spent by an organization in a calendar month (UTC, "YYYY-MM"). */
export const aiUsage = sqliteTable(
  "ai_usage",
  {
    organizationId: organizationId(),
    month: text("month").notNull(),
    tokensUsed: integer("tokens_used").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.month] })],
);

/**
 * What the business knows: FAQ, prices, policies, hours. The most relevant entries go into
 * the agent's prompt (full-text index `knowledge_fts`, migration 0006).
 */
export const knowledgeEntries = sqliteTable(
  "knowledge_entries",
  {
    id: id(),
    organizationId: organizationId(),
    title: text("title").notNull(),
    content: text("content").notNull(),
    /** The imported file's name, when the entry came from one. */
    fileName: text("file_name"),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("knowledge_entries_organization_idx").on(t.organizationId, t.updatedAt)],
);

/**
 * The message templates of an organization's WhatsApp Business Account, as Meta last told:
 * read from `message_templates`, kept fresh by the `message_template_status_update` webhook.
 */
export const whatsappTemplates = sqliteTable(
  "whatsapp_templates",
  {
    id: id(),
    organizationId: organizationId(),
    /** Meta's template id (the status webhook names it). */
    metaTemplateId: text("meta_template_id"),
    name: text("name").notNull(),
    language: text("language").notNull(),
    category: text("category").notNull(),
    status: text("status").notNull(),
    components: text("components", { mode: "json" }).notNull().$type<TemplateComponent[]>(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex("whatsapp_templates_name_idx").on(t.organizationId, t.name, t.language),
    index("whatsapp_templates_meta_idx").on(t.metaTemplateId),
  ],
);

// ── Tracking and conversions ────────────────────────────────────────────────

export const trackingSessions = sqliteTable(
  "tracking_sessions",
  {
    id: id(),
    organizationId: organizationId(),
    trackingParams: text("tracking_params", { mode: "json" })
      .$type<Record<string, string>>()
      .notNull(),
    // Copied out of tracking_params for indexed analytics.
    fbclid: text("fbclid"),
    utmSource: text("utm_source"),
    utmCampaign: text("utm_campaign"),
    /** Short reference carried in the decorated WhatsApp link, matched by the webhook. */
    ref: text("ref"),
    userAgent: text("user_agent"),
    referrer: text("referrer"),
    landingPage: text("landing_page"),
    clientIp: text("client_ip"),
    phoneNumber: text("phone_number"),
    createdAt: createdAt(),
    lastActivityAt: text("last_activity_at")
      .notNull()
      .$defaultFn(() => new Date().toISOString()),
  },
  (t) => [
    index("tracking_sessions_organization_idx").on(t.organizationId, t.createdAt),
    uniqueIndex("tracking_sessions_ref_idx").on(t.organizationId, t.ref),
    index("tracking_sessions_phone_idx").on(t.organizationId, t.phoneNumber),
    index("tracking_sessions_activity_idx").on(t.lastActivityAt),
  ],
);

export const CAPI_STATUSES = ["not_sent", "pending", "sent", "failed", "expired"] as const;

export const conversions = sqliteTable(
  "conversions",
  {
    id: id(),
    organizationId: organizationId(),
    trackingSessionId: text("tracking_session_id").references(() => trackingSessions.id, {
      onDelete: "set null",
    }),
    conversationId: text("conversation_id").references(() => conversations.id, {
      onDelete: "set null",
    }),
    eventName: text("event_name", { enum: CONVERSION_EVENTS }).notNull(),
    /** Sent to Meta as event_id so browser and server events deduplicate. */
    eventId: text("event_id")
      .notNull()
      .$defaultFn(() => crypto.randomUUID()),
    phoneNumber: text("phone_number"),
    trackingParams: text("tracking_params", { mode: "json" }).$type<Record<string, string>>(),
    source: text("source"),
    campaign: text("campaign"),
    conversionValue: real("conversion_value"),
    currency: text("currency"),
    customData: text("custom_data", { mode: "json" }).$type<Record<string, unknown>>(),
    /** Click-to-WhatsApp click id this conversion is attributed to, when any. */
    ctwaClid: text("ctwa_clid"),
    /** The visitor's address and browser when the conversion was recorded (Conversions API user_data). */
    clientIp: text("client_ip"),
    clientUserAgent: text("client_user_agent"),
    /** The page the conversion happened on (Conversions API event_source_url). */
    sourceUrl: text("source_url"),
    eventTime: text("event_time").notNull(),
    capiStatus: text("capi_status", { enum: CAPI_STATUSES }).notNull().default("not_sent"),
    capiResult: text("capi_result", { mode: "json" }).$type<Record<string, unknown>>(),
    capiAttempts: integer("capi_attempts").notNull().default(0),
    capiNextAttemptAt: text("capi_next_attempt_at"),
    /**
     * What makes a conversion recorded from a conversation happen once: `lead:<conversation>`,
     * `sale:<conversation>:<Idempotency-Key>`, `suggestion:<id>`. Null for the others.
     */
    dedupeKey: text("dedupe_key"),
    createdAt: createdAt(),
  },
  (t) => [
    index("conversions_organization_time_idx").on(t.organizationId, t.eventTime),
    index("conversions_organization_event_idx").on(t.organizationId, t.eventName, t.eventTime),
    index("conversions_capi_queue_idx").on(t.capiStatus, t.capiNextAttemptAt),
    index("conversions_conversation_idx").on(t.conversationId),
    index("conversions_session_idx").on(t.trackingSessionId),
    // One conversion per click-to-WhatsApp click and event (Meta does not deduplicate them),
    // except purchases: a customer may buy several times, each sale once (dedupe_key).
    uniqueIndex("conversions_ctwa_event_idx")
      .on(t.organizationId, t.ctwaClid, t.eventName)
      .where(sql`ctwa_clid IS NOT NULL AND event_name <> 'purchase'`),
    uniqueIndex("conversions_dedupe_idx")
      .on(t.organizationId, t.dedupeKey)
      .where(sql`dedupe_key IS NOT NULL`),
  ],
);

/**
 * A lead or purchase Meta detected in a click-to-WhatsApp thread (`automatic_events`
 * webhook), waiting for a person to confirm it; stored once per Meta message id.
 */
export const conversionSuggestions = sqliteTable(
  "conversion_suggestions",
  {
    id: id(),
    organizationId: organizationId(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    /** The WhatsApp message id Meta attached the event to. */
    wamid: text("wamid").notNull(),
    eventName: text("event_name", { enum: DETECTED_EVENTS }).notNull(),
    value: real("value"),
    currency: text("currency"),
    status: text("status", { enum: SUGGESTION_STATUSES }).notNull().default("pending"),
    conversionId: text("conversion_id").references(() => conversions.id, {
      onDelete: "set null",
    }),
    detectedAt: text("detected_at").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex("conversion_suggestions_wamid_idx").on(t.organizationId, t.wamid, t.eventName),
    index("conversion_suggestions_conversation_idx").on(t.conversationId, t.status),
  ],
);

/**
 * What each ad cost per day, read from Meta's Marketing API (`/{ad_account_id}/insights`,
 * level=ad, one day per row) so the Anuncios tab does not call Meta on every view.
 */
export const adSpend = sqliteTable(
  "ad_spend",
  {
    organizationId: organizationId(),
    adId: text("ad_id").notNull(),
    day: text("day").notNull(), // YYYY-MM-DD, the ad account's day
    adName: text("ad_name"),
    spend: real("spend").notNull(),
    currency: text("currency"),
    fetchedAt: text("fetched_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.adId, t.day] })],
);

// ── Team inbox ─────────────────────────────────────────────────────────────

/** Labels the managers define to sort the work (unique name per organization). */
export const labels = sqliteTable(
  "labels",
  {
    id: id(),
    organizationId: organizationId(),
    name: text("name").notNull(),
    color: text("color").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("labels_name_idx").on(t.organizationId, t.name)],
);

/** Which conversation wears which label: what the list filters on. */
export const conversationLabels = sqliteTable(
  "conversation_labels",
  {
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    labelId: text("label_id")
      .notNull()
      .references(() => labels.id, { onDelete: "cascade" }),
    organizationId: organizationId(),
  },
  (t) => [
    primaryKey({ columns: [t.conversationId, t.labelId] }),
    // The organization first: a label's list and its count read this index alone.
    index("conversation_labels_label_idx").on(t.organizationId, t.labelId, t.conversationId),
  ],
);

/** A member named in an internal note, listed under "Menciones" until they read it. */
export const mentions = sqliteTable(
  "mentions",
  {
    id: id(),
    organizationId: organizationId(),
    userId: text("user_id").notNull(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    noteId: text("note_id")
      .notNull()
      .references(() => messages.id, { onDelete: "cascade" }),
    authorId: text("author_id"),
    readAt: text("read_at"),
    createdAt: createdAt(),
  },
  (t) => [
    index("mentions_user_idx").on(t.userId, t.readAt, t.createdAt),
    index("mentions_conversation_idx").on(t.conversationId),
    index("mentions_note_idx").on(t.noteId),
  ],
);

/**
 * What the WhatsApp Business Account's messages cost each day, by pricing category and
 * country (Meta's `pricing_analytics`), kept like ad spend.
 */
export const messageCosts = sqliteTable(
  "message_costs",
  {
    organizationId: organizationId(),
    day: text("day").notNull(), // YYYY-MM-DD (UTC, Meta's data point start)
    category: text("category").notNull(),
    country: text("country").notNull(),
    volume: integer("volume").notNull(),
    cost: real("cost").notNull(),
    fetchedAt: text("fetched_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day, t.category, t.country] })],
);

/** When each day's message costs were last read from Meta (a day without costs has no row). */
export const messageCostSyncs = sqliteTable(
  "message_cost_syncs",
  {
    organizationId: organizationId(),
    day: text("day").notNull(),
    fetchedAt: text("fetched_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day] })],
);

/** When each day's spend was last read from Meta (a day without spend has no `ad_spend` row). */
export const adSpendSyncs = sqliteTable(
  "ad_spend_syncs",
  {
    organizationId: organizationId(),
    day: text("day").notNull(),
    fetchedAt: text("fetched_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.day] })],
);

// ── Audit ──────────────────────────────────────────────────────────────────

/** Security-relevant events: sign-ins and failures, role changes, connections, exports, deletions. */
export const auditEvents = sqliteTable(
  "audit_events",
  {
    id: id(),
    organizationId: text("organization_id"),
    userId: text("user_id"),
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

// ── The WhatsApp Business app's data (contract section 16) ───────────────────

/**
 * The owner's address book on the phone (`smb_app_state_sync`): the business's own name for a
 * customer, which wins over the WhatsApp profile name. A contact alone is no conversation.
 */
export const phoneContacts = sqliteTable(
  "phone_contacts",
  {
    id: id(),
    organizationId: organizationId(),
    phoneNumber: text("phone_number").notNull(),
    fullName: text("full_name"),
    firstName: text("first_name"),
    /** Meta's time of the change: an older change delivered late does not win. */
    changedAt: text("changed_at").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("phone_contacts_phone_idx").on(t.organizationId, t.phoneNumber)],
);

/** Where the history import stands, one row per organization (its state for the console). */
export const historyImports = sqliteTable(
  "history_imports",
  {
    id: id(),
    organizationId: organizationId(),
    state: text("state", { enum: HISTORY_IMPORT_STATES }).notNull(),
    progress: integer("progress").notNull().default(0),
    messages: integer("messages").notNull().default(0),
    error: text("error"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("history_imports_organization_idx").on(t.organizationId)],
);

/**
 * History as Meta delivered it, held until the store imports it in the background: one row
 * per customer thread of a chunk, in pages small enough for a row (a chunk may carry thousands
 * of messages). Deleted once imported.
 */
export const historyPages = sqliteTable(
  "history_pages",
  {
    id: id(),
    organizationId: organizationId(),
    phase: integer("phase").notNull(),
    chunkOrder: integer("chunk_order").notNull(),
    progress: integer("progress").notNull(),
    /** The customer's phone (`threads[].id`). */
    threadId: text("thread_id").notNull(),
    /** Meta's `messages[]` of that thread, as delivered (JSON). */
    messages: text("messages", { mode: "json" }).$type<unknown[]>().notNull(),
    receivedAt: text("received_at").notNull(),
    /** How many messages the page holds: a run is sized by it without reading `messages`. */
    messageCount: integer("message_count").notNull(),
  },
  (t) => [
    // A run's pages in order with their sizes, from the index alone.
    index("history_pages_order_idx").on(
      t.organizationId,
      t.phase,
      t.chunkOrder,
      t.id,
      t.messageCount,
    ),
    index("history_pages_received_idx").on(t.organizationId, t.receivedAt),
  ],
);

// ── Marketing consent (contract section 17) ───────────────────────────────────

/**
 * Each customer's latest marketing consent, by identifier (a phone or a BSUID, one row each):
 * what holds for a customer the organization has no conversation with yet (Meta's
 * `user_preferences` may come first) or no longer has (retention), copied onto a conversation
 * created for them, or that gains the identifier, by triggers (migration 0019).
 */
export const marketingConsents = sqliteTable(
  "marketing_consents",
  {
    id: id(),
    organizationId: organizationId(),
    /** The customer's phone (wa_id) or BSUID. */
    customer: text("customer").notNull(),
    /** Opted out since (null: they accept marketing), and how. */
    optedOutAt: text("opted_out_at"),
    source: text("source", { enum: MARKETING_OPT_OUT_SOURCES }),
    /** Meta's time of the latest change: an older one delivered late does not win. */
    changedAt: text("changed_at").notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("marketing_consents_customer_idx").on(t.organizationId, t.customer)],
);

// ── Broadcasts ("Difusiones", contract section 17) ─────────────────────────────

/**
 * A template sent to a segment of the organization's customers. The audience is kept as its
 * criteria (evaluated when previewed or sent, never as conversation ids); the template's
 * category is the one it had when chosen (it picks the send endpoint and the rates).
 */
export const broadcasts = sqliteTable(
  "broadcasts",
  {
    id: id(),
    organizationId: organizationId(),
    name: text("name").notNull(),
    status: text("status", { enum: BROADCAST_STATUSES }).notNull().default("draft"),
    templateName: text("template_name").notNull(),
    templateLanguage: text("template_language").notNull(),
    templateCategory: text("template_category", { enum: BROADCAST_CATEGORIES }).notNull(),
    templateParameters: text("template_parameters", { mode: "json" }).notNull().$type<string[]>(),
    audience: text("audience", { mode: "json" }).notNull().$type<AudienceCriteria>(),
    /** When it is to be sent (scheduled), or null: sent when a manager says so. */
    sendAt: text("send_at"),
    /** The member who created it (no foreign key: a store holds no users). */
    createdBy: text("created_by"),
    startedAt: text("started_at"),
    completedAt: text("completed_at"),
    /** Meta refused the Marketing Messages API (not onboarded): sent through `/messages`. */
    fellBackAt: text("fell_back_at"),
    /** Its recipients were chosen (the audience read once, when it started sending). */
    audienceReadAt: text("audience_read_at"),
    /** A `sending` broadcast waiting for quiet hours or the daily limit to end, and until when. */
    waitReason: text("wait_reason", { enum: WAIT_REASONS }),
    /** Why the product paused it (its template, the connection); null when a manager did. */
    pauseReason: text("pause_reason", { enum: PAUSE_REASONS }),
    waitUntil: text("wait_until"),
    /** Its results changed since consoles were last told (`broadcast_update`, debounced). */
    statsChangedAt: text("stats_changed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The list, newest first (ids are UUIDv7: their order is their creation's).
    index("broadcasts_recent_idx").on(t.organizationId, t.id),
    // The scheduler's look for what is due.
    index("broadcasts_due_idx").on(t.status, t.sendAt),
  ],
);

/**
 * Who a broadcast was sent to, one row per conversation (each recipient is sent once per
 * broadcast whatever retries happen): its state as Meta's statuses tell it, and Meta's error.
 */
export const broadcastRecipients = sqliteTable(
  "broadcast_recipients",
  {
    broadcastId: text("broadcast_id")
      .notNull()
      .references(() => broadcasts.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    organizationId: organizationId(),
    state: text("state", { enum: RECIPIENT_STATES }).notNull().default("pending"),
    /** The sent message's id at Meta: its statuses (with `broadcast:<id>`) find the recipient. */
    wamid: text("wamid"),
    errorCode: text("error_code"),
    error: text("error"),
    sentAt: text("sent_at"),
    deliveredAt: text("delivered_at"),
    readAt: text("read_at"),
    repliedAt: text("replied_at"),
    /** What Meta billed for it (statuses' `pricing`), in the account's currency. */
    cost: real("cost"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    primaryKey({ columns: [t.broadcastId, t.conversationId] }),
    index("broadcast_recipients_state_idx").on(t.broadcastId, t.state),
    index("broadcast_recipients_wamid_idx").on(t.organizationId, t.wamid),
    // The daily messaging limit counts who was sent a broadcast in the last 24 hours.
    index("broadcast_recipients_sent_idx").on(t.organizationId, t.sentAt),
    // Foreign key a conversation's deletion (retention) follows.
    index("broadcast_recipients_conversation_idx").on(t.conversationId),
  ],
);

// ── Follow-ups (contract section 17) ─────────────────────────────────────────────

/**
 * A rule that writes again when the business spoke last and the customer has not answered for
 * `no_reply_minutes`: its text inside the 24-hour window, its template otherwise.
 */
export const followUps = sqliteTable(
  "follow_ups",
  {
    id: id(),
    organizationId: organizationId(),
    name: text("name").notNull(),
    enabled: integer("enabled", { mode: "boolean" }).notNull().default(true),
    noReplyMinutes: integer("no_reply_minutes").notNull(),
    /** Only conversations with any of these labels, or in any of these stages (empty: all). */
    labelIds: text("label_ids", { mode: "json" }).notNull().$type<string[]>(),
    stages: text("stages", { mode: "json" }).notNull().$type<ConversationStage[]>(),
    templateName: text("template_name"),
    templateLanguage: text("template_language"),
    templateCategory: text("template_category", { enum: BROADCAST_CATEGORIES }),
    templateParameters: text("template_parameters", { mode: "json" }).$type<string[]>(),
    text: text("text"),
    maxPerConversation: integer("max_per_conversation").notNull().default(1),
    /**
     * When it was enabled or its wait last changed: a wait due before then is not its, so a new
     * rule never writes to every silence of the past at once.
     */
    activeSince: text("active_since").notNull(),
    /** The member who created it (no foreign key: a store holds no users). */
    createdBy: text("created_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("follow_ups_organization_idx").on(t.organizationId, t.id)],
);

/**
 * What a follow-up sent to a conversation, one row per wait it answered (the key makes a wait
 * answered once whatever restarts happen): claimed `sending` before Meta is asked.
 */
export const followUpSends = sqliteTable(
  "follow_up_sends",
  {
    followUpId: text("follow_up_id")
      .notNull()
      .references(() => followUps.id, { onDelete: "cascade" }),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    organizationId: organizationId(),
    /** The conversation's `follow_up_since` it answered. */
    waitedSince: text("waited_since").notNull(),
    state: text("state", { enum: FOLLOW_UP_SEND_STATES }).notNull(),
    /** The message sent (null when skipped); no foreign key: retention deletes messages alone. */
    messageId: text("message_id"),
    /** Meta's code, or why it was skipped. */
    errorCode: text("error_code"),
    /** Inside a click-to-WhatsApp conversation's 72-hour free entry point window. */
    free: integer("free", { mode: "boolean" }).notNull().default(false),
    sentAt: text("sent_at"),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.followUpId, t.conversationId, t.waitedSince] }),
    // A send a dead run left being sent (the job's first look).
    index("follow_up_sends_sending_idx")
      .on(t.organizationId)
      .where(sql`state = 'sending'`),
    // Foreign key a conversation's deletion (retention) follows.
    index("follow_up_sends_conversation_idx").on(t.conversationId),
  ],
);

/**
 * A message status Meta sent before the send's answer gave the message its wamid (the send is
 * awaiting Meta while the status's webhook arrives): kept until the wamid is recorded, then
 * applied as if it had just arrived (whatsapp/statuses.ts). Retention removes those never
 * claimed after a day (a status for a message the product did not send).
 */
export const heldStatuses = sqliteTable(
  "held_statuses",
  {
    organizationId: organizationId(),
    wamid: text("wamid").notNull(),
    status: text("status").notNull(),
    /** The status as Meta sent it (its JSON). */
    payload: text("payload", { mode: "json" }).notNull(),
    receivedAt: text("received_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.wamid, t.status] }),
    // Retention's sweep of those never claimed.
    index("held_statuses_received_idx").on(t.receivedAt),
  ],
);

// ── What the owner allows marketing (contract section 17, decision 0080) ──────────────

/**
 * A monthly budget of marketing sends and of their estimated cost, and how many marketing
 * messages one customer may get in a number of days: one row, read by the store's sending and
 * written by the organization's PATCH (durable-objects/broadcasts/marketing-limits.ts).
 */
/** Two marketing messages in seven days when the owner has set nothing. */
export const DEFAULT_MARKETING_FREQUENCY = { max: 2, days: 7 } as const;

export const marketingLimits = sqliteTable("marketing_limits", {
  /** The store's organization: the table holds one row. */
  organizationId: text("organization_id").primaryKey().notNull(),
  /** Sends a calendar month (UTC); null: no cap. */
  monthlySends: integer("monthly_sends"),
  /** Estimated cost a calendar month (UTC), in `currency`; null: no cap. */
  monthlyCost: real("monthly_cost"),
  currency: text("currency"),
  frequencyMax: integer("frequency_max").notNull().default(DEFAULT_MARKETING_FREQUENCY.max),
  frequencyDays: integer("frequency_days").notNull().default(DEFAULT_MARKETING_FREQUENCY.days),
  updatedAt: text("updated_at").notNull(),
});

// ── Bookings (contract section 18, decisions 0076-0079) ───────────────────────────────

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
  /** The UTILITY template of the bookings' reminders (decision 0120); null: no reminders. */
  reminderTemplateName: text("reminder_template_name"),
  reminderTemplateLanguage: text("reminder_template_language"),
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

// ── Payment links (contract section 18, decisions 0091-0093) ─────────────────────────

/**
 * The organization's payment settings, one row: the provider it connected (its secret key and
 * webhooks' secret sealed as WhatsApp's tokens are; none: not connected) and the largest link.
 */
export const paymentSettings = sqliteTable("payment_settings", {
  organizationId: text("organization_id").primaryKey().notNull(),
  provider: text("provider", { enum: PAYMENT_PROVIDERS }),
  secretEncrypted: text("secret_encrypted"),
  webhookSecretEncrypted: text("webhook_secret_encrypted"),
  accountId: text("account_id"),
  connectedBy: text("connected_by"),
  connectedAt: text("connected_at"),
  maxPaymentAmount: real("max_payment_amount").notNull().default(DEFAULT_MAX_PAYMENT_AMOUNT),
  updatedAt: updatedAt(),
});

export const payments = sqliteTable(
  "payments",
  {
    id: id(),
    organizationId: organizationId(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    bookingId: text("booking_id").references(() => bookings.id, { onDelete: "set null" }),
    provider: text("provider", { enum: PAYMENT_PROVIDERS }).notNull(),
    /** The Checkout Session or preference id. */
    providerRef: text("provider_ref").notNull(),
    /** What was paid at the provider (a PaymentIntent, a Mercado Pago payment): refunds name it. */
    providerPaymentId: text("provider_payment_id"),
    /** Decimal strings ("25.00"): money is never a float. */
    amount: text("amount").notNull(),
    currency: text("currency").notNull(),
    description: text("description").notNull(),
    status: text("status", { enum: PAYMENT_STATUSES }).notNull(),
    url: text("url").notNull(),
    expiresAt: text("expires_at").notNull(),
    paidAt: text("paid_at"),
    idempotencyKey: text("idempotency_key"),
    requestHash: text("request_hash"),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("payments_conversation_idx").on(t.conversationId, t.createdAt),
    index("payments_booking_idx").on(t.bookingId),
    index("payments_provider_idx").on(t.organizationId, t.providerPaymentId),
    uniqueIndex("payments_idempotency_idx")
      .on(t.organizationId, t.idempotencyKey)
      .where(sql`idempotency_key IS NOT NULL`),
    index("payments_pending_idx")
      .on(t.expiresAt)
      .where(sql`status = 'pending'`),
  ],
);

// ── The booking Flow (contract section 18, decisions 0095-0098) ─────────────────────────

/**
 * The booking Flow on the organization's WhatsApp account (contract section 18, decision
 * 0097): the Flow Meta gave it, whether it is published, and the last registration's failure
 * in Spanish (null once one succeeds). One row.
 */
export const bookingFlows = sqliteTable("booking_flows", {
  organizationId: text("organization_id").primaryKey().notNull(),
  phoneNumberId: text("phone_number_id"),
  flowId: text("flow_id"),
  published: integer("published", { mode: "boolean" }).notNull().default(false),
  error: text("error"),
  updatedAt: updatedAt(),
});

/**
 * A single-use token a booking Flow or a fallback list was sent with (decisions 0095, 0098):
 * whose conversation it is, what the customer chose so far, and the booking it made. Used
 * (`used_at`) once it booked; no longer valid 24 h after it was made.
 */
export const flowTokens = sqliteTable(
  "flow_tokens",
  {
    token: text("token").primaryKey().notNull(),
    organizationId: organizationId(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["flow", "list"] }).notNull(),
    serviceId: text("service_id"),
    day: text("day"),
    slot: text("slot"),
    /** The list's slots (ISO starts), in the order their rows were offered. */
    offered: text("offered", { mode: "json" }).$type<string[]>(),
    bookingId: text("booking_id"),
    createdBy: text("created_by"),
    createdAt: createdAt(),
    usedAt: text("used_at"),
    /** The customer's completion (`nfm_reply`) was shown in the thread. */
    completedAt: text("completed_at"),
    /** Sent for a reminder's "Cambiar": the booking the new one replaces (decision 0122). */
    replacesBookingId: text("replaces_booking_id"),
  },
  (t) => [index("flow_tokens_conversation_idx").on(t.conversationId)],
);

// ── Google Calendar (contract section 18, decisions 0124-0127) ───────────────────────────

/**
 * The organization's Google Calendar (store migration 18): its grant sealed with ENCRYPTION_KEY
 * (never returned), the calendar chosen, the one OAuth state it is waiting for (single use), the
 * grant's revocation (a banner until connected again) and the last busy times read (decision
 * 0126).
 */
export const googleCalendars = sqliteTable("google_calendars", {
  organizationId: text("organization_id").primaryKey().notNull(),
  refreshTokenEncrypted: text("refresh_token_encrypted"),
  accessTokenEncrypted: text("access_token_encrypted"),
  accessExpiresAt: text("access_expires_at"),
  calendarId: text("calendar_id").notNull().default("primary"),
  connectedBy: text("connected_by"),
  connectedAt: text("connected_at"),
  /** The id of the consent URL last issued, and until when its callback is taken. */
  stateId: text("state_id"),
  stateExpiresAt: text("state_expires_at"),
  /** Google refused the grant (`invalid_grant`): disconnected, said to owners and admins. */
  revokedAt: text("revoked_at"),
  /** The last `freeBusy` answer: its calendar and range, the busy intervals, when it was read. */
  busyKey: text("busy_key"),
  busyJson: text("busy_json"),
  busyReadAt: text("busy_read_at"),
  updatedAt: updatedAt(),
});

/**
 * A booking's event in Google Calendar (decision 0127): what is owed to Google (`dirty`) after
 * the booking changed, run by the store's `google_events` job and retried; the event's id is the
 * booking's, so a retry never makes a second one.
 */
export const googleBookingEvents = sqliteTable(
  "google_booking_events",
  {
    bookingId: text("booking_id")
      .primaryKey()
      .references(() => bookings.id, { onDelete: "cascade" }),
    organizationId: organizationId(),
    /** The calendar the event was made in (the chosen one may change afterwards). */
    calendarId: text("calendar_id"),
    /** Google holds the event. */
    present: integer("present", { mode: "boolean" }).notNull().default(false),
    dirty: integer("dirty", { mode: "boolean" }).notNull().default(true),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    updatedAt: updatedAt(),
  },
  (t) => [index("google_booking_events_dirty_idx").on(t.organizationId, t.dirty)],
);

// ── Booking reminders (decisions 0120-0123) ───────────────────────────────────────────────

/**
 * A booking's one reminder, keyed by the booking: due a day before `starts_at` (earlier for
 * quiet hours), claimed `sending` before Meta is asked so that nothing is sent twice, then
 * `sent` or, after its retries, `failed`; `cancelled` when the booking stops being confirmed.
 */
export const bookingReminders = sqliteTable(
  "booking_reminders",
  {
    bookingId: text("booking_id")
      .primaryKey()
      .notNull()
      .references(() => bookings.id, { onDelete: "cascade" }),
    organizationId: organizationId(),
    conversationId: text("conversation_id").notNull(),
    /** The start it reminds of: a booking moved elsewhere gets a new reminder. */
    startsAt: text("starts_at").notNull(),
    /** When it is due (ms since the epoch). */
    dueAt: integer("due_at").notNull(),
    state: text("state", { enum: REMINDER_STATES }).notNull(),
    /** The thread's message of the template (a retry sends the same one again). */
    messageId: text("message_id"),
    errorCode: text("error_code"),
    attempts: integer("attempts").notNull().default(0),
    sentAt: text("sent_at"),
    /** The customer pressed "Confirmar". */
    confirmedAt: text("confirmed_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("booking_reminders_due_idx").on(t.organizationId, t.state, t.dueAt)],
);

/** A customer's press of a reminder's button, stored with its message, for the job to act on. */
export const bookingReminderAnswers = sqliteTable(
  "booking_reminder_answers",
  {
    /** The stored inbound message's id: one act per press, however often Meta delivers it. */
    messageId: text("message_id").primaryKey().notNull(),
    organizationId: organizationId(),
    conversationId: text("conversation_id")
      .notNull()
      .references(() => conversations.id, { onDelete: "cascade" }),
    bookingId: text("booking_id").notNull(),
    action: text("action", { enum: REMINDER_ACTIONS }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [index("booking_reminder_answers_conversation_idx").on(t.conversationId)],
);

// ── The store's scheduler (decision 0099) ─────────────────────────────────────────────────

/**
 * The store's scheduled work (decision 0099, durable-objects/scheduler.ts): one row per job,
 * pending AI reply (`reply:<conversation>`) or voice note to transcribe
 * (`transcript:<message>`), run by the store's one alarm. The store's own machinery, not the
 * organization's data: no `organization_id` (a store serves one), and not exported.
 */
export const scheduledWork = sqliteTable("scheduled_work", {
  key: text("key").primaryKey(),
  kind: text("kind", { enum: ["job", "reply", "transcript"] }).notNull(),
  /** When it is next due (ms since the epoch); while a run holds it, when its lease ends. */
  dueAt: integer("due_at").notNull(),
  /** What the kind keeps beside the key (a reply: when its burst began), JSON. */
  payload: text("payload", { mode: "json" }).$type<Record<string, unknown>>().notNull().default({}),
  /** Set while a run holds the row: the end of its lease. */
  leaseUntil: integer("lease_until"),
  /** A time asked for the row while a run held it: the run's end keeps it. */
  askedAt: integer("asked_at"),
  /** Runs in a row that failed; back to 0 when one ends normally. */
  attempts: integer("attempts").notNull().default(0),
});

// ── The search indexes' progress (decision 0149) ──────────────────────────────────────────

/**
 * The last rowid each search index (`messages_fts`, `conversations_fts`) holds: the rows above
 * it wait for the store's `search` job, and search reads them directly
 * (durable-objects/conversations/search.ts). The store's own machinery: not exported.
 */
export const searchProgress = sqliteTable("search_progress", {
  name: text("name", { enum: ["messages", "conversations"] }).primaryKey(),
  indexedThrough: integer("indexed_through").notNull(),
});
