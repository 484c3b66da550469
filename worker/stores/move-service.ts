/**
 * Moving an organization's data between D1 and its store, copy then switch (contract section
 * 15, decisions 0052 and 0065), in steps the operator's command drives (`npm run stores -- move`):
 * 1. `beginMove`: the organization is `copying`; it goes on working where its data is.
 * 2. `copyPage`, table by table in `STORE_TABLES`' order (parents before the rows that name
 *    them), page by page in key order: the destination's rows in the page's key range become the
 *    source's (`applySync`). The source keeps changing meanwhile: a row it cannot take yet (its
 *    parent came after its table was copied) is left for step 4.
 *    Into its store, each page is checked as it is written (count and checksum of the page on
 *    both sides), and D1's triggers record every key written since the move began
 *    (`move_changes`, decision 0070).
 * 3. Into its store, `syncChanges` copies again, a few keys at a time, the rows written since
 *    their page was copied, and checks them the same way: before the switch, so that little is
 *    left for it; after it, until none is left.
 * 4. `switchMove`: the organization is `switching`: its writes answer 503 and its deliveries are
 *    held. Workers keep an organization's route for a while (`STORE_ROUTE_TTL_SECONDS`), and a
 *    request that read it may still be writing: the next steps wait twice that long. Then
 *    step 3 again into its store; back to D1, `copyPage` again over every table (with nothing
 *    writing, it carries what changed since its page was copied), again while a pass both
 *    writes and refuses rows (a unique value freed by a row of a later page).
 * 5. `finishMove`: into its store, every table's row count must match on both sides and no key
 *    be left to copy again; back to D1, every table's count and checksum (keys and values).
 *    Then the organization is where its data went, else back where it was, with the tables that
 *    differ. The deliveries held meanwhile are applied by the store's job, after it answers.
 * Moving to the store takes every table in `STORE_TABLES`; moving an organization already in
 * its store again copies the tables added since it moved (`data_version`). D1's rows stay
 * where they were, for `move --back`.
 */
import { and, asc, count, eq, gt, inArray, isNull, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { moveChanges, organizationStores } from "../db/schema";
import type { Env } from "../env";
import { AppError, notFound } from "../http/errors";
import type { Deps } from "../http/deps";
import { STORE_SCHEMA_VERSION } from "../../durable-objects/store-migrations";
import type { TableSummary } from "./row-checksum";
import { routeTtlMs, storeAt, storeRefused } from "./registry";
import { scheduleStoreJob } from "./store-jobs";
import { D1_COPY_KEPT_MS } from "./d1-copies";
import { keepStoreCopyAWhile } from "./store-copies";
import {
  ALL_DATA_VERSION,
  applySync,
  countOf,
  keyColumnsOf,
  keyOf,
  pageOf,
  rowsOfKeys,
  STORE_TABLE_NAMES,
  STORE_TABLES,
  summaryOf,
  summaryOfRows,
  type StoreRow,
  type StoreTable,
} from "./store-tables";

/** Rows a copy step moves: one RPC, a few D1 statements. */
export const MOVE_PAGE_SIZE = 500;

const conflict = (message: string) => new AppError(409, "conflict", message);
const notMoving = () => conflict("La organización no se está trasladando.");
/** The registry's states a step may leave: `finish` only a switch, `abort` any move. */
const isSwitching = eq(organizationStores.state, "switching");
const isMoving = inArray(organizationStores.state, ["copying", "switching"]);
/** The move a step read, not one started since: its direction and its switch. */
const sameMove = (row: RegistryRow) =>
  and(
    row.movingTo === null
      ? isNull(organizationStores.movingTo)
      : eq(organizationStores.movingTo, row.movingTo),
    row.switchingSince === null
      ? isNull(organizationStores.switchingSince)
      : eq(organizationStores.switchingSince, row.switchingSince),
  );

type RegistryRow = typeof organizationStores.$inferSelect;

/** Where a move started: back there if it fails or is abandoned. */
const origin = (row: RegistryRow) =>
  row.movingTo === "store" && row.dataVersion === 0 ? ("d1" as const) : ("store" as const);

/**
 * The tables a move copies: to the store, those it does not serve yet (all of them the first
 * time, the ones added since on a later move); back to D1, those it serves.
 */
const tablesToMove = (to: "d1" | "store", dataVersion: number) =>
  STORE_TABLE_NAMES.filter((table) =>
    to === "store"
      ? STORE_TABLES[table].since > dataVersion
      : STORE_TABLES[table].since <= dataVersion,
  );

async function registryRow(db: Db, organizationId: string) {
  const row = await db.query.organizationStores.findFirst({
    where: eq(organizationStores.organizationId, organizationId),
  });
  if (!row) throw notFound("Organización no encontrada.");
  return row;
}

/**
 * Starts a move to `to`: the organization is `copying`, still served where its data is. An
 * organization whose store already holds every table has nothing to move (`copy_from` null),
 * so that `move --all` passes over it.
 */
export async function beginMove({ db }: Deps, organizationId: string, to: "d1" | "store") {
  const current = await registryRow(db, organizationId);
  if (to === "store" && current.state === "store") {
    const tables = tablesToMove(to, current.dataVersion);
    if (tables.length === 0) return { tables, copy_from: null };
  }
  const from = to === "store" ? ["d1", "store"] : ["store"];
  const now = new Date().toISOString();
  const [row] = await db
    .update(organizationStores)
    .set({ state: "copying", movingTo: to, switchingSince: null, updatedAt: now })
    .where(
      and(
        eq(organizationStores.organizationId, organizationId),
        inArray(organizationStores.state, from as ("d1" | "store")[]),
      ),
    )
    .returning();
  if (!row) {
    const state = (await registryRow(db, organizationId)).state;
    throw conflict(`La organización está en «${state}»: no se puede trasladar a ${to}.`);
  }
  // What an earlier move that did not end left: copied again for nothing.
  await forgetChanges(db, organizationId);
  return { tables: tablesToMove(to, row.dataVersion), copy_from: now };
}

/**
 * Holds the organization's writes and deliveries for the end of its move; answers when the
 * copy may go on (`sync_from`), once no Worker can still write the old way.
 */
export async function switchMove({ db, env }: Deps, organizationId: string) {
  const now = new Date();
  const [row] = await db
    .update(organizationStores)
    .set({ state: "switching", switchingSince: now.toISOString(), updatedAt: now.toISOString() })
    .where(
      and(
        eq(organizationStores.organizationId, organizationId),
        eq(organizationStores.state, "copying"),
      ),
    )
    .returning();
  if (!row) throw conflict("La organización no se está copiando: empieza con move.");
  return { sync_from: new Date(now.getTime() + quietAfterSwitchMs(env)).toISOString() };
}

/**
 * How long after the switch nothing writes the old way any more: a Worker keeps a route for
 * its lifetime, and a request or a job's run that read it just before may go on writing for
 * a while (a send waits for Meta, 15 s at most, and for its turns): twice the lifetime.
 */
const quietAfterSwitchMs = (env: Env) => 2 * routeTtlMs(env);

/**
 * The organization mid-move: copying, or switching once no Worker can still write the old way
 * (what `finish` needs: `switched`).
 */
async function movingRow(db: Db, env: Env, organizationId: string, switched: boolean) {
  const row = await registryRow(db, organizationId);
  const moving = switched ? row.state === "switching" : row.state !== "d1" && row.state !== "store";
  if (!moving || !row.movingTo) {
    throw conflict(
      switched
        ? "La organización no está en el cambio: copia y luego switch."
        : "La organización no se está trasladando: empieza con move.",
    );
  }
  if (row.state === "switching") {
    const syncFrom = Date.parse(row.switchingSince!) + quietAfterSwitchMs(env);
    if (Date.now() < syncFrom) {
      throw conflict(
        `Aún puede haber Workers que escriban donde estaba: copia desde ${new Date(syncFrom).toISOString()}.`,
      );
    }
  }
  return { ...row, movingTo: row.movingTo, tables: tablesToMove(row.movingTo, row.dataVersion) };
}

/**
 * Copies one page of `table` after the key `after` ("" for the first); `next` is null at the
 * end. The destination's rows between `after` and the page's last key (to the end, on the last
 * page) become the page's: `copied` rows read, `changed` rows written or deleted, `refused`
 * rows the destination could not take yet. Into its store, a page whose rows there differ from
 * D1's afterwards has its keys copied again by `syncChanges`.
 */
export async function copyPage(
  deps: Deps,
  organizationId: string,
  table: StoreTable,
  after: string,
) {
  const { db, orgDb, env } = deps;
  const row = await movingRow(db, env, organizationId, false);
  if (!row.tables.includes(table)) throw conflict(`Este traslado no copia ${table}.`);
  const store = storeAt(env, row);
  const toStore = row.movingTo === "store";
  const rows = toStore
    ? await pageOf(orgDb, organizationId, table, after, MOVE_PAGE_SIZE)
    : await store.page(organizationId, table, after, MOVE_PAGE_SIZE);
  if (!rows) throw storeRefused(organizationId, "the move's copy");
  const next = rows.length === MOVE_PAGE_SIZE ? keyOf(table, rows.at(-1)!) : null;
  const range = { after, upTo: next };
  const written = toStore
    ? await store.syncRows(organizationId, table, rows, range)
    : await applySync(orgDb, organizationId, table, rows, range);
  if (!written) throw storeRefused(organizationId, "the move's copy");
  if (toStore && !sameSummary(summaryOfRows(table, rows), written.summary)) {
    await copyAgain(db, organizationId, table, rows);
  }
  return { copied: rows.length, changed: written.changed, refused: written.refused, next };
}

const sameSummary = (a: TableSummary, b: TableSummary) =>
  a.count === b.count && a.checksum === b.checksum;

/** Keys `syncChanges` copies again, as D1's triggers record them (migration 0027). */
async function copyAgain(db: Db, organizationId: string, table: StoreTable, rows: StoreRow[]) {
  const keys = rows.map((row) => JSON.stringify(keyColumnsOf(table, row)));
  // Three parameters a row: D1 binds 100 a statement.
  for (let i = 0; i < keys.length; i += 30) {
    const values = keys.slice(i, i + 30).map((key) => sql`(${organizationId}, ${table}, ${key})`);
    await db.run(
      sql`INSERT OR REPLACE INTO move_changes (organization_id, table_name, key) VALUES ${sql.join(values, sql`, `)}`,
    );
  }
}

/** Keys `syncChanges` reads a step. */
export const CHANGES_PAGE_SIZE = 500;

/**
 * Into its store: copies again the rows of the keys D1 recorded as written since the move
 * began (`move_changes`, after the `seq` `after`; 0 for the first), a step at a time, and
 * checks each table's share (count and checksum on both sides). A key copied and matching is
 * forgotten, unless written again meanwhile (a newer `seq`); one that does not match (a row
 * whose parent comes later in the pass) stays for the next pass, and `finish` finds what is
 * left. Answers, by table, the keys `synced` (matching) and `refused`, and the rows `changed`;
 * `next`, null at the end of the pass; `remaining`, the keys left to copy again.
 */
export async function syncChanges(deps: Deps, organizationId: string, after: number) {
  const { db, orgDb, env } = deps;
  const row = await movingRow(db, env, organizationId, false);
  if (row.movingTo !== "store") {
    throw conflict("De vuelta a D1 se copian de nuevo todas las páginas: usa copy.");
  }
  const store = storeAt(env, row);
  const changes = await db
    .select()
    .from(moveChanges)
    .where(and(eq(moveChanges.organizationId, organizationId), gt(moveChanges.seq, after)))
    .orderBy(asc(moveChanges.seq))
    .limit(CHANGES_PAGE_SIZE);
  const byTable = new Map<string, typeof changes>();
  for (const change of changes) {
    const ofTable = byTable.get(change.tableName) ?? [];
    ofTable.push(change);
    byTable.set(change.tableName, ofTable);
  }
  const tables: Partial<Record<StoreTable, { synced: number; changed: number; refused: number }>> =
    {};
  const done: number[] = [];
  for (const [name, ofTable] of byTable) {
    const seqs = ofTable.map((change) => change.seq);
    const table = name as StoreTable;
    if (!row.tables.includes(table)) {
      // A table its store already serves: written there, not here.
      done.push(...seqs);
      continue;
    }
    const keys = ofTable.map((change) => JSON.parse(change.key) as string[]);
    const rows = await rowsOfKeys(orgDb, organizationId, table, keys);
    const written = await store.syncRows(organizationId, table, rows, { keys });
    if (!written) throw storeRefused(organizationId, "the move's copy");
    const matches = sameSummary(summaryOfRows(table, rows), written.summary);
    if (matches) done.push(...seqs);
    tables[table] = {
      synced: matches ? keys.length : 0,
      changed: written.changed,
      refused: matches ? 0 : keys.length,
    };
  }
  for (let i = 0; i < done.length; i += 90) {
    await db.delete(moveChanges).where(inArray(moveChanges.seq, done.slice(i, i + 90)));
  }
  const remaining = await pendingChanges(db, organizationId);
  const next = changes.length === CHANGES_PAGE_SIZE ? changes.at(-1)!.seq : null;
  return { tables, remaining, next };
}

/** Keys D1 recorded as written since the organization's move began, not copied again yet. */
async function pendingChanges(db: Db, organizationId: string, table?: string) {
  const [row] = await db
    .select({ count: count() })
    .from(moveChanges)
    .where(
      and(
        eq(moveChanges.organizationId, organizationId),
        table === undefined ? undefined : eq(moveChanges.tableName, table),
      ),
    );
  return row?.count ?? 0;
}

/** The keys D1 recorded for a move, forgotten when it begins and ends. */
const forgetChanges = (db: Db, organizationId: string) =>
  db.delete(moveChanges).where(eq(moveChanges.organizationId, organizationId));

export interface TableCheck {
  table: StoreTable;
  /** Back to D1, the checksum of every row too. */
  d1: { count: number; checksum?: string };
  store: { count: number; checksum?: string };
  /** Into its store: keys written in D1 and not copied again (nothing else may differ). */
  pending: number;
}

/**
 * Checks every table on both sides and switches the organization to where its data went, or,
 * when a figure differs, back to where it was. Into its store, what was copied was checked a
 * page or a few keys at a time: the counts and the keys left to copy again decide, so that the
 * switch never reads every row again. Back to D1, every row's checksum. Answers the figures
 * either way, and the tables that differ.
 */
export async function finishMove({ db, orgDb, env }: Deps, organizationId: string) {
  const row = await movingRow(db, env, organizationId, true);
  const store = storeAt(env, row);
  const checks: TableCheck[] = [];
  for (const table of row.tables) {
    checks.push(
      row.movingTo === "store"
        ? await countsOf(db, orgDb, store, organizationId, table)
        : await checksumsOf(orgDb, store, organizationId, table),
    );
  }
  const differing = checks
    .filter(
      (c) => c.d1.count !== c.store.count || c.d1.checksum !== c.store.checksum || c.pending > 0,
    )
    .map((c) => c.table);
  const matches = differing.length === 0;
  const state = matches ? row.movingTo : origin(row);
  const [switched] = await db
    .update(organizationStores)
    .set({
      state,
      movingTo: null,
      switchingSince: null,
      ...(matches && { dataVersion: state === "store" ? STORE_SCHEMA_VERSION : 0 }),
      d1CopyUntil: d1CopyUntil(state),
      updatedAt: new Date().toISOString(),
    })
    // Only the move it checked: one abandoned meanwhile stays abandoned (its D1 took writes).
    .where(and(eq(organizationStores.organizationId, organizationId), isSwitching, sameMove(row)))
    .returning({ state: organizationStores.state });
  if (!switched) throw notMoving();
  await forgetChanges(db, organizationId);
  // First: a failure below answers the operator with an error, and the move cannot be finished
  // again.
  if (leavesStoreCopy(state, matches ? STORE_SCHEMA_VERSION : row.dataVersion)) {
    await keepStoreCopyAWhile(env, organizationId);
  }
  await deliverHeldSoon(env, organizationId, matches && state === "store");
  return { moved: matches, state, checks, differing };
}

type StoreStub = ReturnType<typeof storeAt>;

async function countsOf(
  db: Db,
  orgDb: Deps["orgDb"],
  store: StoreStub,
  organizationId: string,
  table: StoreTable,
): Promise<TableCheck> {
  const [d1, inStore, pending] = await Promise.all([
    countOf(orgDb, organizationId, table),
    store.count(organizationId, table),
    pendingChanges(db, organizationId, table),
  ]);
  if (inStore === null) throw storeRefused(organizationId, "the move's check");
  return { table, d1: { count: d1 }, store: { count: inStore }, pending };
}

async function checksumsOf(
  orgDb: Deps["orgDb"],
  store: StoreStub,
  organizationId: string,
  table: StoreTable,
): Promise<TableCheck> {
  const [d1, inStore] = await Promise.all([
    summaryOf(orgDb, organizationId, table),
    store.summary(organizationId, table),
  ]);
  if (!inStore) throw storeRefused(organizationId, "the move's check");
  return { table, d1, store: inStore, pending: 0 };
}

/**
 * The deliveries its store held while the organization moved, applied where its data now is by
 * the store's `held_deliveries` job, after the step has answered (they may be many: a long
 * switch); with them, into its store, the Conversions API retries D1 had waiting (the cron over
 * D1 leaves them).
 */
async function deliverHeldSoon(env: Env, organizationId: string, withConversions: boolean) {
  await scheduleStoreJob(env, organizationId, "held_deliveries", Date.now());
  if (withConversions) await scheduleStoreJob(env, organizationId, "capi", Date.now());
}

/**
 * Whatever way a move ends, the side that does not serve a table may hold rows of it: the old
 * data, or a copy the move wrote. Each side's copy is removed 30 days later. D1's: the tables
 * its store serves, once the organization is in its store (the daily cron, d1-copies.ts).
 */
const d1CopyUntil = (state: "d1" | "store") =>
  state === "store" ? new Date(Date.now() + D1_COPY_KEPT_MS).toISOString() : null;

/** The store's: what is in D1, all of it or the tables added since it moved (store-copies.ts). */
const leavesStoreCopy = (state: "d1" | "store", dataVersion: number) =>
  state === "d1" || dataVersion < ALL_DATA_VERSION;

/** Abandons a move: the organization stays where its data was. */
export async function abortMove({ db, env }: Deps, organizationId: string) {
  const row = await registryRow(db, organizationId);
  if ((row.state !== "copying" && row.state !== "switching") || !row.movingTo) throw notMoving();
  const back = origin(row);
  const [abandoned] = await db
    .update(organizationStores)
    .set({
      state: back,
      movingTo: null,
      switchingSince: null,
      d1CopyUntil: d1CopyUntil(back),
      updatedAt: new Date().toISOString(),
    })
    // Not a move that `finish` ended meanwhile.
    .where(and(eq(organizationStores.organizationId, organizationId), isMoving, sameMove(row)))
    .returning({ state: organizationStores.state });
  if (!abandoned) throw notMoving();
  await forgetChanges(db, organizationId);
  if (leavesStoreCopy(back, row.dataVersion)) await keepStoreCopyAWhile(env, organizationId);
  await deliverHeldSoon(env, organizationId, false);
  return { state: back };
}
