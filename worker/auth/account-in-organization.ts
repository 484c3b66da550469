/**
 * What an account's sign-in, export and deletion read and write the same way in D1 and in an
 * organization's store: pages of a table's rows, the usual addresses among a trail's sign-ins,
 * forgetting a person in an audit trail (the account's own in D1, or an organization's). What
 * runs only in an organization's store is durable-objects/auth/account-data.ts.
 */
import {
  and,
  asc,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNotNull,
  or,
  sql,
  type SQL,
} from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { AnyDb } from "../db/client";
import type { accountAuditEvents } from "../db/global-schema";
import type { auditEvents } from "../../durable-objects/schema";

/** Rows read per query while exporting: one page is all of a list the export holds at once. */
export const EXPORT_PAGE_SIZE = 500;

/** Who an account is, as its organizations' data names them. */
export interface Person {
  id: string;
  email: string;
}

/** A row of a list the export holds, as drizzle reads it. */
export type ExportRow = Record<string, unknown>;

/** An audit trail: an account's own (D1) or an organization's (its store), of the same columns. */
export type AuditTrail = typeof auditEvents | typeof accountAuditEvents;

/** One page of `table`'s rows matching `scope` after the id `after`, in id order. */
export function pageOfRows(
  db: AnyDb,
  table: SQLiteTable & { id: SQLiteColumn },
  scope: SQL,
  /** Which columns, by their name in the document (`id` among them: it is the cursor). */
  columns: Record<string, SQLiteColumn> = getTableColumns(table),
  after = "",
): Promise<ExportRow[]> {
  return db
    .select(columns)
    .from(table)
    .where(and(scope, gt(table.id, after)))
    .orderBy(asc(table.id))
    .limit(EXPORT_PAGE_SIZE);
}

/** An account's sign-in entries among `entries` since `since` (their addresses are kept). */
export const usualAddressesAmong = (
  trail: AuditTrail,
  entries: SQL,
  userId: SQLiteColumn | string,
  since: string,
) =>
  and(
    entries,
    eq(trail.userId, userId),
    inArray(trail.action, ["auth.login", "auth.register"]),
    isNotNull(trail.ip),
    gt(trail.createdAt, since),
  );

/** A list of the export held in an organization's data: the person's rows there. */
export interface ExportList {
  name: "audit_events" | "mentions" | "notes";
  userId: string;
}

/** The audit entries among `entries` naming the person, stripped of their e-mail and address. */
export function forgetInTrail(db: AnyDb, trail: AuditTrail, entries: SQL, person: Person) {
  return [
    db
      .update(trail)
      .set({ ip: null, metadata: sql`json_remove(${trail.metadata}, '$.email')` })
      .where(
        and(
          entries,
          or(
            eq(trail.userId, person.id),
            sql`json_extract(${trail.metadata}, '$.email') = ${person.email}`,
          ),
        ),
      ),
    db
      .update(trail)
      .set({ target: null })
      .where(and(entries, eq(trail.target, person.email))),
  ] as const;
}
