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
import { and, asc, eq, getTableColumns, inArray, or, sql, type SQL } from "drizzle-orm";
import { getTableConfig, type SQLiteColumn, type SQLiteTable } from "drizzle-orm/sqlite-core";
import { inD1, orgBatch, type OrganizationDb } from "../db/client";
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
import { RowChecksum, type TableSummary } from "./row-checksum";

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

/** Rows an old copy's removal deletes per statement. */
const REMOVAL_BATCH = 5_000;

/**
 * Deletes the old copy of an organization's rows a move left on one side (D1's, d1-copies.ts;
 * a store's, store-copies.ts): the tables given (those the other side serves), children first
 * (foreign keys), then the inbox counts their triggers kept when conversations are among them,
 * `REMOVAL_BATCH` rows a statement. Each statement spends one of `budget.statements` and is
 * preceded by `stillACopy()`. Answers `done` when nothing is left, `paused` when the budget ran
 * out, `stopped` when the rows stopped being a copy.
 */
export async function removeCopiedRows(
  db: OrganizationDb,
  organizationId: string,
  copied: readonly StoreTable[],
  budget: { statements: number },
  stillACopy: () => Promise<boolean>,
): Promise<"done" | "paused" | "stopped"> {
  const tables: string[] = STORE_TABLE_NAMES.filter((table) => copied.includes(table)).reverse();
  if (copied.includes("conversations")) tables.push("conversation_counts");
  for (const table of tables) {
    const name = sql.identifier(table);
    for (;;) {
      if (!(await stillACopy())) return "stopped";
      if (budget.statements <= 0) return "paused";
      budget.statements -= 1;
      const removed = await db.all(sql`DELETE FROM ${name} WHERE rowid IN (
        SELECT rowid FROM ${name} WHERE organization_id = ${organizationId} LIMIT ${REMOVAL_BATCH})
        RETURNING 1`);
      if (removed.length < REMOVAL_BATCH) break;
    }
  }
  return "done";
}

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
  const values = keyColumnsOf(table, row);
  return values.length === 1 ? values[0]! : JSON.stringify(values);
}

/** A row's key columns' values, in the key's order. */
export const keyColumnsOf = (table: StoreTable, row: Record<string, unknown>) =>
  partsOf(table).key.map((name) => String(row[name]));

function jsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/** A cursor's key values ("" is before the first row). */
function cursorValues(table: StoreTable, cursor: string): string[] {
  const { keyColumns } = partsOf(table);
  const values = keyColumns.length === 1 ? [cursor] : jsonOrNull(cursor);
  const valid =
    Array.isArray(values) &&
    values.length === keyColumns.length &&
    values.every((value) => typeof value === "string");
  if (!valid) throw badRequest(`Cursor no válido para ${table}.`);
  return values as string[];
}

/** The key compared with a cursor's (`>`, after it; `<=`, up to it). */
function keyBeyond(table: StoreTable, cursor: string, operator: ">" | "<=") {
  const { keyColumns } = partsOf(table);
  const values = cursorValues(table, cursor);
  return sql`(${sql.join(keyColumns, sql`, `)}) ${sql.raw(operator)} (${sql.join(
    values.map((value) => sql`${value}`),
    sql`, `,
  )})`;
}

/**
 * The organization's own rows, as each side's indexes serve it best: in D1 with the key's index
 * on (organization_id, key); in a store, where every row is the organization's, kept off the
 * indexes (`+`), so that SQLite walks the key's own index rather than every row of the
 * organization (a move's pages then cost the table's size each, and a large table's move grew
 * with its square).
 */
function organizationsOwn(db: OrganizationDb, table: StoreTable, organizationId: string) {
  const { rows } = partsOf(table);
  const column = rows.organizationId;
  // A key led by the organization (a month's usage, a day's costs) is that index in a store too.
  const ledByOrganization = primaryKeyOf(rows)[0]!.name === column.name;
  return inD1(db) || ledByOrganization
    ? eq(column, organizationId)
    : sql`+${column} = ${organizationId}`;
}

/**
 * The organization's rows of the table after the cursor ("": from the first), up to `upTo`
 * (its key included; null: to the end), by the key's index on either side (`organizationsOwn`).
 */
function rowsBetween(
  db: OrganizationDb,
  table: StoreTable,
  organizationId: string,
  after: string,
  upTo: string | null = null,
): SQL | undefined {
  return and(
    organizationsOwn(db, table, organizationId),
    after === "" ? undefined : keyBeyond(table, after, ">"),
    upTo === null ? undefined : keyBeyond(table, upTo, "<="),
  );
}

/**
 * What a move's sync step covers on one side: a page's key range, or the rows of some keys
 * (each the key's column values in order) written since their page was copied.
 */
export type SyncScope = { after: string; upTo: string | null } | { keys: string[][] };

/**
 * The rows of these keys (each the key's column values in order), found by the key's index on
 * both sides: an `IN` list for a one-column key, else one term a key, each with the
 * organization's test, so that D1 searches (organization_id, key) for each.
 */
export function withKeys(
  db: OrganizationDb,
  table: StoreTable,
  organizationId: string,
  keys: string[][],
) {
  const { keyColumns } = partsOf(table);
  const own = organizationsOwn(db, table, organizationId);
  if (keyColumns.length === 1) {
    return and(
      own,
      inArray(
        keyColumns[0]!,
        keys.map((values) => values[0]!),
      ),
    );
  }
  return or(
    ...keys.map((values) => and(own, ...keyColumns.map((column, c) => eq(column, values[c])))),
  );
}

/** Keys read per statement: D1 binds 100 parameters (the organization's id and each value). */
const keysPerStatement = (table: StoreTable) => {
  const columns = partsOf(table).key.length;
  return columns === 1 ? 90 : Math.floor(90 / (columns + 1));
};

/**
 * The organization's rows in the scope, whichever the side: a range in key order; keys in key
 * order within each statement's share of them, so that both sides, given the same keys, read
 * their rows in the same order.
 */
async function rowsIn(
  db: OrganizationDb,
  table: StoreTable,
  organizationId: string,
  scope: SyncScope,
): Promise<StoreRow[]> {
  const { rows, keyColumns } = partsOf(table);
  const select = async (where: SQL | undefined) =>
    (await db
      .select()
      .from(rows)
      .where(where)
      .orderBy(...keyColumns.map((column) => asc(column)))) as StoreRow[];
  if ("after" in scope) {
    return select(rowsBetween(db, table, organizationId, scope.after, scope.upTo));
  }
  const found: StoreRow[] = [];
  const size = keysPerStatement(table);
  for (let i = 0; i < scope.keys.length; i += size) {
    found.push(
      ...(await select(withKeys(db, table, organizationId, scope.keys.slice(i, i + size)))),
    );
  }
  return found;
}

/** The organization's rows of some keys of a table, in key order: what a move copies again. */
export const rowsOfKeys = (
  db: OrganizationDb,
  organizationId: string,
  table: StoreTable,
  keys: string[][],
) => rowsIn(db, table, organizationId, { keys });

/** One page of the organization's rows of a table in key order after `after`, in D1 or a store. */
export async function pageOf(
  db: OrganizationDb,
  organizationId: string,
  table: StoreTable,
  after: string,
  limit: number,
) {
  return (await pageQuery(db, organizationId, table, after, limit)) as StoreRow[];
}

/** The statement `pageOf` runs (its query plan is tested). */
export function pageQuery(
  db: OrganizationDb,
  organizationId: string,
  table: StoreTable,
  after: string,
  limit: number,
) {
  const { rows, keyColumns } = partsOf(table);
  return db
    .select()
    .from(rows)
    .where(rowsBetween(db, table, organizationId, after))
    .orderBy(...keyColumns.map((column) => asc(column)))
    .limit(limit);
}

/** Rows read at once for a checksum. */
const SUMMARY_PAGE_SIZE = 2_000;

/** A row as the checksum and a move's sync compare it: its key, then its columns as JSON. */
const rowText = (table: StoreTable, row: Record<string, unknown>) =>
  `${keyOf(table, row)}\u0000${JSON.stringify(row)}`;

/** The count and checksum of rows read in key order, as `summaryOf` adds them up. */
export function summaryOfRows(table: StoreTable, rows: StoreRow[]): TableSummary {
  const sum = new RowChecksum();
  for (const row of rows) sum.add(rowText(table, row));
  return sum.summary();
}

/** How many rows of a table the organization has, by its index on both sides (a move's check). */
export async function countOf(db: OrganizationDb, organizationId: string, table: StoreTable) {
  const [row] = await db
    .select({ count: sql<number>`count(*)` })
    .from(partsOf(table).rows)
    .where(rowsBetween(db, table, organizationId, ""));
  return row?.count ?? 0;
}

/**
 * How many rows of a table the organization has, in D1 or a store, and their checksum (keys and
 * values): the same query on both sides, so both add the rows up in the same order.
 */
export async function summaryOf(
  db: OrganizationDb,
  organizationId: string,
  table: StoreTable,
): Promise<TableSummary> {
  const sum = new RowChecksum();
  for (let after = ""; ;) {
    const page = await pageOf(db, organizationId, table, after, SUMMARY_PAGE_SIZE);
    for (const row of page) sum.add(rowText(table, row));
    if (page.length < SUMMARY_PAGE_SIZE) return sum.summary();
    after = keyOf(table, page.at(-1)!);
  }
}

/**
 * What makes one side's rows of a table in the scope (a key range (after, upTo], upTo null: to
 * the end; or some keys) what the other side's `rows` of that scope hold: the rows missing or different here (`changed`), and
 * the rows here the other side no longer has (`gone`). A move's copy and its pass after the
 * switch are this same step (decision 0065).
 */
async function differences(
  db: OrganizationDb,
  organizationId: string,
  table: StoreTable,
  rows: StoreRow[],
  scope: SyncScope,
) {
  if (rows.some((row) => row.organizationId !== organizationId)) {
    throw new Error(`rows of another organization copied for ${organizationId}`);
  }
  const here = await rowsIn(db, table, organizationId, scope);
  const held = new Map(here.map((row) => [keyOf(table, row), rowText(table, row)]));
  const kept = new Set(rows.map((row) => keyOf(table, row)));
  return {
    changed: rows.filter((row) => held.get(keyOf(table, row)) !== rowText(table, row)),
    gone: here.filter((row) => !kept.has(keyOf(table, row))),
  };
}

/**
 * The statements that delete `gone` and write `changed` (an upsert on the primary key, never a
 * delete and insert, so that a parent's children stay), within the 100 parameters D1 and a
 * store's SQLite bind a statement.
 */
function syncWrites(
  db: OrganizationDb,
  organizationId: string,
  table: StoreTable,
  { gone, changed }: { gone: StoreRow[]; changed: StoreRow[] },
) {
  const { rows: target, key, keyColumns } = partsOf(table);
  const columns = getTableColumns(target);
  const size = Math.floor(100 / Object.keys(columns).length);
  const everyColumn = Object.fromEntries(
    Object.entries(columns).map(([name, column]) => [name, sql.raw(`excluded.${column.name}`)]),
  );
  const statements = [];
  for (let i = 0; i < gone.length; i += size) {
    const keys = gone
      .slice(i, i + size)
      .map((row) => and(...keyColumns.map((column, c) => eq(column, row[key[c]!]))));
    statements.push(
      db.delete(target).where(and(eq(target.organizationId, organizationId), or(...keys))),
    );
  }
  for (let i = 0; i < changed.length; i += size) {
    statements.push(
      db
        .insert(target)
        .values(changed.slice(i, i + size))
        .onConflictDoUpdate({ target: primaryKeyOf(target), set: everyColumn }),
    );
  }
  return statements;
}

/** A table's primary key columns: what an upsert's conflict names. */
function primaryKeyOf(table: OrganizationTable): SQLiteColumn[] {
  const config = getTableConfig(table);
  const own = config.columns.filter((column) => column.primary);
  return own.length > 0 ? own : config.primaryKeys[0]!.columns;
}

/**
 * Makes this side's rows of the scope (a page's key range, or some keys) the other side's, in
 * one batch (D1) or transaction (a store). When a row is refused, the rows go one by one, again while any goes in:
 * while copying, a row may name a parent copied before it existed; in any pass, a row may take a
 * unique value (a shortcut, a phone) that another row gives up later in the page or in a later
 * page. Answers the rows written or deleted, those still refused (what the move copies again
 * later; the check finds what is left), and this side's rows of the scope as they now are: the
 * move compares them with the other side's, a page or a few keys at a time (decision 0070).
 */
export async function applySync(
  db: OrganizationDb,
  organizationId: string,
  table: StoreTable,
  rows: StoreRow[],
  scope: SyncScope,
) {
  const written = await writeDifferences(db, organizationId, table, rows, scope);
  const summary = summaryOfRows(table, await rowsIn(db, table, organizationId, scope));
  return { ...written, summary };
}

async function writeDifferences(
  db: OrganizationDb,
  organizationId: string,
  table: StoreTable,
  rows: StoreRow[],
  scope: SyncScope,
) {
  const diff = await differences(db, organizationId, table, rows, scope);
  const write = async (part: typeof diff) => {
    const [first, ...more] = syncWrites(db, organizationId, table, part);
    if (first) await orgBatch(db, [first, ...more]);
  };
  try {
    await write(diff);
    return { changed: diff.changed.length + diff.gone.length, refused: 0 };
  } catch {
    // One by one, below.
  }
  let pending = [
    ...diff.gone.map((row) => ({ gone: [row], changed: [] })),
    ...diff.changed.map((row) => ({ gone: [], changed: [row] })),
  ];
  let changed = 0;
  for (;;) {
    const refused = [];
    for (const part of pending) {
      try {
        await write(part);
        changed += 1;
      } catch {
        refused.push(part);
      }
    }
    if (refused.length === 0 || refused.length === pending.length) {
      return { changed, refused: refused.length };
    }
    pending = refused;
  }
}
