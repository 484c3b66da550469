import { Hono } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { storeDeps, type AppContext } from "../http/context";
import { requestInfo, requireCaller, requireMember, requireRole } from "../http/auth";
import { jsonBody } from "../http/validate";
import { oauthExchangeInput } from "./contract";
import { inOrganizationData } from "../stores/organization-parts";
import * as oauth from "./oauth-service";

/** The browser's half of the redirect flow's state (see `oauth.authUrl`). */
const NONCE_COOKIE = "wa_oauth_nonce";
const NONCE_COOKIE_PATH = "/api/v1/whatsapp/oauth";

/** `/whatsapp/oauth/*`: connecting a number with Facebook Login. */
export const whatsappOauthRoutes = new Hono<AppContext>()
  /** Where Facebook's redirect flow comes back: ends on /oauth-success or /oauth-error. */
  .get("/callback", async (c) => {
    const fail = (error: string, description = "") =>
      c.redirect(`/oauth-error?${new URLSearchParams({ error, error_description: description })}`);
    const metaError = c.req.query("error");
    if (metaError) {
      const denied = metaError === "access_denied";
      return fail(denied ? "access_denied" : metaError, c.req.query("error_description") ?? "");
    }
    const code = c.req.query("code");
    if (!code) return fail("no_code");
    const nonce = getCookie(c, NONCE_COOKIE);
    deleteCookie(c, NONCE_COOKIE, { path: NONCE_COOKIE_PATH });
    const member = await oauth.memberFromState(c.var.db, c.env, c.req.query("state") ?? "", nonce);
    if (!member) return fail("invalid_state");
    // No bearer token on Facebook's redirect: the signed state names the member, and the number
    // is connected in the organization's store.
    const result = await inOrganizationData(c.var.deps, member.organizationId, {
      kind: "whatsapp-connect",
      member: { ...member, ip: requestInfo(c).ip },
      input: { code, redirect_uri: oauth.callbackUrl(c.env) },
    });
    if ("error" in result) return fail(result.error.code, result.error.message);
    return c.redirect(`/oauth-success?${new URLSearchParams({ phone: result.phone_number })}`);
  })
  .use(requireCaller, requireMember)
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
    // Sent back only on Facebook's top-level redirect to the callback (SameSite=Lax).
    setCookie(c, NONCE_COOKIE, nonce, {
      path: NONCE_COOKIE_PATH,
      httpOnly: true,
      secure: new URL(c.req.url).protocol === "https:",
      sameSite: "Lax",
      maxAge: 10 * 60,
    });
    return c.json({ data: { url, state } });
  })
  .post("/exchange", requireRole("owner", "admin"), ...jsonBody(oauthExchangeInput), async (c) => {
    const result = await oauth.connectWithCode(storeDeps(c), c.var.member, c.req.valid("json"));
    return c.json({ data: result });
  });
