/**
 * The tables an organization's store holds once the organization has moved there (decisions
 * 0052, 0054), by the name the store's migrations give them, with the store migration that
 * added each (`since`): an organization moved before that version keeps that table in D1 until
 * it is moved again. The routes, the export, the erasure and the move read this list.
 *
 * What the store's own triggers derive from these rows is not here: the search indexes
 * (`conversations_fts`, `messages_fts`, `knowledge_fts`) and the inbox tallies
 * (`conversation_counts`) are rebuilt as the rows go in; copying them too would count twice.
 *
 * The order is the copy's: a table comes after those its foreign keys name (agents and
 * tracking sessions before conversations, conversations before messages, messages before the
 * mentions of a note), so each page goes in whole; clearing goes the other way.
 */
import { and, asc, eq, getTableColumns, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { OrganizationDb } from "../db/client";
import {
  adSpend,
  adSpendSyncs,
  agents,
  broadcastRecipients,
  broadcasts,
  aiCalls,
  aiUsage,
  auditEvents,
  conversationLabels,
  conversations,
  conversionSuggestions,
  conversions,
  followUpSends,
  followUps,
  heldStatuses,
  historyImports,
  historyPages,
  knowledgeEntries,
  labels,
  marketingConsents,
  mentions,
  messageCosts,
  messageCostSyncs,
  messages,
  phoneContacts,
  quickReplies,
  trackingSessions,
  whatsappTemplates,
} from "../db/schema";
import { badRequest } from "../http/errors";
import { IdChecksum, type TableSummary } from "./id-checksum";

/** A table of an organization's data, as the move reaches any of them. */
type OrganizationTable = SQLiteTable & { organizationId: SQLiteColumn };

/**
 * A table, the columns (drizzle's names) that order its rows within the organization (its
 * primary key without `organization_id`) and the store migration that added it.
 */
const storeTable = <T extends OrganizationTable>(
  table: T,
  key: readonly [keyof T["$inferSelect"] & string, ...(keyof T["$inferSelect"] & string)[]],
  since: number,
) => ({ table, key, since });

const ID = ["id"] as const;

/** The store migration that brought every table of an organization's data (decision 0054). */
export const ALL_DATA_VERSION = 3;

export const STORE_TABLES = {
  // First: moving back, the step that clears D1 also brings the agents back (move-service.ts).
  agents: storeTable(agents, ID, 3),
  quick_replies: storeTable(quickReplies, ID, 2),
  tracking_sessions: storeTable(trackingSessions, ID, 3),
  labels: storeTable(labels, ID, 3),
  knowledge_entries: storeTable(knowledgeEntries, ID, 3),
  whatsapp_templates: storeTable(whatsappTemplates, ID, 3),
  conversations: storeTable(conversations, ID, 3),
  conversation_labels: storeTable(conversationLabels, ["conversationId", "labelId"], 3),
  messages: storeTable(messages, ID, 3),
  mentions: storeTable(mentions, ID, 3),
  conversions: storeTable(conversions, ID, 3),
  conversion_suggestions: storeTable(conversionSuggestions, ID, 3),
  ai_calls: storeTable(aiCalls, ID, 3),
  ai_usage: storeTable(aiUsage, ["month"], 3),
  ad_spend: storeTable(adSpend, ["adId", "day"], 3),
  ad_spend_syncs: storeTable(adSpendSyncs, ["day"], 3),
  message_costs: storeTable(messageCosts, ["day", "category", "country"], 3),
  message_cost_syncs: storeTable(messageCostSyncs, ["day"], 3),
  // The organization's entries; an account's own (no organization) stay in D1.
  audit_events: storeTable(auditEvents, ID, 3),
  // Since store migration 4 a new table is created in D1 and in every store alike, so it moves
  // with the rest of the data: it is there for every organization served by its store.
  phone_contacts: storeTable(phoneContacts, ID, ALL_DATA_VERSION),
  history_imports: storeTable(historyImports, ID, ALL_DATA_VERSION),
  history_pages: storeTable(historyPages, ID, ALL_DATA_VERSION),
  // After conversations: its triggers find nothing to copy onto a conversation moved in.
  marketing_consents: storeTable(marketingConsents, ID, ALL_DATA_VERSION),
  // After conversations, and a broadcast before its recipients (their foreign keys).
  broadcasts: storeTable(broadcasts, ID, ALL_DATA_VERSION),
  broadcast_recipients: storeTable(
    broadcastRecipients,
    ["broadcastId", "conversationId"],
    ALL_DATA_VERSION,
  ),
  // After conversations, and a rule before what it sent.
  follow_ups: storeTable(followUps, ID, ALL_DATA_VERSION),
  follow_up_sends: storeTable(
    followUpSends,
    ["followUpId", "conversationId", "waitedSince"],
    ALL_DATA_VERSION,
  ),
  held_statuses: storeTable(heldStatuses, ["wamid", "status"], ALL_DATA_VERSION),
};
export type StoreTable = keyof typeof STORE_TABLES;
export const STORE_TABLE_NAMES = Object.keys(STORE_TABLES) as StoreTable[];

/** A table's rows of one organization, as drizzle reads and writes them. */
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

/**
 * A row's place in its table's order, the cursor of its pages and what the checksum adds up:
 * the id, or the key's columns as a JSON array.
 */
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

/** The organization's rows of the table after the cursor ("": from the first). */
function rowsAfter(table: StoreTable, organizationId: string, after: string): SQL | undefined {
  const { rows, keyColumns } = partsOf(table);
  const ofOrganization = eq(rows.organizationId, organizationId);
  if (after === "") return ofOrganization;
  const values = keyColumns.length === 1 ? [after] : jsonOrNull(after);
  const valid =
    Array.isArray(values) &&
    values.length === keyColumns.length &&
    values.every((value) => typeof value === "string");
  if (!valid) throw badRequest(`Cursor no válido para ${table}.`);
  const later = sql`(${sql.join(keyColumns, sql`, `)}) > (${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )})`;
  return and(ofOrganization, later);
}

/** One page of the organization's rows of a table in key order after `after`, in D1 or a store. */
export async function pageOf(
  db: OrganizationDb,
  organizationId: string,
  table: StoreTable,
  after: string,
  limit: number,
) {
  const { rows, keyColumns } = partsOf(table);
  const page = await db
    .select()
    .from(rows)
    .where(rowsAfter(table, organizationId, after))
    .orderBy(...keyColumns.map((column) => asc(column)))
    .limit(limit);
  return page as StoreRow[];
}

/** Keys read at once for a checksum. */
const SUMMARY_PAGE_SIZE = 5_000;

/**
 * How many rows of a table the organization has, in D1 or a store, and their keys' checksum:
 * the same query on both sides, so both add the keys up in the same order.
 */
export async function summaryOf(
  db: OrganizationDb,
  organizationId: string,
  table: StoreTable,
): Promise<TableSummary> {
  const { rows, key, keyColumns } = partsOf(table);
  const selection = Object.fromEntries(key.map((name, i) => [name, keyColumns[i]!]));
  const sum = new IdChecksum();
  for (let after = ""; ;) {
    const page = await db
      .select(selection)
      .from(rows)
      .where(rowsAfter(table, organizationId, after))
      .orderBy(...keyColumns.map((column) => asc(column)))
      .limit(SUMMARY_PAGE_SIZE);
    for (const row of page) sum.add(keyOf(table, row));
    if (page.length < SUMMARY_PAGE_SIZE) return sum.summary();
    after = keyOf(table, page.at(-1)!);
  }
}

/**
 * The statements that write a page of a move's copy, to D1 or to a store: first, the tables in
 * `clear` lose what that side held of the organization (a move back and forth leaves no stale
 * row; children before parents, for the foreign keys), then the rows, each checked to be the
 * organization's, go in inserts within the 100 parameters D1 and a store's SQLite bind a
 * statement.
 */
export function copyStatements(
  db: OrganizationDb,
  organizationId: string,
  table: StoreTable,
  rows: StoreRow[],
  clear: readonly StoreTable[],
) {
  if (rows.some((row) => row.organizationId !== organizationId)) {
    throw new Error(`rows of another organization copied for ${organizationId}`);
  }
  const clears = clear.map((name) => {
    const { rows: target } = partsOf(name);
    return db.delete(target).where(eq(target.organizationId, organizationId));
  });
  const { rows: target } = partsOf(table);
  const size = Math.floor(100 / Object.keys(getTableColumns(target)).length);
  const inserts = [];
  for (let i = 0; i < rows.length; i += size) {
    inserts.push(
      db
        .insert(target)
        .values(rows.slice(i, i + size))
        .onConflictDoNothing(),
    );
  }
  return [...clears, ...inserts];
}
