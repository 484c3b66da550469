/**
 * Where a member's request finds its organization's data (contract section 15, decision 0052):
 * in D1 while the organization is there, in its store once it has moved there with the route's
 * table. Routes whose data the store serves put `organizationData(table)` after `requireMember`
 * and read `deps.orgDb` (D1 in the Worker, the store's SQLite in the store).
 */
import { createMiddleware } from "hono/factory";
import type { AppContext } from "../http/context";
import { AppError } from "../http/errors";
import { storeAt, storeRoute, tableIsInStore } from "./registry";
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

export const organizationData = (table: StoreTable) =>
  createMiddleware<AppContext>(async (c, next) => {
    // Already in the store (durable-objects/store-api.ts): its `deps.orgDb` is its own SQLite.
    if (c.var.inStore) return next();
    const { member } = c.var;
    const route = await storeRoute(c.env, member.organizationId);
    // While a move copies and checks the rows, writes wait; reads keep working where they were.
    if (route.state === "switching" && c.req.method !== "GET") throw storeMoving();
    if (tableIsInStore(route, table)) {
      // The same route runs in the store, with the member the Worker authenticated and counted.
      const answer = await storeAt(c.env, route).serve(c.req.raw, member);
      return new Response(answer.body, answer);
    }
    await next();
  });
