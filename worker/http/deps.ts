import { globalDb, type Db } from "../db/client";
import type { OrganizationDb } from "../../durable-objects/db";
import type { Env } from "../env";
import type { RealtimeEvent } from "../../contracts/realtime";
import type { StoreJobName } from "../stores/contract";
import type { OrganizationFacts } from "../../durable-objects/organization-facts";

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
 * What the organization's store does for its own code, in place: never a call from the store
 * to itself (decision 0086). Events published while a delivery's transaction runs are sent once
 * it has committed, so a transaction rolled back announces nothing.
 */
export interface StoreCalls {
  /** Sends events, in order, to every socket of the organization. */
  publish(...events: RealtimeEvent[]): Promise<void>;
  /** Sends events to one member's sockets only (a mention is for the person named). */
  publishTo(userId: string, ...events: RealtimeEvent[]): Promise<void>;
  /** Runs one of the store's jobs at `dueAt`, or sooner if it is already due sooner. */
  schedule(job: StoreJobName, dueAt: number): Promise<void>;
  /** Transcribes freshly stored voice notes in the store's next alarm. */
  scheduleTranscripts(messageIds: string[]): Promise<void>;
  /**
   * The organization's global facts (its row, its number and sealed token), as the store keeps
   * them (decision 0136): read from D1 only when they may have changed.
   */
  facts(): Promise<OrganizationFacts>;
  /** Called by the store's own code right after it changed those facts in D1. */
  factsChanged(): Promise<void>;
}

/**
 * What code running in an organization's store has besides (contract section 15, decisions
 * 0085, 0086): the organization's own data, whether the store is past its room
 * (durable-objects/store-room.ts), and its sockets and jobs. Only the store builds it, so a
 * function that takes it runs there.
 */
export interface StoreDeps extends Deps, StoreCalls {
  orgDb: OrganizationDb;
  storeFull: () => boolean;
}

/** Deps outside a request: a cron run, finishing work with its `waitUntil`. */
export const depsForBackground = (env: Env, waitUntil: (p: Promise<unknown>) => void): Deps => ({
  db: globalDb(env),
  env,
  defer: waitUntil,
});

/** The store's deps for its requests, jobs, replies and deliveries (organization-hub.ts). */
export const buildStoreDeps = (
  env: Env,
  waitUntil: (p: Promise<unknown>) => void,
  store: { orgDb: OrganizationDb; storeFull: () => boolean; calls: StoreCalls },
): StoreDeps => ({
  ...depsForBackground(env, waitUntil),
  orgDb: store.orgDb,
  storeFull: store.storeFull,
  ...store.calls,
});
