import { getTableColumns, type Table } from "drizzle-orm";
import { drizzle } from "drizzle-orm/d1";
import type { BaseSQLiteDatabase } from "drizzle-orm/sqlite-core";
import * as schema from "./schema";

export type Db = ReturnType<typeof buildDb>;

const buildDb = (d1: D1Database) => drizzle(d1, { schema });

/**
 * One drizzle instance per D1 binding for the isolate's life: building one walks the whole
 * schema, which cost more CPU than a webhook's queries (docs/performance.md).
 */
const instances = new WeakMap<D1Database, Db>();

export function createDb(d1: D1Database): Db {
  let db = instances.get(d1);
  if (!db) {
    db = buildDb(d1);
    instances.set(d1, db);
  }
  return db;
}

/**
 * Rows read with a plain D1 statement (snake_case columns, JSON as text), shaped as drizzle
 * returns them, for the few statements drizzle cannot express.
 */
export function fromRows<T extends Table>(
  table: T,
  rows: Record<string, unknown>[],
): T["$inferSelect"][] {
  const columns = Object.entries(getTableColumns(table));
  return rows.map((row) =>
    Object.fromEntries(
      columns.map(([key, column]) => {
        const value = row[column.name];
        return [
          key,
          value === null || value === undefined ? null : column.mapFromDriverValue(value),
        ];
      }),
    ),
  ) as T["$inferSelect"][];
}

/**
 * An organization's data wherever it is: D1 while the organization is there, its store's
 * SQLite once it has moved (docs/decisions/0052). The query builder both share: no `batch`
 * (D1's), no synchronous calls (the store's); a service written against it runs in both.
 */
export type OrganizationDb = BaseSQLiteDatabase<"async" | "sync", unknown, typeof schema>;
