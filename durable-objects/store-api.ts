/**
 * The API an organization's store serves itself (contract section 15, decisions 0052, 0054):
 * the same route modules as the Worker's, over the store's own SQLite. The Worker has already
 * checked the token or the tracking key, found the member and counted the write
 * (worker/stores/organization-data.ts); who calls comes with the call, never from the request's
 * headers.
 */
import { Hono, type ExecutionContext } from "hono";
import { v1 } from "../worker/api";
import { globalDb, type OrganizationDb } from "../worker/db/client";
import type { Env } from "../worker/env";
import type { AppContext } from "../worker/http/context";
import { handleError, notFound } from "../worker/http/errors";
import type { StoreCaller } from "../worker/stores/organization-data";

/** Who calls, the store's data, and whether the store is past its room. */
interface StoreCall {
  caller: StoreCaller;
  db: OrganizationDb;
  storeFull: () => boolean;
}

const calls = new WeakMap<Request, StoreCall>();

const storeApi = new Hono<AppContext>()
  .use(async (c, next) => {
    const call = calls.get(c.req.raw);
    if (!call) throw notFound("Ruta no encontrada.");
    const db = globalDb(c.env);
    if ("member" in call.caller) {
      const { member } = call.caller;
      c.set("member", member);
      c.set("caller", member);
      c.set("tracking", { organizationId: member.organizationId, publicKey: false });
    } else c.set("tracking", call.caller.tracking);
    c.set("db", db);
    const deps = {
      db,
      orgDb: call.db,
      env: c.env,
      defer: (work: Promise<unknown>) => c.executionCtx.waitUntil(work),
      storeFull: call.storeFull,
    };
    c.set("deps", deps);
    c.set("storeDeps", deps);
    await next();
  })
  .route("/api/v1", v1)
  .notFound((c) => handleError(notFound("Ruta no encontrada."), c))
  .onError(handleError);

/** Answers a request from the store's data; `waitUntil` is the store's own. */
export function serveInStore(
  request: Request,
  call: StoreCall,
  env: Env,
  waitUntil: (work: Promise<unknown>) => void,
) {
  calls.set(request, call);
  const ctx: ExecutionContext = { waitUntil, passThroughOnException: () => {}, props: {} };
  return storeApi.fetch(request, env, ctx);
}
