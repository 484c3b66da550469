/**
 * The organization store's own schema (contract section 15, docs/decisions/0052), versioned
 * like D1's migrations and applied by the store itself when it wakes, so that a deploy never
 * has to touch every store at once. A migration, once shipped, is never edited: a change is a
 * new one with the next version.
 */
import { ORGANIZATION_DATA_SQL } from "./0003-organization-data";
import { COEXISTENCE_SQL } from "./0004-coexistence";
import { CONSENT_SQL } from "./0005-consent";
import { BROADCASTS_SQL } from "./0006-broadcasts";
import { BROADCAST_SENDING_SQL } from "./0007-broadcast-sending";
import { FOLLOW_UPS_SQL } from "./0008-follow-ups";
import { HELD_STATUSES_SQL } from "./0009-held-statuses";
import { BOOKINGS_SQL } from "./0011-bookings";
import { MARKETING_LIMITS_SQL } from "./0012-marketing-limits";
import { PAYMENTS_SQL } from "./0013-payments";
import { BOOKING_FLOW_SQL } from "./0014-booking-flow";
import { SCHEDULED_WORK_SQL } from "./0015-scheduled-work";
import { AGENT_ACTS_SQL } from "./0016-agent-acts";
import { GOOGLE_CALENDAR_SQL } from "./0018-google-calendar";
import { BOOKING_REMINDERS_SQL } from "./0017-booking-reminders";
import { CONVERSATION_AI_CALLS_SQL } from "./0019-conversation-ai-calls";
import { SEARCH_PROGRESS_SQL } from "./0020-search-progress";
import { HISTORY_PAGE_COUNTS_SQL } from "./0021-history-page-counts";

export interface StoreMigration {
  version: number;
  name: string;
  /** One or more statements, separated by semicolons. */
  sql: string;
}

export const STORE_MIGRATIONS: readonly StoreMigration[] = [
  {
    version: 1,
    name: "store_owner",
    // The organization the store belongs to, recorded by its first call: a store reached for
    // another organization (a registry pointing at the wrong object) refuses the call.
    sql: `CREATE TABLE store_owner (
      id INTEGER PRIMARY KEY CHECK (id = 1),
      organization_id TEXT NOT NULL,
      claimed_at TEXT NOT NULL
    )`,
  },
  {
    version: 2,
    name: "quick_replies",
    // As in D1 (migrations/0000), without the foreign key: organizations stay in D1.
    sql: `CREATE TABLE quick_replies (
      id TEXT PRIMARY KEY NOT NULL,
      organization_id TEXT NOT NULL,
      shortcut TEXT NOT NULL,
      content TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX quick_replies_shortcut_idx ON quick_replies (organization_id, shortcut)`,
  },
  {
    version: 3,
    name: "organization_data",
    sql: ORGANIZATION_DATA_SQL,
  },
  {
    version: 4,
    name: "coexistence",
    sql: COEXISTENCE_SQL,
  },
  {
    version: 5,
    name: "consent",
    sql: CONSENT_SQL,
  },
  {
    version: 6,
    name: "broadcasts",
    sql: BROADCASTS_SQL,
  },
  {
    version: 7,
    name: "broadcast_sending",
    sql: BROADCAST_SENDING_SQL,
  },
  {
    version: 8,
    name: "follow_ups",
    sql: FOLLOW_UPS_SQL,
  },
  {
    version: 9,
    name: "held_statuses",
    sql: HELD_STATUSES_SQL,
  },
  {
    version: 10,
    name: "foreign_key_indexes",
    // What a parent's delete does to its children (SET NULL, CASCADE) looks them up by the
    // foreign key alone: without an index led by it, deleting an agent, a label or a conversion
    // read every conversation, model call, label link or suggestion of the store.
    sql: `CREATE INDEX conversations_agent_fk_idx ON conversations (agent_id);
    CREATE INDEX ai_calls_agent_fk_idx ON ai_calls (agent_id);
    CREATE INDEX conversion_suggestions_conversion_idx ON conversion_suggestions (conversion_id);
    CREATE INDEX conversation_labels_label_fk_idx ON conversation_labels (label_id)`,
  },
  {
    version: 11,
    name: "bookings",
    sql: BOOKINGS_SQL,
  },
  {
    version: 12,
    name: "marketing_limits",
    sql: MARKETING_LIMITS_SQL,
  },
  {
    version: 13,
    name: "payments",
    sql: PAYMENTS_SQL,
  },
  {
    version: 14,
    name: "booking_flow",
    sql: BOOKING_FLOW_SQL,
  },
  {
    version: 15,
    name: "scheduled_work",
    sql: SCHEDULED_WORK_SQL,
  },
  {
    version: 16,
    name: "agent_acts",
    sql: AGENT_ACTS_SQL,
  },
  {
    version: 17,
    name: "booking_reminders",
    sql: BOOKING_REMINDERS_SQL,
  },
  {
    version: 18,
    name: "google_calendar",
    sql: GOOGLE_CALENDAR_SQL,
  },
  {
    version: 19,
    name: "conversation_ai_calls",
    sql: CONVERSATION_AI_CALLS_SQL,
  },
  {
    version: 20,
    name: "search_progress",
    sql: SEARCH_PROGRESS_SQL,
  },
  {
    version: 21,
    name: "history_page_counts",
    sql: HISTORY_PAGE_COUNTS_SQL,
  },
];

/** The newest version this code knows. */
export const STORE_SCHEMA_VERSION = STORE_MIGRATIONS.at(-1)!.version;

/**
 * Applies the migrations the store has not applied yet, each with its record in one
 * transaction: a failing one leaves the store at the version before it (and throws, so the
 * object's calls fail and its next wake tries again). Returns the versions before and after.
 */
export function migrateStore(
  storage: DurableObjectStorage,
  migrations: readonly StoreMigration[] = STORE_MIGRATIONS,
) {
  const { sql } = storage;
  sql.exec(`CREATE TABLE IF NOT EXISTS store_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const from = sql
    .exec<{ version: number }>("SELECT coalesce(max(version), 0) AS version FROM store_migrations")
    .one().version;
  let to = from;
  for (const migration of migrations) {
    if (migration.version <= from) continue;
    storage.transactionSync(() => {
      sql.exec(migration.sql);
      sql.exec(
        "INSERT INTO store_migrations (version, name, applied_at) VALUES (?, ?, ?)",
        migration.version,
        migration.name,
        new Date().toISOString(),
      );
    });
    to = migration.version;
  }
  return { from, to };
}
