/**
 * An organization's data as the tests reach it: in its store's SQLite (contract section 15).
 * Global tables (users, sessions, rate limits, organizations, memberships, invitations, the
 * connections, the registry) are read with `env.DB`; so are an account's own audit entries (no
 * organization).
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { createStoreDb, orgStatements, type OrganizationDb } from "../../durable-objects/db";
import type { OrganizationHub } from "../../durable-objects/organization-hub";
import type { StoreDeps } from "../../worker/http/deps";
import { organizationStore } from "../../worker/stores/registry";
import { STORE_FULL_BYTES } from "../../durable-objects/store-room";

type Row = Record<string, unknown>;

/** Runs `work` on the organization's data with drizzle, in its store. */
export async function withOrgDb<T>(
  organizationId: string,
  work: (db: OrganizationDb) => T | Promise<T>,
): Promise<T> {
  return runInDurableObject(await organizationStore(env, organizationId), (_, state) =>
    work(createStoreDb(state.storage)),
  );
}

/**
 * Runs `work` in the organization's store with the deps the store gives its own code: its data,
 * its sockets and its jobs, in place.
 */
export async function withStoreDeps<T>(
  organizationId: string,
  work: (deps: StoreDeps) => T | Promise<T>,
): Promise<T> {
  return runInDurableObject(await organizationStore(env, organizationId), (instance) =>
    work((instance as unknown as { depsFor(id: string): StoreDeps }).depsFor(organizationId)),
  );
}

/** Runs plain statements on the organization's data as one unit; each one's rows. */
export function orgSqlBatch(
  organizationId: string,
  statements: { sql: string; params?: unknown[] }[],
): Promise<Row[][]> {
  return withOrgDb(organizationId, (db) =>
    orgStatements(
      db,
      statements.map(({ sql, params = [] }) => ({ sql, params })),
    ),
  );
}

/** The rows of one plain statement on the organization's data, by column name. */
export async function orgSql<T extends Row = Row>(
  organizationId: string,
  sql: string,
  ...params: unknown[]
): Promise<T[]> {
  const [rows] = await orgSqlBatch(organizationId, [{ sql, params }]);
  return rows as T[];
}

/** The first row of one plain statement on the organization's data, or null. */
export async function orgFirst<T extends Row = Row>(
  organizationId: string,
  sql: string,
  ...params: unknown[]
): Promise<T | null> {
  return (await orgSql<T>(organizationId, sql, ...params))[0] ?? null;
}

/**
 * Makes the organization's store full (or gives it its room back) without writing 9 GB: the
 * live store's size limit is lowered to nothing, or set back to the product's.
 */
export async function setStoreFull(organizationId: string, full: boolean) {
  const store = await organizationStore(env, organizationId);
  await runInDurableObject(store, (instance: OrganizationHub) => {
    instance.fullAtBytes = full ? 0 : STORE_FULL_BYTES;
  });
}
