/**
 * The tables an organization's store holds once the organization has moved there (decision
 * 0052), by the name the store's migrations give them, with the store migration that added
 * each (`since`): an organization moved before that version keeps that table in D1 until it
 * is moved again. Each table comes here with its service; the routes, the export, the erasure
 * and the move read this list.
 */
import { and, asc, eq, getTableColumns, gt } from "drizzle-orm";
import type { OrganizationDb } from "../db/client";
import { quickReplies } from "../db/schema";

export const STORE_TABLES = {
  quick_replies: { table: quickReplies, since: 2 },
} as const;
export type StoreTable = keyof typeof STORE_TABLES;
export const STORE_TABLE_NAMES = Object.keys(STORE_TABLES) as StoreTable[];

/** A table's rows of one organization, as drizzle reads and writes them. */
export type StoreRow = Record<string, unknown> & { id: string; organizationId: string };

/** One page of the organization's rows of a table in id order after `after`, in D1 or a store. */
export function pageOf(
  db: OrganizationDb,
  organizationId: string,
  table: StoreTable,
  after: string,
  limit: number,
) {
  const { table: rows } = STORE_TABLES[table];
  return db
    .select()
    .from(rows)
    .where(and(eq(rows.organizationId, organizationId), gt(rows.id, after)))
    .orderBy(asc(rows.id))
    .limit(limit);
}

/**
 * The statements that write a page of a move's copy, to D1 or to a store: the first page
 * replaces what that side held of the organization's table (a move back and forth leaves no
 * stale row), then the rows, each checked to be the organization's, go in inserts within the
 * 100 parameters D1 and a store's SQLite bind a statement.
 */
export function copyStatements(
  db: OrganizationDb,
  organizationId: string,
  table: StoreTable,
  rows: StoreRow[],
  first: boolean,
) {
  if (rows.some((row) => row.organizationId !== organizationId)) {
    throw new Error(`rows of another organization copied for ${organizationId}`);
  }
  const { table: target } = STORE_TABLES[table];
  const size = Math.floor(100 / Object.keys(getTableColumns(target)).length);
  const inserts = [];
  for (let i = 0; i < rows.length; i += size) {
    inserts.push(
      db
        .insert(target)
        .values(rows.slice(i, i + size) as (typeof target.$inferInsert)[])
        .onConflictDoNothing(),
    );
  }
  const clear = db.delete(target).where(eq(target.organizationId, organizationId));
  return [...(first ? [clear] : []), ...inserts];
}
