/**
 * The API an organization's store serves itself (contract section 15, decision 0052): the same
 * route modules as the Worker's, over the store's own SQLite. The Worker has already checked the
 * token, found the member and counted the write (`organizationData`, worker/stores/); the member
 * comes with the call, never from the request's headers.
 */
import { Hono, type ExecutionContext } from "hono";
import { quickReplyRoutes } from "../worker/conversations/quick-replies-routes";
import type { OrganizationDb } from "../worker/db/client";
import { databasesOf } from "../worker/db/places";
import type { Env } from "../worker/env";
import type { AppContext, Member } from "../worker/http/context";
import { handleError, notFound } from "../worker/http/errors";

const calls = new WeakMap<Request, { member: Member; db: OrganizationDb }>();

const storeApi = new Hono<AppContext>()
  .use(async (c, next) => {
    const call = calls.get(c.req.raw);
    if (!call) throw notFound("Ruta no encontrada.");
    const { db } = databasesOf(c.env);
    c.set("inStore", true);
    c.set("member", call.member);
    c.set("caller", call.member);
    c.set("db", db);
    c.set("deps", {
      db,
      orgDb: call.db,
      env: c.env,
      defer: (work) => c.executionCtx.waitUntil(work),
    });
    await next();
  })
  .route("/api/v1/quick-replies", quickReplyRoutes)
  .notFound((c) => handleError(notFound("Ruta no encontrada."), c))
  .onError(handleError);

/** Answers a member's request from the store's data; `waitUntil` is the store's own. */
export function serveInStore(
  request: Request,
  call: { member: Member; db: OrganizationDb },
  env: Env,
  waitUntil: (work: Promise<unknown>) => void,
) {
  calls.set(request, call);
  const ctx: ExecutionContext = { waitUntil, passThroughOnException: () => {}, props: {} };
  return storeApi.fetch(request, env, ctx);
}
