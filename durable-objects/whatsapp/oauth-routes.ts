import { Hono } from "hono";
import { setStateNonce } from "../../worker/auth/oauth-state";
import { requireRole } from "../../worker/http/auth";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { jsonBody } from "../../worker/http/validate";
import { oauthExchangeInput } from "../../contracts/whatsapp";
import * as oauth from "./oauth-service";

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
