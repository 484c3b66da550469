import { Hono, type Context } from "hono";
import { setStateNonce } from "../../auth/oauth-state";
import { requireRole } from "../../http/auth";
import { storeDeps, type AppContext } from "../../http/context";
import { oauthCallback } from "../../http/oauth-callback";
import { jsonBody } from "../../http/validate";
import { inOrganizationData } from "../../stores/organization-parts";
import { googleCalendarInput, type GoogleConnectError } from "../../../contracts/google-calendar";
import * as google from "./service";

const manager = requireRole("owner", "admin");

/** Where Google's consent ends when it does not connect: the Agenda says why. */
const toAgendaError = (c: Context, error: GoogleConnectError) =>
  c.redirect(`/agenda?${new URLSearchParams({ google_error: error })}`);

/**
 * Where Google's consent comes back (a browser redirect, no bearer token): served by the edge,
 * it ends on the Agenda, which says how.
 */
export const googleCalendarCallbackRoutes = new Hono<AppContext>().get(
  "/callback",
  oauthCallback("google-oauth-state", {
    refused: (c) => toAgendaError(c, "access_denied"),
    failed: toAgendaError,
    connect: async (c, { code, member, stateId }) => {
      // The store takes the state once and exchanges the code.
      const result = await inOrganizationData(c.var.deps, member.organizationId, {
        kind: "google-connect",
        member,
        stateId,
        code,
      });
      if ("error" in result) return toAgendaError(c, result.error);
      return c.redirect("/agenda?google=conectado");
    },
  }),
);

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
