/**
 * The tables an organization's store holds once the organization has moved there (decision
 * 0052), by the name the store's migrations give them, with the store migration that added
 * each (`since`): an organization moved before that version keeps that table in D1 until it
 * is moved again. Each table comes here with its service; the routes, the export, the erasure
 * and the move read this list.
 */
import { getTableColumns } from "drizzle-orm";
import { quickReplies } from "../db/schema";

export const STORE_TABLES = {
  quick_replies: { table: quickReplies, since: 2 },
} as const;
export type StoreTable = keyof typeof STORE_TABLES;
export const STORE_TABLE_NAMES = Object.keys(STORE_TABLES) as StoreTable[];

/** D1 and a store's SQLite bind at most 100 parameters a statement: rows per insert of `table`. */
export function rowsPerInsert(table: StoreTable) {
  return Math.floor(100 / Object.keys(getTableColumns(STORE_TABLES[table].table)).length);
}

/** A table's rows of one organization, as drizzle reads and writes them. */
export type StoreRow = Record<string, unknown> & { id: string; organizationId: string };
