import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import { draftRoutes } from "./agents/draft-routes";
import { agentRoutes } from "./agents/routes";
import { auditRoutes } from "./audit/routes";
import { broadcastRoutes } from "./broadcasts/routes";
import { followUpRoutes } from "./follow-ups/routes";
import { flowWebhookRoutes } from "./flows/webhook-routes";
import { bookingFlowRoutes, bookingFlowSendRoutes } from "./flows/routes";
import { bookingRoutes, serviceRoutes } from "./bookings/routes";
import { bookingReminderRoutes } from "./reminders/routes";
import { authRoutes, profileRoutes } from "./auth/routes";
import { quickReplyRoutes } from "./conversations/quick-replies-routes";
import { conversationRoutes, legacyWhatsappRoutes } from "./conversations/routes";
import { globalDb } from "./db/client";
import { knowledgeRoutes } from "./knowledge/routes";
import type { AppContext } from "./http/context";
import { MAX_UPLOAD_BYTES, MEDIA_TOO_LARGE } from "./conversations/contract";
import { AppError, handleError, notFound } from "./http/errors";
import { organizationRoutes } from "./organizations/routes";
import { realtimeRoutes } from "./realtime/routes";
import { labelRoutes, mentionRoutes, teamConversationRoutes } from "./team-inbox/routes";
import { salesRoutes } from "./sales/routes";
import { paymentIntegrationRoutes, paymentLinkRoutes } from "./payments/routes";
import { paymentWebhookRoutes } from "./payments/webhook-routes";
import { googleCalendarRoutes } from "./integrations/google/routes";
import { operatorRoutes } from "./stores/operator-routes";
import { metaConfigRoutes } from "./tracking/meta-routes";
import { adsRoutes } from "./tracking/ads-routes";
import { trackingRoutes } from "./tracking/routes";
import { whatsappOauthRoutes } from "./whatsapp/oauth-routes";
import { whatsappConfigRoutes } from "./whatsapp/routes";
import { whatsappWebhookRoutes } from "./whatsapp/webhook-routes";

/** Largest JSON body the API reads; anything bigger is a 413 before parsing. */
const MAX_BODY_BYTES = 1024 * 1024;

const jsonBodyLimit = bodyLimit({ maxSize: MAX_BODY_BYTES });
/**
 * File uploads (`POST /conversations/{id}/media`, `POST /knowledge/import`) may be larger: a
 * file plus its form fields (the knowledge import has a tighter limit of its own).
 */
const uploadBodyLimit = bodyLimit({
  maxSize: MAX_UPLOAD_BYTES + 64 * 1024,
  onError: () => {
    throw new AppError(413, "invalid_media", MEDIA_TOO_LARGE);
  },
});
const isUpload = (method: string, path: string) =>
  method === "POST" && /^\/api\/v1\/(conversations\/[^/]+\/media|knowledge\/import)$/.test(path);

/** The API of /api/v1: the Worker serves it, and so does an organization's store (durable-objects/store-api.ts). */
export const v1 = new Hono<AppContext>()
  .route("/auth", authRoutes)
  .route("/profiles", profileRoutes)
  .route("/organizations/audit-log", auditRoutes)
  .route("/organizations", organizationRoutes)
  .route("/agents", agentRoutes)
  .route("/knowledge", knowledgeRoutes)
  .route("/conversations", salesRoutes)
  .route("/conversations", paymentLinkRoutes)
  .route("/conversations", draftRoutes)
  .route("/conversations", teamConversationRoutes)
  .route("/conversations", conversationRoutes)
  .route("/conversations", bookingFlowSendRoutes)
  .route("/quick-replies", quickReplyRoutes)
  .route("/labels", labelRoutes)
  .route("/mentions", mentionRoutes)
  .route("/broadcasts", broadcastRoutes)
  .route("/follow-ups", followUpRoutes)
  .route("/services", serviceRoutes)
  .route("/bookings", bookingRoutes)
  .route("/booking-reminders", bookingReminderRoutes)
  .route("/integrations/payments", paymentIntegrationRoutes)
  .route("/integrations/google", googleCalendarRoutes)
  .route("/whatsapp-config", whatsappConfigRoutes)
  .route("/meta-config", metaConfigRoutes)
  .route("/tracking", adsRoutes)
  .route("/tracking", trackingRoutes)
  .route("/whatsapp/oauth", whatsappOauthRoutes)
  .route("/whatsapp/booking-flow", bookingFlowRoutes)
  .route("/whatsapp", legacyWhatsappRoutes);

/** The API's security headers, on every answer of /api and /webhooks, errors included. */
const apiSecurityHeaders = secureHeaders();

/** Everything the Worker serves that is not a page: /api/v1, /ws and /webhooks. */
export const api = new Hono<AppContext>()
  .use(async (c, next) => {
    const db = globalDb(c.env);
    c.set("db", db);
    c.set("deps", {
      db,
      env: c.env,
      defer: (work) => c.executionCtx.waitUntil(work),
    });
    await next();
  })
  // Not on /ws: a 101 answer's headers are immutable.
  .use("/api/*", apiSecurityHeaders)
  .use("/webhooks/*", apiSecurityHeaders)
  .use("/api/*", (c, next) =>
    (isUpload(c.req.method, c.req.path) ? uploadBodyLimit : jsonBodyLimit)(c, next),
  )
  // The operator's calls stay out of `ApiRoutes`: the console never makes them.
  .route("/api/v1/operator", operatorRoutes)
  .route("/api/v1", v1)
  .route("/ws", realtimeRoutes)
  .route("/webhooks/whatsapp", whatsappWebhookRoutes)
  .route("/webhooks/payments", paymentWebhookRoutes)
  .route("/webhooks/flows", flowWebhookRoutes)
  // Answered, not thrown: Hono calls it after the last middleware, and a throw there skips
  // that middleware's work after `next()` (the security headers, on /webhooks).
  .notFound((c) => handleError(notFound("Ruta no encontrada."), c))
  .onError(handleError);

/** The routes' types, for the console's typed client (`app/lib/api.ts`). */
export type ApiRoutes = typeof v1;
