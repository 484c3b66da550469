/**
 * The tables of an organization's data an owner's export reads page by page from its store
 * (contract section 15), each with the columns that order its rows (its primary key without
 * `organization_id`, drizzle's names): the cursor of its pages. The store pages them
 * (durable-objects/store-tables.ts); the edge names them and reads a row's cursor.
 *
 * What the store derives from these rows is not here: the search indexes (`conversations_fts`,
 * `messages_fts`, `knowledge_fts`, with `search_progress`) and the inbox tallies
 * (`conversation_counts`).
 */
const ID = ["id"] as const;

export const STORE_TABLE_KEYS = {
  agents: ID,
  quick_replies: ID,
  tracking_sessions: ID,
  labels: ID,
  knowledge_entries: ID,
  whatsapp_templates: ID,
  conversations: ID,
  conversation_labels: ["conversationId", "labelId"],
  messages: ID,
  mentions: ID,
  conversions: ID,
  conversion_suggestions: ID,
  ai_calls: ID,
  ai_usage: ["month"],
  ad_spend: ["adId", "day"],
  ad_spend_syncs: ["day"],
  message_costs: ["day", "category", "country"],
  message_cost_syncs: ["day"],
  // The organization's entries; an account's own (no organization) stay in D1.
  audit_events: ID,
  phone_contacts: ID,
  history_imports: ID,
  history_pages: ID,
  marketing_consents: ID,
  broadcasts: ID,
  broadcast_recipients: ["broadcastId", "conversationId"],
  follow_ups: ID,
  follow_up_sends: ["followUpId", "conversationId", "waitedSince"],
  held_statuses: ["wamid", "status"],
  marketing_limits: ["organizationId"],
  // One row: its key is the organization's.
  booking_settings: ["organizationId"],
  services: ID,
  bookings: ID,
  away_message_sends: ["conversationId", "stretchEndsAt"],
  // Payment settings stay out: their rows are sealed secrets, which no answer carries.
  payments: ID,
  booking_flows: ["organizationId"],
  flow_tokens: ["token"],
  booking_reminders: ["bookingId"],
  booking_reminder_answers: ["messageId"],
} as const;
export type StoreTable = keyof typeof STORE_TABLE_KEYS;
export const STORE_TABLE_NAMES = Object.keys(STORE_TABLE_KEYS) as StoreTable[];

/** A table's rows of one organization, as drizzle reads them. */
export type StoreRow = Record<string, unknown> & { organizationId: string };

/** A row's place in its table's order, the cursor of its pages: the id, or the key as JSON. */
export function keyOf(table: StoreTable, row: Record<string, unknown>): string {
  const values = STORE_TABLE_KEYS[table].map((name: string) => String(row[name]));
  return values.length === 1 ? values[0]! : JSON.stringify(values);
}
