import { Hono } from "hono";
import { authenticate } from "../auth/service";
import type { Db } from "../db/client";
import type { AppContext } from "../http/context";
import { unauthorized } from "../http/errors";
import { closeSockets } from "./close-sockets";
import { organizationStore } from "../stores/registry";

/** The caller behind the token and their organization, or 401: a live session of a member. */
async function socketCaller(db: Db, secret: string, token: string) {
  const { membership, ...caller } = await authenticate(db, secret, token);
  if (!membership) throw unauthorized("Completa el registro de tu organización.");
  return { ...caller, organizationId: membership.organizationId };
}

/**
 * `GET /ws?token=` — the token is checked (and the organization found) before the upgrade
 * is handed to that organization's hub, so a refused socket never opens.
 */
export const realtimeRoutes = new Hono<AppContext>().get("/", async (c) => {
  const token = c.req.query("token");
  if (!token) throw unauthorized();
  const caller = await socketCaller(c.var.db, c.env.JWT_SECRET, token);
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
    return c.json(
      { error: "upgrade_required", message: "Se esperaba una conexión WebSocket." },
      426,
    );
  }
  const store = await organizationStore(c.env, caller.organizationId);
  const headers = new Headers(c.req.raw.headers);
  headers.set("X-Organization-Id", caller.organizationId);
  headers.set("X-User-Id", caller.userId);
  headers.set("X-Session-Id", caller.sessionId);
  headers.set("X-Session-Expires-At", caller.expiresAt);
  const response = await store.fetch(new Request(c.req.raw.url, { headers }));
  // A revocation stored between the check above and the hub's accept closed the sockets that
  // existed then, not this one: now that it exists, check again and close it if it lost.
  if (response.status === 101) {
    const again = await socketCaller(c.var.db, c.env.JWT_SECRET, token).catch(() => null);
    if (again?.organizationId !== caller.organizationId) {
      await closeSockets(c.env, caller.organizationId, { sessionIds: [caller.sessionId] });
    }
  }
  return response;
});
