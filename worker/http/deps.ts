import type { Db, OrganizationDb } from "../db/client";
import { databasesOf } from "../db/places";
import type { Env } from "../env";

/**
 * What a service needs beyond its arguments: the databases, the settings and a way to finish
 * work after the answer has been sent (the request's `waitUntil`).
 */
export interface Deps {
  /** D1: what is global (users, organizations, memberships, connections, the store registry). */
  db: Db;
  /**
   * The organization's own data (contract section 15, decision 0052): D1 while the code runs in
   * the Worker, the store's SQLite when it runs in the store. Never joined or batched with `db`.
   */
  orgDb: OrganizationDb;
  env: Env;
  defer: (work: Promise<unknown>) => void;
  /**
   * Whether the organization's store is past its room (worker/stores/store-room.ts); absent
   * while its data is in D1.
   */
  storeFull?: () => boolean;
}

/** Deps outside a request: a cron run or a Durable Object, finishing work with its `waitUntil`. */
export function depsForBackground(
  env: Env,
  waitUntil: (p: Promise<unknown>) => void,
  orgDb?: OrganizationDb,
  storeFull?: () => boolean,
): Deps {
  const databases = databasesOf(env);
  return {
    db: databases.db,
    orgDb: orgDb ?? databases.orgDb,
    env,
    defer: waitUntil,
    ...(storeFull && { storeFull }),
  };
}
