/**
 * The store registry (contract section 15, docs/decisions/0052): which Durable Object holds an
 * organization's store. Code reaches a store only through `organizationStore`, by the
 * registry's `store_id` and jurisdiction, never by a name made from the organization id.
 */
import { eq } from "drizzle-orm";
import { benchStore } from "../bench/deployment";
import { globalDb, type Db } from "../db/client";
import { uuidv7 } from "../db/ids";
import { deletedOrganizations, organizationStores } from "../db/global-schema";
import type { Env } from "../env";
import type { OrganizationStoreCalls } from "./store-calls";
import type { StoreJurisdiction, StoreState } from "./contract";
import { isEeaCountry } from "./jurisdiction";

export interface StoreRoute {
  storeId: string;
  jurisdiction: StoreJurisdiction | null;
  /** `store`: served; any other state is one the upgrade stop left unmoved (`store_required`). */
  state: StoreState;
}

/**
 * How long a Worker keeps an organization's route without reading the registry again: a route
 * changes only when an operator points an organization at another store.
 */
const DEFAULT_ROUTE_TTL_SECONDS = 30;
const routeTtlMs = (env: Env) =>
  Number(env.STORE_ROUTE_TTL_SECONDS ?? DEFAULT_ROUTE_TTL_SECONDS) * 1000;
const routes = new Map<string, { route: StoreRoute; readAt: number }>();

/**
 * The registry has no row for the organization: an error to put work off for (a table rebuilt,
 * a restore), never a reason to erase a store, unless it is `OrganizationGone`.
 */
export class StoreNotRegistered extends Error {
  constructor(organizationId: string) {
    super(`organization ${organizationId} has no store in the registry`);
  }
}

/** The organization was deleted: its registry row is gone and `deleted_organizations` says so. */
export class OrganizationGone extends StoreNotRegistered {}

const wasDeleted = async (env: Env, organizationId: string) =>
  (await globalDb(env).query.deletedOrganizations.findFirst({
    where: eq(deletedOrganizations.organizationId, organizationId),
    columns: { organizationId: true },
  })) !== undefined;

export async function storeRoute(env: Env, organizationId: string): Promise<StoreRoute> {
  const now = Date.now();
  const known = routes.get(organizationId);
  if (known && now - known.readAt < routeTtlMs(env)) return known.route;
  const row = await globalDb(env).query.organizationStores.findFirst({
    where: eq(organizationStores.organizationId, organizationId),
    columns: { storeId: true, jurisdiction: true, state: true },
  });
  // Every organization has one: made with it, and by migration 0014 for those before. Gone
  // only with evidence: a row missing for another reason (a table rebuilt, a restore) is an
  // error to put work off for, never a reason to erase a store.
  if (!row) {
    if (await wasDeleted(env, organizationId)) throw new OrganizationGone(organizationId);
    throw new StoreNotRegistered(organizationId);
  }
  routes.set(organizationId, { route: row, readAt: now });
  return row;
}

/** The organization's store: its Durable Object (its data, sockets and jobs). */
export async function organizationStore(env: Env, organizationId: string) {
  return storeAt(env, await storeRoute(env, organizationId));
}

/**
 * A store answered that it is not this organization's (`serves`: a registry pointing at another
 * organization's store). Nothing may read that as empty: the call fails.
 */
export const storeRefused = (organizationId: string, what: string) =>
  new Error(`the store of ${organizationId} refused ${what}`);

/**
 * The store a route names, through the interface of its calls: the binding is declared without
 * the store's class (worker/env.ts), so that nothing of the edge imports the store's code.
 */
export function storeAt(env: Env, { storeId, jurisdiction }: StoreRoute) {
  const hubs = env.ORGANIZATION_HUB as DurableObjectNamespace<OrganizationStoreCalls>;
  const namespace = jurisdiction ? hubs.jurisdiction(jurisdiction) : hubs;
  return benchStore(env, namespace.getByName(storeId));
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
    state: "store",
  });
}

/** Whether this release serves the organization: only from its store (decision 0075). */
export const servedByItsStore = (route: Pick<StoreRoute, "state">) => route.state === "store";
