import { Hono } from "hono";
import { setStateNonce } from "../../../worker/auth/oauth-state";
import { requireRole } from "../../../worker/http/auth";
import { storeDeps, type AppContext } from "../../../worker/http/context";
import { jsonBody } from "../../../worker/http/validate";
import { googleCalendarInput } from "../../../contracts/google-calendar";
import * as google from "./service";

const manager = requireRole("owner", "admin");

/**
 * `/integrations/google` (contract section 18): every member sees whether Google Calendar is
 * connected (never its tokens); owners and admins connect it, choose the calendar, disconnect.
 */
export const googleCalendarRoutes = new Hono<AppContext>()
  .get("/", async (c) => c.json({ data: await google.getIntegration(storeDeps(c), c.var.member) }))
  .get("/authorize", manager, async (c) => {
    const { url, nonce } = await google.authorize(storeDeps(c), c.var.member);
    setStateNonce(c, "google-oauth-state", nonce);
    return c.json({ data: { url } });
  })
  .put("/", manager, ...jsonBody(googleCalendarInput), async (c) => {
    const integration = await google.chooseCalendar(
      storeDeps(c),
      c.var.member,
      c.req.valid("json"),
    );
    return c.json({ data: integration });
  })
  .delete("/", manager, async (c) => {
    await google.disconnect(storeDeps(c), c.var.member);
    return c.json({ data: { success: true } });
  });
