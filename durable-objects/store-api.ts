/**
 * The API an organization's store serves itself (contract section 15, decisions 0075, 0085):
 * the same route modules as the Worker's, over the store's own SQLite. The Worker has already
 * checked the token or the tracking key, found the member and counted the write
 * (worker/stores/organization-data.ts); who calls comes with the call, never from the request's
 * headers.
 */
import { Hono, type ExecutionContext } from "hono";
import { v1 } from "../worker/api";
import type { AppContext } from "../worker/http/context";
import type { StoreDeps } from "../worker/http/deps";
import { handleError, notFound } from "../worker/http/errors";
import type { StoreCaller, StoreRequest } from "../worker/stores/organization-data";

/** Who calls, and what the store gives the request: its data, sockets and jobs. */
interface StoreCall {
  caller: StoreCaller;
  deps: StoreDeps;
}

const calls = new WeakMap<Request, StoreCall>();

const storeApi = new Hono<AppContext>()
  .use(async (c, next) => {
    const call = calls.get(c.req.raw);
    if (!call) throw notFound("Ruta no encontrada.");
    if ("member" in call.caller) {
      const { member } = call.caller;
      c.set("member", member);
      c.set("caller", member);
      c.set("tracking", { organizationId: member.organizationId, publicKey: false });
    } else c.set("tracking", call.caller.tracking);
    c.set("db", call.deps.db);
    c.set("deps", call.deps);
    c.set("storeDeps", call.deps);
    await next();
  })
  .route("/api/v1", v1)
  .notFound((c) => handleError(notFound("Ruta no encontrada."), c))
  .onError(handleError);

/** Answers a request with the store's deps (their `defer` is the store's `waitUntil`). */
export function serveInStore(sent: StoreRequest, caller: StoreCaller, deps: StoreDeps) {
  const request = new Request(sent.url, sent);
  calls.set(request, { caller, deps });
  const ctx: ExecutionContext = {
    waitUntil: deps.defer,
    passThroughOnException: () => {},
    props: {},
  };
  return storeApi.fetch(request, deps.env, ctx);
}
