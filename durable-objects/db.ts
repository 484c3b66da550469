/**
 * The organization's data as its store's code reads and writes it: the store's SQLite under
 * drizzle, and the two ways to run several statements as one unit. D1, for what is global, is
 * worker/db/client.ts.
 */
import type { BatchItem, BatchResponse } from "drizzle-orm/batch";
import { drizzle as drizzleStore } from "drizzle-orm/durable-sqlite";
import * as storeSchema from "./schema";

/**
 * An organization's data: its store's SQLite (contract section 15, decision 0075), synchronous
 * under drizzle's promise-shaped queries. Built once per store over its storage.
 */
export const createStoreDb = (storage: DurableObjectStorage) =>
  drizzleStore(storage, { schema: storeSchema });

export type OrganizationDb = ReturnType<typeof createStoreDb>;

type OrganizationQuery = BatchItem<"sqlite"> & { all(): unknown };

/**
 * Runs statements on the organization's data as one all-or-nothing unit, a SQLite transaction
 * in its store, and answers what each returned (the rows of a select or of `returning`).
 */
export function orgBatch<U extends OrganizationQuery, T extends Readonly<[U, ...U[]]>>(
  db: OrganizationDb,
  queries: T,
): BatchResponse<T> {
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
export function orgStatements(
  db: OrganizationDb,
  statements: PlainStatement[],
): Record<string, unknown>[][] {
  const storage = db.$client;
  return storage.transactionSync(() =>
    statements.map((statement) => storage.sql.exec(statement.sql, ...statement.params).toArray()),
  );
}
