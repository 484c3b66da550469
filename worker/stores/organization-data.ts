/**
 * Where a request finds its organization's data (contract section 15, decision 0075): in its
 * store, always. A member's request, or a page's with the organization's tracking key, is served
 * there: the same route modules, with `deps.orgDb` over the store's SQLite. An organization the
 * upgrade stop left unmoved is not served (`store_required`).
 */
import type { Context } from "hono";
import type { AppContext } from "../http/context";
import type { StoreCaller, StoreRequest } from "./store-calls";
import { AppError } from "../http/errors";
import { servedByItsStore, storeAt, storeRoute, type StoreRoute } from "./registry";

export const callerOrganization = (caller: StoreCaller) =>
  "member" in caller ? caller.member.organizationId : caller.tracking.organizationId;

/** An organization whose data the upgrade stop left in D1: only moving it serves it again. */
export const storeRequired = () =>
  new AppError(
    503,
    "store_required",
    "Los datos de tu organización aún no están en su almacén: el administrador de la plataforma debe trasladarlos antes de que puedas seguir.",
  );

/** The route of an organization this release serves; `store_required` for any other. */
async function servedRoute(c: Pick<Context<AppContext>, "env">, organizationId: string) {
  const route: StoreRoute = await storeRoute(c.env, organizationId);
  if (!servedByItsStore(route)) throw storeRequired();
  return route;
}

const WITHOUT_BODY = new Set(["GET", "HEAD"]);

export async function storeRequest(request: Request): Promise<StoreRequest> {
  const { method, url } = request;
  const body = WITHOUT_BODY.has(method) ? null : await request.arrayBuffer();
  return { method, url, headers: [...request.headers], body };
}

/** The request, answered by the organization's store, with whom the Worker authenticated. */
export async function answeredByItsStore(c: Context<AppContext>, caller: StoreCaller) {
  const route = await servedRoute(c, callerOrganization(caller));
  const answer = await storeAt(c.env, route).serve(
    await storeRequest(c.req.raw),
    caller,
    c.var.factsVersion,
  );
  // Read at once: a body streamed over RPC disconnects if the Worker awaits anything first
  // (a refused write's refund). A file (a message's media) is streamed on as it comes.
  const isFile = answer.headers.get("Content-Disposition") !== null;
  return new Response(isFile ? answer.body : await answer.arrayBuffer(), answer);
}
