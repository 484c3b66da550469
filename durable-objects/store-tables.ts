/**
 * The store's side of an owner's export: each table of worker/stores/store-tables.ts with the
 * columns of its key, and one page of its rows in key order.
 */
import { and, asc, getTableColumns, sql } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { OrganizationDb } from "./db";
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
} from "./schema";
import { badRequest } from "../worker/http/errors";
import { STORE_TABLE_KEYS, type StoreRow, type StoreTable } from "../worker/stores/store-tables";

/** A table of an organization's data, as the export reaches any of them. */
type OrganizationTable = SQLiteTable & { organizationId: SQLiteColumn };

/** A table and the columns (drizzle's names) that order its rows within the organization. */
const storeTable = <T extends OrganizationTable>(
  table: T,
  key: readonly [keyof T["$inferSelect"] & string, ...(keyof T["$inferSelect"] & string)[]],
) => ({ table, key });

const STORE_TABLES = {
  agents: storeTable(agents, STORE_TABLE_KEYS.agents),
  quick_replies: storeTable(quickReplies, STORE_TABLE_KEYS.quick_replies),
  tracking_sessions: storeTable(trackingSessions, STORE_TABLE_KEYS.tracking_sessions),
  labels: storeTable(labels, STORE_TABLE_KEYS.labels),
  knowledge_entries: storeTable(knowledgeEntries, STORE_TABLE_KEYS.knowledge_entries),
  whatsapp_templates: storeTable(whatsappTemplates, STORE_TABLE_KEYS.whatsapp_templates),
  conversations: storeTable(conversations, STORE_TABLE_KEYS.conversations),
  conversation_labels: storeTable(conversationLabels, STORE_TABLE_KEYS.conversation_labels),
  messages: storeTable(messages, STORE_TABLE_KEYS.messages),
  mentions: storeTable(mentions, STORE_TABLE_KEYS.mentions),
  conversions: storeTable(conversions, STORE_TABLE_KEYS.conversions),
  conversion_suggestions: storeTable(
    conversionSuggestions,
    STORE_TABLE_KEYS.conversion_suggestions,
  ),
  ai_calls: storeTable(aiCalls, STORE_TABLE_KEYS.ai_calls),
  ai_usage: storeTable(aiUsage, STORE_TABLE_KEYS.ai_usage),
  ad_spend: storeTable(adSpend, STORE_TABLE_KEYS.ad_spend),
  ad_spend_syncs: storeTable(adSpendSyncs, STORE_TABLE_KEYS.ad_spend_syncs),
  message_costs: storeTable(messageCosts, STORE_TABLE_KEYS.message_costs),
  message_cost_syncs: storeTable(messageCostSyncs, STORE_TABLE_KEYS.message_cost_syncs),
  audit_events: storeTable(auditEvents, STORE_TABLE_KEYS.audit_events),
  phone_contacts: storeTable(phoneContacts, STORE_TABLE_KEYS.phone_contacts),
  history_imports: storeTable(historyImports, STORE_TABLE_KEYS.history_imports),
  history_pages: storeTable(historyPages, STORE_TABLE_KEYS.history_pages),
  marketing_consents: storeTable(marketingConsents, STORE_TABLE_KEYS.marketing_consents),
  broadcasts: storeTable(broadcasts, STORE_TABLE_KEYS.broadcasts),
  broadcast_recipients: storeTable(broadcastRecipients, STORE_TABLE_KEYS.broadcast_recipients),
  follow_ups: storeTable(followUps, STORE_TABLE_KEYS.follow_ups),
  follow_up_sends: storeTable(followUpSends, STORE_TABLE_KEYS.follow_up_sends),
  held_statuses: storeTable(heldStatuses, STORE_TABLE_KEYS.held_statuses),
  marketing_limits: storeTable(marketingLimits, STORE_TABLE_KEYS.marketing_limits),
  booking_settings: storeTable(bookingSettings, STORE_TABLE_KEYS.booking_settings),
  services: storeTable(services, STORE_TABLE_KEYS.services),
  bookings: storeTable(bookings, STORE_TABLE_KEYS.bookings),
  away_message_sends: storeTable(awayMessageSends, STORE_TABLE_KEYS.away_message_sends),
  payments: storeTable(payments, STORE_TABLE_KEYS.payments),
  booking_flows: storeTable(bookingFlows, STORE_TABLE_KEYS.booking_flows),
  flow_tokens: storeTable(flowTokens, STORE_TABLE_KEYS.flow_tokens),
  booking_reminders: storeTable(bookingReminders, STORE_TABLE_KEYS.booking_reminders),
  booking_reminder_answers: storeTable(
    bookingReminderAnswers,
    STORE_TABLE_KEYS.booking_reminder_answers,
  ),
} satisfies Record<StoreTable, unknown>;

/** The table and its key columns, typed as any of the organization's tables. */
function partsOf(table: StoreTable) {
  const { table: rows, key } = STORE_TABLES[table] as {
    table: OrganizationTable;
    key: readonly string[];
  };
  const columns = getTableColumns(rows);
  return { rows, key, keyColumns: key.map((name) => columns[name]!) };
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
