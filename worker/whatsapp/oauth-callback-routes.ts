import { Hono, type Context } from "hono";
import { whatsappCallbackUrl } from "../http/callback-urls";
import type { AppContext } from "../http/context";
import { oauthCallback } from "../http/oauth-callback";
import { inOrganizationData } from "../stores/organization-parts";

/** Where Facebook's redirect flow ends when it does not connect: /oauth-error says why. */
const toOauthError = (c: Context, error: string, description = "") =>
  c.redirect(`/oauth-error?${new URLSearchParams({ error, error_description: description })}`);

/**
 * Where Facebook's redirect flow comes back (no bearer token): served by the edge, it ends on
 * /oauth-success or /oauth-error.
 */
export const whatsappOauthCallbackRoutes = new Hono<AppContext>().get(
  "/callback",
  oauthCallback("oauth-state", {
    refused: toOauthError,
    failed: toOauthError,
    connect: async (c, { code, member }) => {
      // The number is connected in the organization's store.
      const result = await inOrganizationData(c.var.deps, member.organizationId, {
        kind: "whatsapp-connect",
        member,
        input: { code, redirect_uri: whatsappCallbackUrl(c.env) },
      });
      if ("error" in result) return toOauthError(c, result.error.code, result.error.message);
      return c.redirect(`/oauth-success?${new URLSearchParams({ phone: result.phone_number })}`);
    },
  }),
);
