import { Hono } from "hono";
import { AppError } from "../http/errors";
import type { AppContext } from "../http/context";
import { requestInfo, requireCaller, requireMember, requireRole } from "../http/auth";
import { jsonBody } from "../http/validate";
import { oauthExchangeInput } from "./contract";
import * as oauth from "./oauth-service";

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
    const member = await oauth.memberFromState(c.var.db, c.env, c.req.query("state") ?? "");
    if (!member) return fail("invalid_state");
    try {
      const result = await oauth.connectWithCode(
        c.var.deps,
        member,
        { code, redirect_uri: oauth.callbackUrl(c.env) },
        requestInfo(c).ip,
      );
      return c.redirect(`/oauth-success?${new URLSearchParams({ phone: result.phone_number })}`);
    } catch (error) {
      if (error instanceof AppError) return fail(error.code, error.message);
      throw error;
    }
  })
  .use(requireCaller, requireMember)
  /** What the console's Facebook SDK needs (public values; null when Meta is not configured). */
  .get("/app-config", (c) =>
    c.json({
      data: {
        app_id: c.env.META_APP_ID || null,
        config_id: c.env.META_CONFIG_ID || null,
        graph_version: oauth.graphVersion(c.env),
      },
    }),
  )
  .get("/status", async (c) => c.json({ data: await oauth.oauthStatus(c.var.db, c.var.member) }))
  .get("/auth-url", requireRole("owner", "admin"), async (c) => {
    return c.json({ data: await oauth.authUrl(c.env, c.var.member) });
  })
  .post("/exchange", requireRole("owner", "admin"), ...jsonBody(oauthExchangeInput), async (c) => {
    const result = await oauth.connectWithCode(
      c.var.deps,
      c.var.member,
      c.req.valid("json"),
      requestInfo(c).ip,
    );
    return c.json({ data: result });
  });
