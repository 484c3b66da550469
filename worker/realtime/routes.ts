import { Hono } from "hono";
import { eq } from "drizzle-orm";
import { authenticate } from "../auth/service";
import { memberships } from "../db/schema";
import type { AppContext } from "../http/context";
import { unauthorized } from "../http/errors";

/**
 * `GET /ws?token=` — the token is checked (and the organization found) before the upgrade
 * is handed to that organization's hub, so a refused socket never opens.
 */
export const realtimeRoutes = new Hono<AppContext>().get("/", async (c) => {
  const token = c.req.query("token");
  if (!token) throw unauthorized();
  const caller = await authenticate(c.var.db, c.env.JWT_SECRET, token);
  const membership = await c.var.db.query.memberships.findFirst({
    where: eq(memberships.userId, caller.userId),
  });
  if (!membership) throw unauthorized("Completa el registro de tu organización.");
  if (c.req.header("Upgrade")?.toLowerCase() !== "websocket") {
    return c.json(
      { error: "upgrade_required", message: "Se esperaba una conexión WebSocket." },
      426,
    );
  }
  const hub = c.env.ORGANIZATION_HUB.getByName(membership.organizationId);
  const headers = new Headers(c.req.raw.headers);
  headers.set("X-User-Id", caller.userId);
  return hub.fetch(new Request(c.req.raw.url, { headers }));
});
