import { Hono } from "hono";
import { storeDeps, type AppContext } from "../http/context";
import { requestInfo, requireRole } from "../http/auth";
import { jsonBody } from "../http/validate";
import { oauthExchangeInput } from "./contract";
import { inOrganizationData } from "../stores/organization-parts";
import * as oauth from "./oauth-service";
import { oauthStateOwner, setStateNonce, takeStateNonce } from "../auth/oauth-state";

/**
 * Where Facebook's redirect flow comes back (no bearer token): served by the edge, it ends on
 * /oauth-success or /oauth-error.
 */
export const whatsappOauthCallbackRoutes = new Hono<AppContext>().get("/callback", async (c) => {
  const fail = (error: string, description = "") =>
    c.redirect(`/oauth-error?${new URLSearchParams({ error, error_description: description })}`);
  const metaError = c.req.query("error");
  if (metaError) {
    const denied = metaError === "access_denied";
    return fail(denied ? "access_denied" : metaError, c.req.query("error_description") ?? "");
  }
  const code = c.req.query("code");
  if (!code) return fail("no_code");
  const state = c.req.query("state") ?? "";
  const nonce = takeStateNonce(c, "oauth-state");
  const owner = await oauthStateOwner(c.var.db, c.env, "oauth-state", state, nonce);
  if (!owner) return fail("invalid_state");
  // No bearer token on Facebook's redirect: the signed state names the member, and the number
  // is connected in the organization's store.
  const result = await inOrganizationData(c.var.deps, owner.member.organizationId, {
    kind: "whatsapp-connect",
    member: { ...owner.member, ip: requestInfo(c).ip },
    input: { code, redirect_uri: oauth.callbackUrl(c.env) },
  });
  if ("error" in result) return fail(result.error.code, result.error.message);
  return c.redirect(`/oauth-success?${new URLSearchParams({ phone: result.phone_number })}`);
});

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
