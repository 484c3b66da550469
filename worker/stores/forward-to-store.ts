/**
 * The edge's one door to an organization's routes (contract section 15, decision 0143). They
 * are mounted only in the store (durable-objects/store-api.ts); the edge reads their table to
 * know which exist and what each asks of it (a tighter write window, the tracking key), then
 * authenticates and counts the call in its one trip to D1 and hands it to the store.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { TrieRouter } from "hono/router/trie-router";
import { organizationApi } from "../../durable-objects/store-api";
import { API_BASE } from "../http/api-base";
import { bearerToken, openToTrackingKey, trackingKeyCaller, withCaller } from "../http/auth";
import type { AppContext } from "../http/context";
import { notFound } from "../http/errors";
import { marksOf } from "../http/route-marks";
import { countedWrite } from "../http/write-limits";
import { organizationNotFound } from "../organizations/service";
import { answeredByItsStore } from "./organization-data";

/** The handlers of each organization route, by method and path (middleware of all methods aside). */
const organizationRouteTable = new TrieRouter<unknown>();
for (const route of organizationApi.routes) {
  if (route.method !== "ALL") organizationRouteTable.add(route.method, route.path, route.handler);
}

/** The handlers of the organization route a request names; null when there is none. */
function organizationRouteHandlers(method: string, path: string) {
  const [matches] = organizationRouteTable.match(method === "HEAD" ? "GET" : method, path);
  return matches.length ? matches.map(([handler]) => handler) : null;
}

/** Every organization route: authenticated here, answered by the organization's store. */
export const forwardToStore = createMiddleware<AppContext>(async (c: Context<AppContext>) => {
  const handlers = organizationRouteHandlers(c.req.method, c.req.path.slice(API_BASE.length));
  if (!handlers) throw notFound("Ruta no encontrada.");
  const marks = marksOf(handlers);
  if (!bearerToken(c) && marks.has(openToTrackingKey.markName)) {
    return answeredByItsStore(c, { tracking: await trackingKeyCaller(c) });
  }
  return withCaller(c, countedWrite(c.req.method, marks), async () => {
    const { caller, membership } = c.var;
    if (!membership) throw organizationNotFound();
    return answeredByItsStore(c, { member: { ...caller, ...membership } });
  });
});
