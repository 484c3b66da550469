import { getTableColumns, type Table } from "drizzle-orm";
import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
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
 * An organization's data: its store's SQLite (decision 0075); the type still admits D1, which
 * the Worker's `deps.orgDb` is and which holds no organization's data, until the two schemas
 * and databases are split. No `batch` (D1's), no synchronous calls (the store's).
 */
export type OrganizationDb = BaseSQLiteDatabase<"async" | "sync", unknown, typeof schema>;

type OrganizationQuery = BatchItem<"sqlite"> & { all(): unknown };

/** D1 behind drizzle has `batch`; a store's `durable-sqlite` database does not. */
export const inD1 = (db: OrganizationDb): db is Db => "batch" in db;

/**
 * Runs statements on the organization's data as one all-or-nothing unit: a SQLite transaction
 * in its store (D1's `batch` for the Worker's D1). Each statement's answer is what it returned
 * (the rows of a select or of `returning`); never read D1's `meta` from it, which a store does
 * not give: a write that must report what it changed says so with `returning`.
 */
export async function orgBatch<U extends OrganizationQuery, T extends Readonly<[U, ...U[]]>>(
  db: OrganizationDb,
  queries: T,
): Promise<BatchResponse<T>> {
  if (inD1(db)) return db.batch(queries);
  return db.transaction(() => queries.map((query) => query.all())) as BatchResponse<T>;
}

/** One plain SQL statement with its parameters (`?` or `?N`), for what drizzle cannot express. */
export interface PlainStatement {
  sql: string;
  params: unknown[];
}

/**
 * Runs plain statements on the organization's data as one all-or-nothing unit, and answers
 * each one's rows (column names as SQL gives them). The few statements drizzle
 * cannot express (json_each over a bound list, FTS) go through here, never `$client`.
 */
export async function orgStatements(
  db: OrganizationDb,
  statements: PlainStatement[],
): Promise<Record<string, unknown>[][]> {
  if (statements.length === 0) return [];
  if (inD1(db)) {
    const d1 = db.$client;
    const results = await d1.batch(
      statements.map((statement) => d1.prepare(statement.sql).bind(...statement.params)),
    );
    return results.map((result) => result.results as Record<string, unknown>[]);
  }
  // A store's drizzle database is built over its storage (durable-objects/organization-hub.ts).
  const storage = (db as unknown as { $client: DurableObjectStorage }).$client;
  return storage.transactionSync(() =>
    statements.map((statement) => storage.sql.exec(statement.sql, ...statement.params).toArray()),
  );
}
