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
   * The organization's own data (contract section 15, decision 0075): the store's SQLite when the
   * code runs in the store; in the Worker, D1, which holds no organization's data. Never joined
   * or batched with `db`.
   */
  orgDb: OrganizationDb;
  env: Env;
  defer: (work: Promise<unknown>) => void;
  /**
   * Whether the organization's store is past its room (worker/stores/store-room.ts); absent
   * outside a store.
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
