/**
 * What D1 keeps of an organization after its move to its store (contract section 15, decision
 * 0054): its rows as they were, for 30 days, then removed by the daily cron like expired data.
 * A move back does not need them (it copies the store's rows); they are a backup, in which a
 * deleted account's person is forgotten as in the store. A move back abandoned, or sent back by
 * its check, leaves D1 such a copy too. Only the tables the store serves are a copy: an
 * organization moved before ALL_DATA_VERSION keeps the rest of its data in D1.
 */
import { and, asc, eq, isNotNull, lte } from "drizzle-orm";
import { forgetPersonIn, type Person } from "../auth/account-in-organization";
import { inD1 } from "../db/client";
import { organizationStores } from "../db/schema";
import type { Deps } from "../http/deps";
import { tableIsInStore } from "./registry";
import { STORE_TABLE_NAMES, removeCopiedRows } from "./store-tables";

export const D1_COPY_KEPT_MS = 30 * 24 * 60 * 60_000;
/** Statements per run (as the retention run's). */
const MAX_STATEMENTS = 200;

/**
 * Removes the old D1 rows of organizations whose copy has expired, children first (foreign
 * keys), in bounded batches; an organization finished is marked as having no copy. What a run
 * leaves, the next one goes on with. Answers the organizations finished.
 */
export async function removeExpiredD1Copies({ db, orgDb }: Deps, now: Date) {
  const due = await db
    .select({
      organizationId: organizationStores.organizationId,
      state: organizationStores.state,
      dataVersion: organizationStores.dataVersion,
    })
    .from(organizationStores)
    .where(
      and(
        eq(organizationStores.state, "store"),
        isNotNull(organizationStores.d1CopyUntil),
        lte(organizationStores.d1CopyUntil, now.toISOString()),
      ),
    )
    .orderBy(asc(organizationStores.d1CopyUntil));
  const budget = { statements: MAX_STATEMENTS };
  let finished = 0;
  // Still a copy to remove, read again before each statement: a move back to D1 may have begun
  // (its rows are the organization's data again, and its copy's triggers rebuild the inbox
  // counts) since the list was read.
  const stillACopy = async (organizationId: string) =>
    (await db.query.organizationStores.findFirst({
      where: and(
        eq(organizationStores.organizationId, organizationId),
        eq(organizationStores.state, "store"),
        isNotNull(organizationStores.d1CopyUntil),
      ),
      columns: { organizationId: true },
    })) !== undefined;
  for (const { organizationId, ...route } of due) {
    const served = STORE_TABLE_NAMES.filter((table) => tableIsInStore(route, table));
    // D1's inbox counts go too, though no table of a move (the store's triggers keep its own).
    const removal = await removeCopiedRows(orgDb, organizationId, served, budget, () =>
      stillACopy(organizationId),
    );
    if (removal === "paused") return finished;
    if (removal === "stopped") continue;
    await db
      .update(organizationStores)
      .set({ d1CopyUntil: null, updatedAt: now.toISOString() })
      .where(eq(organizationStores.organizationId, organizationId));
    finished += 1;
  }
  return finished;
}

/**
 * A deleted account's person forgotten in the organization's D1 copy too, when it keeps one:
 * the copy is kept for 30 days, and the person asked to be forgotten now. Runs in the Worker,
 * whose organization database is D1.
 */
export async function forgetInD1Copy({ db, orgDb }: Deps, organizationId: string, person: Person) {
  if (!inD1(orgDb)) throw new Error("a D1 copy is forgotten from the Worker, over D1");
  const row = await db.query.organizationStores.findFirst({
    where: eq(organizationStores.organizationId, organizationId),
    columns: { d1CopyUntil: true },
  });
  if (row?.d1CopyUntil) await forgetPersonIn(orgDb, organizationId, person);
}
