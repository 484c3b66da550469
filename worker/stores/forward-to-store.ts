/**
 * The edge's one door to an organization's routes (contract section 15, decision 0143). They
 * are mounted only in the store (durable-objects/store-api.ts); the edge reads their table to
 * know which exist and what each asks of it (a tighter write window, the tracking key), then
 * authenticates and counts the call in its one trip to D1 and hands it to the store.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { bearerToken, openToTrackingKey, trackingKeyCaller, withCaller } from "../http/auth";
import type { AppContext } from "../http/context";
import { notFound } from "../http/errors";
import { countedWrite } from "../http/write-limits";
import { organizationNotFound } from "../organizations/errors";
import { answeredByItsStore } from "./organization-data";
import { organizationRouteMarks } from "./organization-route-table";

/** Every organization route: authenticated here, answered by the organization's store. */
export const forwardToStore = createMiddleware<AppContext>(async (c: Context<AppContext>) => {
  const marks = organizationRouteMarks(c);
  if (!marks) throw notFound("Ruta no encontrada.");
  if (!bearerToken(c) && marks.has(openToTrackingKey.markName)) {
    return answeredByItsStore(c, { tracking: await trackingKeyCaller(c) });
  }
  return withCaller(c, countedWrite(c.req.method, marks), async () => {
    const { caller, membership } = c.var;
    if (!membership) throw organizationNotFound();
    return answeredByItsStore(c, { member: { ...caller, ...membership } });
  });
});
