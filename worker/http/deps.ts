import { globalDb, type Db, type OrganizationDb } from "../db/client";
import type { Env } from "../env";

/**
 * What a service needs beyond its arguments: D1 for what is global, the settings and a way to
 * finish work after the answer has been sent (the request's `waitUntil`).
 */
export interface Deps {
  /** D1: what is global (users, organizations, memberships, connections, the store registry). */
  db: Db;
  env: Env;
  defer: (work: Promise<unknown>) => void;
}

/**
 * What code running in an organization's store has besides (contract section 15, decision
 * 0076): the organization's own data, and whether the store is past its room
 * (worker/stores/store-room.ts). Only the store builds it, so a function that takes it runs there.
 */
export interface StoreDeps extends Deps {
  orgDb: OrganizationDb;
  storeFull: () => boolean;
}

/** Deps outside a request: a cron run, finishing work with its `waitUntil`. */
export const depsForBackground = (env: Env, waitUntil: (p: Promise<unknown>) => void): Deps => ({
  db: globalDb(env),
  env,
  defer: waitUntil,
});

/** The store's deps for its jobs, replies and deliveries (durable-objects/organization-hub.ts). */
export const buildStoreDeps = (
  env: Env,
  waitUntil: (p: Promise<unknown>) => void,
  orgDb: OrganizationDb,
  storeFull: () => boolean,
): StoreDeps => ({ ...depsForBackground(env, waitUntil), orgDb, storeFull });
