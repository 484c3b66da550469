import { Hono, type Context } from "hono";
import { setStateNonce } from "../auth/oauth-state";
import { requireRole } from "../http/auth";
import { storeDeps, type AppContext } from "../http/context";
import { oauthCallback } from "../http/oauth-callback";
import { jsonBody } from "../http/validate";
import { oauthExchangeInput } from "../../contracts/whatsapp";
import { inOrganizationData } from "../stores/organization-parts";
import * as oauth from "./oauth-service";

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
        input: { code, redirect_uri: oauth.callbackUrl(c.env) },
      });
      if ("error" in result) return toOauthError(c, result.error.code, result.error.message);
      return c.redirect(`/oauth-success?${new URLSearchParams({ phone: result.phone_number })}`);
    },
  }),
);

/** `/whatsapp/oauth/*`: connecting a number with Facebook Login. */
export const whatsappOauthRoutes = new Hono<AppContext>()
  /** What the console's Facebook SDK needs (public values; null when Meta is not configured). */
  .get("/app-config", (c) =>
    c.json({
      data: {
        app_id: c.env.META_APP_ID || null,
        config_id: c.env.META_CONFIG_ID || null,
        graph_version: oauth.graphVersion(c.env),
        sandbox: c.env.META_SANDBOX === "true",
      },
    }),
  )
  .get("/status", async (c) => c.json({ data: await oauth.oauthStatus(c.var.deps, c.var.member) }))
  .get("/auth-url", requireRole("owner", "admin"), async (c) => {
    const { url, state, nonce } = await oauth.authUrl(c.var.deps, c.var.member);
    setStateNonce(c, "oauth-state", nonce);
    return c.json({ data: { url, state } });
  })
  .post("/exchange", requireRole("owner", "admin"), ...jsonBody(oauthExchangeInput), async (c) => {
    const result = await oauth.connectWithCode(storeDeps(c), c.var.member, c.req.valid("json"));
    return c.json({ data: result });
  });
