import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import { agentRoutes } from "./agents/routes";
import { authRoutes, profileRoutes } from "./auth/routes";
import { quickReplyRoutes } from "./conversations/quick-replies-routes";
import { conversationRoutes, legacyWhatsappRoutes } from "./conversations/routes";
import { createDb } from "./db/client";
import type { AppContext } from "./http/context";
import { handleError, notFound } from "./http/errors";
import { organizationRoutes } from "./organizations/routes";
import { realtimeRoutes } from "./realtime/routes";
import { metaConfigRoutes } from "./tracking/meta-routes";
import { trackingRoutes } from "./tracking/routes";
import { whatsappOauthRoutes } from "./whatsapp/oauth-routes";
import { whatsappConfigRoutes } from "./whatsapp/routes";
import { whatsappWebhookRoutes } from "./whatsapp/webhook-routes";

/** Largest JSON body the API reads; anything bigger is a 413 before parsing. */
const MAX_BODY_BYTES = 1024 * 1024;

const v1 = new Hono<AppContext>()
  .route("/auth", authRoutes)
  .route("/profiles", profileRoutes)
  .route("/organizations", organizationRoutes)
  .route("/agents", agentRoutes)
  .route("/conversations", conversationRoutes)
  .route("/quick-replies", quickReplyRoutes)
  .route("/whatsapp-config", whatsappConfigRoutes)
  .route("/meta-config", metaConfigRoutes)
  .route("/tracking", trackingRoutes)
  .route("/whatsapp/oauth", whatsappOauthRoutes)
  .route("/whatsapp", legacyWhatsappRoutes);

/** Everything the Worker serves that is not a page: /api/v1, /ws (and /webhooks later). */
export const api = new Hono<AppContext>()
  .use(async (c, next) => {
    const db = createDb(c.env.DB);
    c.set("db", db);
    c.set("deps", { db, env: c.env, defer: (work) => c.executionCtx.waitUntil(work) });
    await next();
  })
  // Not on /ws: a 101 answer's headers are immutable.
  .use("/api/*", secureHeaders())
  .use("/api/*", bodyLimit({ maxSize: MAX_BODY_BYTES }))
  .route("/api/v1", v1)
  .route("/ws", realtimeRoutes)
  .route("/webhooks/whatsapp", whatsappWebhookRoutes)
  .notFound(() => {
    throw notFound("Ruta no encontrada.");
  })
  .onError(handleError);

export type ApiRoutes = typeof v1;
