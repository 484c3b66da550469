/**
 * The store registry (contract section 15, docs/decisions/0052): which Durable Object holds an
 * organization's store. Code reaches a store only through `organizationStore`, by the
 * registry's `store_id` and jurisdiction, never by a name made from the organization id.
 */
import { and, eq, inArray, lt, ne, or } from "drizzle-orm";
import { createDb, inD1, type Db } from "../db/client";
import type { Deps } from "../http/deps";
import { uuidv7 } from "../db/ids";
import { deletedOrganizations, organizationStores } from "../db/schema";
import type { Env } from "../env";
import type { StoreJurisdiction, StoreState } from "./contract";
import { ALL_DATA_VERSION, STORE_TABLES, type StoreTable } from "./store-tables";
import { isEeaCountry } from "./jurisdiction";
import { STORE_SCHEMA_VERSION } from "../../durable-objects/store-migrations";

export interface StoreRoute {
  storeId: string;
  jurisdiction: StoreJurisdiction | null;
  /** Where the organization's data is (`d1` until it has moved). */
  state: StoreState;
  /** While `switching`: where it is going. */
  movingTo: "d1" | "store" | null;
  /** The store migration its data was last moved at (`STORE_TABLES[…].since`). */
  dataVersion: number;
}

/**
 * How long a Worker keeps an organization's route without reading the registry again. A route
 * changes when an organization's data moves (its state) or a store is restored (its id); a
 * move holds the organization in `switching`, where writes wait, for longer than this, so no
 * Worker writes to the old place after the switch.
 */
const DEFAULT_ROUTE_TTL_SECONDS = 30;
export const routeTtlMs = (env: Env) =>
  Number(env.STORE_ROUTE_TTL_SECONDS ?? DEFAULT_ROUTE_TTL_SECONDS) * 1000;
const routes = new Map<string, { route: StoreRoute; readAt: number }>();

/** The organization was deleted: its registry row is gone and `deleted_organizations` says so. */
export class OrganizationGone extends Error {
  constructor(organizationId: string) {
    super(`organization ${organizationId} has no store in the registry`);
  }
}

const wasDeleted = async (env: Env, organizationId: string) =>
  (await createDb(env.DB).query.deletedOrganizations.findFirst({
    where: eq(deletedOrganizations.organizationId, organizationId),
    columns: { organizationId: true },
  })) !== undefined;

export async function storeRoute(env: Env, organizationId: string): Promise<StoreRoute> {
  const known = routes.get(organizationId);
  if (known && Date.now() - known.readAt < routeTtlMs(env)) return known.route;
  return freshStoreRoute(env, organizationId);
}

/**
 * The route as the registry has it now, which this isolate keeps from then on: for what must
 * not act on a move that has just ended as if it were still under way.
 */
export async function freshStoreRoute(env: Env, organizationId: string): Promise<StoreRoute> {
  const now = Date.now();
  const row = await createDb(env.DB).query.organizationStores.findFirst({
    where: eq(organizationStores.organizationId, organizationId),
    columns: {
      storeId: true,
      jurisdiction: true,
      state: true,
      movingTo: true,
      dataVersion: true,
    },
  });
  // Every organization has one: made with it, and by migration 0014 for those before. Gone
  // only with evidence: a row missing for another reason (a table rebuilt, a restore) is an
  // error to put work off for, never a reason to erase a store.
  if (!row) {
    if (await wasDeleted(env, organizationId)) throw new OrganizationGone(organizationId);
    throw new Error(`organization ${organizationId} has no store in the registry`);
  }
  routes.set(organizationId, { route: row, readAt: now });
  return row;
}

/** The organization's store: its Durable Object (sockets, jobs and, as they move, its data). */
export async function organizationStore(env: Env, organizationId: string) {
  return storeAt(env, await storeRoute(env, organizationId));
}

/**
 * A store answered that it is not this organization's (`serves`: a registry pointing at another
 * organization's store). Nothing may read that as empty: the call fails.
 */
export const storeRefused = (organizationId: string, what: string) =>
  new Error(`the store of ${organizationId} refused ${what}`);

/** The store a route names. */
export function storeAt(env: Env, { storeId, jurisdiction }: StoreRoute) {
  const namespace = jurisdiction
    ? env.ORGANIZATION_HUB.jurisdiction(jurisdiction)
    : env.ORGANIZATION_HUB;
  return namespace.getByName(storeId);
}

/**
 * The registry row of a new organization, for the batch that creates it: a store id of its
 * own, in the EU jurisdiction for an organization in the EEA where the deployment asks for it
 * (`EU_STORES=1`: workerd has no jurisdictions, so local runs and tests leave it off).
 */
export function registerStore(db: Db, env: Env, organization: { id: string; country: string }) {
  const inEu = env.EU_STORES === "1" && isEeaCountry(organization.country);
  return db.insert(organizationStores).values({
    organizationId: organization.id,
    storeId: uuidv7(),
    jurisdiction: inEu ? "eu" : null,
    // A new organization's data starts in its store (decision 0054).
    state: "store",
    dataVersion: STORE_SCHEMA_VERSION,
  });
}

/**
 * Whether all the organization's data is in its store: moved there at ALL_DATA_VERSION or
 * later, and while a later move switches (its reads stay there until it finishes).
 */
export function allDataInStore(route: StoreRoute) {
  return route.state !== "d1" && route.dataVersion >= ALL_DATA_VERSION;
}

/**
 * Whether a table's rows of this organization are in its store: once it has moved there with
 * the table (`dataVersion`), and while a later move switches (the move copies other tables, or
 * brings these back to D1: they are read where they are until it finishes).
 */
export function tableIsInStore(
  route: Pick<StoreRoute, "state" | "dataVersion">,
  table: StoreTable,
) {
  return route.state !== "d1" && route.dataVersion >= STORE_TABLES[table].since;
}

/** Organization ids bound per statement, within D1's 100 parameters (the state takes one). */
const IDS_PER_STATEMENT = 90;

/**
 * Of these organizations, those whose data `orgDb` holds, for a job sweeping it: in a store,
 * its own; over D1, those whose data is in D1 now. D1 keeps a moved organization's rows as they
 * were when it moved (decision 0054): a sweep over D1 leaves them alone, and that
 * organization's store runs its jobs.
 */
export async function organizationsServedBy(
  { db, orgDb }: Pick<Deps, "db" | "orgDb">,
  organizationIds: string[],
) {
  if (!inD1(orgDb)) return new Set(organizationIds);
  const served = new Set<string>();
  for (let i = 0; i < organizationIds.length; i += IDS_PER_STATEMENT) {
    const rows = await db
      .select({ id: organizationStores.organizationId })
      .from(organizationStores)
      .where(
        and(
          inArray(
            organizationStores.organizationId,
            organizationIds.slice(i, i + IDS_PER_STATEMENT),
          ),
          // Still served by D1 while its rows are copied to its store (the pass after the
          // switch carries what the job changed), and while its store holds only part of its
          // data (moved before ALL_DATA_VERSION: the jobs' tables are still in D1).
          or(
            eq(organizationStores.state, "d1"),
            and(
              inArray(organizationStores.state, ["copying", "store"]),
              lt(organizationStores.dataVersion, ALL_DATA_VERSION),
            ),
          ),
        ),
      );
    for (const row of rows) served.add(row.id);
  }
  return served;
}

/**
 * The organizations whose move is switching: D1's cron leaves their rows alone until it ends
 * (a deletion then would fail the move's check, or miss its last copy).
 */
export async function switchingOrganizations(db: Db) {
  const rows = await db
    .select({ id: organizationStores.organizationId })
    .from(organizationStores)
    .where(eq(organizationStores.state, "switching"));
  return rows.map((row) => row.id);
}

/**
 * Records how many webhook parts the organization's store has set aside (what `stores list`
 * flags). Only a change is written; a failure is logged and the next count tells it again.
 */
export async function reportStuckParts(env: Env, organizationId: string, stuckParts: number) {
  await createDb(env.DB)
    .update(organizationStores)
    .set({ stuckParts })
    .where(
      and(
        eq(organizationStores.organizationId, organizationId),
        ne(organizationStores.stuckParts, stuckParts),
      ),
    )
    .catch((error: unknown) => console.error("stuck parts not reported", organizationId, error));
}
