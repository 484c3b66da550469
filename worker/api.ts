import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import { secureHeaders } from "hono/secure-headers";
import type { ExtractSchema } from "hono/types";
import type { organizationApi } from "../durable-objects/store-api";
import { authRoutes, profileRoutes } from "./auth/routes";
import { globalDb } from "./db/client";
import type { AppContext } from "./http/context";
import { MAX_UPLOAD_BYTES, MEDIA_TOO_LARGE } from "../contracts/conversations";
import { API_BASE } from "./http/api-base";
import { AppError, handleError, notFound } from "./http/errors";
import { costlyWrite } from "./http/write-limits";
import { organizationGlobalRoutes } from "./organizations/global-routes";
import { realtimeRoutes } from "./realtime/routes";
import { flowWebhookRoutes } from "./flows/webhook-routes";
import { paymentWebhookRoutes } from "./payments/webhook-routes";
import { googleCalendarCallbackRoutes } from "./integrations/google/callback-routes";
import { operatorRoutes } from "./stores/operator-routes";
import { forwardToStore } from "./stores/forward-to-store";
import { organizationRouteMarks } from "./stores/organization-route-table";
import { publicTrackingCors } from "./tracking/public-cors";
import { whatsappOauthCallbackRoutes } from "./whatsapp/oauth-callback-routes";
import { whatsappWebhookRoutes } from "./whatsapp/webhook-routes";

/** Largest JSON body the API reads; anything bigger is a 413 before parsing. */
const MAX_BODY_BYTES = 1024 * 1024;

const jsonBodyLimit = bodyLimit({ maxSize: MAX_BODY_BYTES });
/**
 * File uploads (the routes that take a form, `formBody`: `POST /conversations/{id}/media`,
 * `POST /knowledge/import`) may be larger: a file plus its form fields (the knowledge import has
 * a tighter limit of its own).
 */
const uploadBodyLimit = bodyLimit({
  maxSize: MAX_UPLOAD_BYTES + 64 * 1024,
  onError: () => {
    throw new AppError(413, "invalid_media", MEDIA_TOO_LARGE);
  },
});
/** Whether the request names an upload: a route marked with the uploads' write window. */
const isUpload = (c: Context<AppContext>) =>
  organizationRouteMarks(c)?.has(costlyWrite("uploads").markName) ?? false;

/**
 * What the edge serves of /api/v1 itself: what is global (the account, a new organization, an
 * invitation accepted) and the redirects that come back without a token. Every other path is an
 * organization's, served by its store (durable-objects/store-api.ts).
 */
const globalApi = new Hono<AppContext>()
  .route("/auth", authRoutes)
  .route("/profiles", profileRoutes)
  .route("/organizations", organizationGlobalRoutes)
  .route("/whatsapp/oauth", whatsappOauthCallbackRoutes)
  .route("/integrations/google", googleCalendarCallbackRoutes);

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
  .use("/api/*", (c, next) => (isUpload(c) ? uploadBodyLimit : jsonBodyLimit)(c, next))
  // The operator's calls stay out of `ApiRoutes`: the console never makes them.
  .route(`${API_BASE}/operator`, operatorRoutes)
  .route(API_BASE, globalApi)
  .route(`${API_BASE}/tracking`, publicTrackingCors)
  .all(`${API_BASE}/*`, forwardToStore)
  .route("/ws", realtimeRoutes)
  .route("/webhooks/whatsapp", whatsappWebhookRoutes)
  .route("/webhooks/payments", paymentWebhookRoutes)
  .route("/webhooks/flows", flowWebhookRoutes)
  // Answered, not thrown: Hono calls it after the last middleware, and a throw there skips
  // that middleware's work after `next()` (the security headers, on /webhooks).
  .notFound((c) => handleError(notFound("Ruta no encontrada."), c))
  .onError(handleError);

/**
 * The routes' types, for the console's typed client (`app/lib/api.ts`): the edge's and the
 * store's, as one API.
 */
export type ApiRoutes = Hono<
  AppContext,
  ExtractSchema<typeof globalApi> & ExtractSchema<typeof organizationApi>
>;
