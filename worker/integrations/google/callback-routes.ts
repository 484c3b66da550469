import { Hono, type Context } from "hono";
import type { AppContext } from "../../http/context";
import { oauthCallback } from "../../http/oauth-callback";
import { inOrganizationData } from "../../stores/organization-parts";
import type { GoogleConnectError } from "../../../contracts/google-calendar";

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
