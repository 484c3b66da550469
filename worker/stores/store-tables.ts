/**
 * The tables of an organization's data an owner's export reads page by page from its store
 * (contract section 15), each with the columns that order its rows (its primary key without
 * `organization_id`): the cursor of its pages.
 *
 * What the store derives from these rows is not here: the search indexes (`conversations_fts`,
 * `messages_fts`, `knowledge_fts`, with `search_progress`) and the inbox tallies
 * (`conversation_counts`).
 */
import { and, asc, getTableColumns, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { OrganizationDb } from "../../durable-objects/db";
import {
  adSpend,
  adSpendSyncs,
  agents,
  aiCalls,
  aiUsage,
  auditEvents,
  awayMessageSends,
  bookingFlows,
  bookingReminderAnswers,
  bookingReminders,
  bookings,
  bookingSettings,
  broadcastRecipients,
  broadcasts,
  conversationLabels,
  conversations,
  conversions,
  conversionSuggestions,
  flowTokens,
  followUps,
  followUpSends,
  heldStatuses,
  historyImports,
  historyPages,
  knowledgeEntries,
  labels,
  marketingConsents,
  marketingLimits,
  mentions,
  messageCosts,
  payments,
  messageCostSyncs,
  messages,
  phoneContacts,
  quickReplies,
  services,
  trackingSessions,
  whatsappTemplates,
} from "../../durable-objects/schema";
import { badRequest } from "../http/errors";

/** A table of an organization's data, as the export reaches any of them. */
type OrganizationTable = SQLiteTable & { organizationId: SQLiteColumn };

/** A table and the columns (drizzle's names) that order its rows within the organization. */
const storeTable = <T extends OrganizationTable>(
  table: T,
  key: readonly [keyof T["$inferSelect"] & string, ...(keyof T["$inferSelect"] & string)[]],
) => ({ table, key });

const ID = ["id"] as const;

export const STORE_TABLES = {
  agents: storeTable(agents, ID),
  quick_replies: storeTable(quickReplies, ID),
  tracking_sessions: storeTable(trackingSessions, ID),
  labels: storeTable(labels, ID),
  knowledge_entries: storeTable(knowledgeEntries, ID),
  whatsapp_templates: storeTable(whatsappTemplates, ID),
  conversations: storeTable(conversations, ID),
  conversation_labels: storeTable(conversationLabels, ["conversationId", "labelId"]),
  messages: storeTable(messages, ID),
  mentions: storeTable(mentions, ID),
  conversions: storeTable(conversions, ID),
  conversion_suggestions: storeTable(conversionSuggestions, ID),
  ai_calls: storeTable(aiCalls, ID),
  ai_usage: storeTable(aiUsage, ["month"]),
  ad_spend: storeTable(adSpend, ["adId", "day"]),
  ad_spend_syncs: storeTable(adSpendSyncs, ["day"]),
  message_costs: storeTable(messageCosts, ["day", "category", "country"]),
  message_cost_syncs: storeTable(messageCostSyncs, ["day"]),
  // The organization's entries; an account's own (no organization) stay in D1.
  audit_events: storeTable(auditEvents, ID),
  phone_contacts: storeTable(phoneContacts, ID),
  history_imports: storeTable(historyImports, ID),
  history_pages: storeTable(historyPages, ID),
  marketing_consents: storeTable(marketingConsents, ID),
  broadcasts: storeTable(broadcasts, ID),
  broadcast_recipients: storeTable(broadcastRecipients, ["broadcastId", "conversationId"]),
  follow_ups: storeTable(followUps, ID),
  follow_up_sends: storeTable(followUpSends, ["followUpId", "conversationId", "waitedSince"]),
  held_statuses: storeTable(heldStatuses, ["wamid", "status"]),
  marketing_limits: storeTable(marketingLimits, ["organizationId"]),
  // One row: its key is the organization's.
  booking_settings: storeTable(bookingSettings, ["organizationId"]),
  services: storeTable(services, ID),
  bookings: storeTable(bookings, ID),
  away_message_sends: storeTable(awayMessageSends, ["conversationId", "stretchEndsAt"]),
  // Payment settings stay out: their rows are sealed secrets, which no answer carries.
  payments: storeTable(payments, ID),
  booking_flows: storeTable(bookingFlows, ["organizationId"]),
  flow_tokens: storeTable(flowTokens, ["token"]),
  booking_reminders: storeTable(bookingReminders, ["bookingId"]),
  booking_reminder_answers: storeTable(bookingReminderAnswers, ["messageId"]),
};
export type StoreTable = keyof typeof STORE_TABLES;
export const STORE_TABLE_NAMES = Object.keys(STORE_TABLES) as StoreTable[];

/** A table's rows of one organization, as drizzle reads them. */
export type StoreRow = Record<string, unknown> & { organizationId: string };

/** The table and its key columns, typed as any of the organization's tables. */
function partsOf(table: StoreTable) {
  const { table: rows, key } = STORE_TABLES[table] as {
    table: OrganizationTable;
    key: readonly string[];
  };
  const columns = getTableColumns(rows);
  return { rows, key, keyColumns: key.map((name) => columns[name]!) };
}

/** A row's place in its table's order, the cursor of its pages: the id, or the key as JSON. */
export function keyOf(table: StoreTable, row: Record<string, unknown>): string {
  const values = partsOf(table).key.map((name) => String(row[name]));
  return values.length === 1 ? values[0]! : JSON.stringify(values);
}

function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** The key after a cursor's ("" is before the first row). */
function keyAfter(table: StoreTable, cursor: string) {
  const { keyColumns } = partsOf(table);
  const values = keyColumns.length === 1 ? [cursor] : jsonOrNull(cursor);
  const valid =
    Array.isArray(values) &&
    values.length === keyColumns.length &&
    values.every((value) => typeof value === "string");
  if (!valid) throw badRequest(`Cursor no válido para ${table}.`);
  return sql`(${sql.join(keyColumns, sql`, `)}) > (${sql.join(
    (values as string[]).map((value) => sql`${value}`),
    sql`, `,
  )})`;
}

/** One page of the organization's rows of a table in key order after `after` ("": the first). */
export async function pageOf(
  db: OrganizationDb,
  organizationId: string,
  table: StoreTable,
  after: string,
  limit: number,
) {
  const { rows, keyColumns } = partsOf(table);
  return (
    (await db
      .select()
      .from(rows)
      // Every row of a store is its organization's: the test is kept off the indexes (`+`), so
      // that SQLite walks the key's own index in order rather than sort all the organization's
      // rows for each page.
      .where(
        and(
          sql`+${rows.organizationId} = ${organizationId}`,
          after === "" ? undefined : keyAfter(table, after),
        ),
      )
      .orderBy(...keyColumns.map((column) => asc(column)))
      .limit(limit)) as StoreRow[]
  );
}
