/**
 * Where a request finds its organization's data (contract section 15, decisions 0052, 0054):
 * in D1 while the organization is there, in its store once it has moved. A member's request,
 * or a page's with the organization's tracking key, for an organization whose data is all in
 * its store is served there: the same route modules, with `deps.orgDb` over the store's SQLite.
 * An organization moved before that (quick replies only) has its quick replies served there
 * (`organizationData`).
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppContext, Member, TrackingCaller } from "../http/context";
import { AppError } from "../http/errors";
import { allDataInStore, storeAt, storeRoute, tableIsInStore, type StoreRoute } from "./registry";
import type { StoreTable } from "./store-tables";

/** About as long as a switch takes (contract: at most about a minute). */
const MOVING_RETRY_AFTER_SECONDS = 60;

const storeMoving = () =>
  new AppError(
    503,
    "store_moving",
    "Estamos trasladando los datos de tu organización: vuelve a intentarlo en un minuto.",
    undefined,
    { "Retry-After": String(MOVING_RETRY_AFTER_SECONDS) },
  );

/** Who a request the store serves comes from: a member, or a page with the tracking key. */
export type StoreCaller = { member: Member } | { tracking: TrackingCaller };

export const callerOrganization = (caller: StoreCaller) =>
  "member" in caller ? caller.member.organizationId : caller.tracking.organizationId;

/** The request, answered by the organization's store, with whom the Worker authenticated. */
async function servedByStore(c: Context<AppContext>, route: StoreRoute, caller: StoreCaller) {
  const answer = await storeAt(c.env, route).serve(c.req.raw, caller);
  return new Response(answer.body, answer);
}

/**
 * For a request the Worker has authenticated: while a move copies and checks the rows, writes
 * wait (reads keep working where the data is); once all the organization's data is in its
 * store, the store answers. Null: the Worker serves it from D1.
 */
export async function answeredWhereTheDataIs(c: Context<AppContext>, caller: StoreCaller) {
  const route = await storeRoute(c.env, callerOrganization(caller));
  if (route.state === "switching" && c.req.method !== "GET") throw storeMoving();
  return allDataInStore(route) ? servedByStore(c, route, caller) : null;
}

/** Quick replies of an organization moved when they were all its store held (version 2). */
export const organizationData = (table: StoreTable) =>
  createMiddleware<AppContext>(async (c, next) => {
    if (c.var.inStore) return next();
    const { member } = c.var;
    const route = await storeRoute(c.env, member.organizationId);
    if (tableIsInStore(route, table)) return servedByStore(c, route, { member });
    await next();
  });
