import { Hono } from "hono";
import { storeDeps, type AppContext } from "../../http/context";
import { requestInfo, requireRole } from "../../http/auth";
import { jsonBody } from "../../http/validate";
import { oauthStateOwner, setStateNonce, takeStateNonce } from "../../auth/oauth-state";
import { inOrganizationData } from "../../stores/organization-parts";
import { googleCalendarInput, type GoogleConnectError } from "./contract";
import * as google from "./service";

const manager = requireRole("owner", "admin");

/**
 * `/integrations/google` (contract section 18): every member sees whether Google Calendar is
 * connected (never its tokens); owners and admins connect it, choose the calendar, disconnect.
 */
/**
 * Where Google's consent comes back (a browser redirect, no bearer token): served by the edge,
 * it ends on the Agenda, which says how.
 */
export const googleCalendarCallbackRoutes = new Hono<AppContext>().get("/callback", async (c) => {
  const fail = (error: GoogleConnectError) =>
    c.redirect(`/agenda?${new URLSearchParams({ google_error: error })}`);
  if (c.req.query("error")) return fail("access_denied");
  const code = c.req.query("code");
  if (!code) return fail("no_code");
  const state = c.req.query("state") ?? "";
  const nonce = takeStateNonce(c, "google-oauth-state");
  const owner = await oauthStateOwner(c.var.db, c.env, "google-oauth-state", state, nonce);
  if (!owner) return fail("invalid_state");
  // No bearer token on Google's redirect: the signed state named the member, and the store
  // takes the state once and exchanges the code.
  const result = await inOrganizationData(c.var.deps, owner.member.organizationId, {
    kind: "google-connect",
    member: { ...owner.member, ip: requestInfo(c).ip },
    stateId: owner.stateId,
    code,
  });
  if ("error" in result) return fail(result.error);
  return c.redirect("/agenda?google=conectado");
});

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
