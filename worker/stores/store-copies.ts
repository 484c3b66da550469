/**
 * What a store keeps of an organization's data that it does not serve: the rows a move back
 * left, or a move into the store that was abandoned or failed its check (all the tables while
 * the data is in D1; the tables added since it moved, for an organization moved before
 * ALL_DATA_VERSION whose other tables stay in D1). For a while they let a move again
 * write only the differences (decision 0065); after `STORE_COPY_KEPT_MS` the store's own job
 * (`store_copy`) removes them, so that no copy outlives the retention and erasure that D1's data
 * gets. The mirror of D1's copy after a move into the store (d1-copies.ts).
 */
import type { OrganizationDb } from "../db/client";
import type { Env } from "../env";
import { D1_COPY_KEPT_MS } from "./d1-copies";
import { freshStoreRoute, tableIsInStore } from "./registry";
import { scheduleStoreJob } from "./store-jobs";
import { STORE_TABLE_NAMES, removeCopiedRows } from "./store-tables";

export const STORE_COPY_KEPT_MS = D1_COPY_KEPT_MS;
/** Statements per run (the alarm serves replies too). */
const MAX_STATEMENTS = 50;

/**
 * After a move ends with tables of the organization in D1 that its store holds a copy of: the
 * store's copy is removed 30 days after the latest such move (never the earlier date of one
 * before it). A failure is logged, not raised: the move itself has ended.
 */
export async function keepStoreCopyAWhile(env: Env, organizationId: string) {
  try {
    const until = Date.now() + STORE_COPY_KEPT_MS;
    await scheduleStoreJob(env, organizationId, "store_copy", until, true);
  } catch (error) {
    console.error("the store's copy was not given its removal", organizationId, error);
  }
}

/**
 * Removes a bounded part of the store's copy (`data`, the store's own SQLite): the tables the
 * registry, read now, says are in D1, and only while no move is under way (a move again makes
 * the rows its own). A move that begins while the registry is read may copy pages in before
 * the deletes: its second pass reads every page again and its check compares every table, so
 * such a row is copied again or the move goes back, never lost. Answers when to go on, or null.
 */
export async function removeStoreCopy(env: Env, data: OrganizationDb, organizationId: string) {
  const route = await freshStoreRoute(env, organizationId);
  if (route.state !== "d1" && route.state !== "store") return null;
  const inD1 = STORE_TABLE_NAMES.filter((table) => !tableIsInStore(route, table));
  const budget = { statements: MAX_STATEMENTS };
  const removal = await removeCopiedRows(data, organizationId, inD1, budget, async () => true);
  return removal === "paused" ? Date.now() : null;
}
