/**
 * The API an organization's store serves (contract section 15, decisions 0075, 0085, 0143):
 * every organization route is mounted here and nowhere else, over the store's own SQLite. The
 * edge has already checked the token or the tracking key, found the member and counted the
 * write (worker/stores/forward-to-store.ts); who calls comes with the call, never from the
 * request's headers.
 */
import { Hono, type ExecutionContext } from "hono";
import { draftRoutes } from "./agents/draft-routes";
import { agentRoutes } from "./agents/routes";
import { auditRoutes } from "./audit/routes";
import { bookingRoutes, serviceRoutes } from "./bookings/routes";
import { broadcastRoutes } from "./broadcasts/routes";
import { quickReplyRoutes } from "./conversations/quick-replies-routes";
import { conversationRoutes, legacyWhatsappRoutes } from "./conversations/routes";
import { bookingFlowRoutes, bookingFlowSendRoutes } from "./flows/routes";
import { followUpRoutes } from "./follow-ups/routes";
import { API_BASE } from "../worker/http/api-base";
import type { AppContext } from "../worker/http/context";
import type { StoreDeps } from "../worker/http/deps";
import { handleError, notFound } from "../worker/http/errors";
import { googleCalendarRoutes } from "./integrations/google/routes";
import { knowledgeRoutes } from "./knowledge/routes";
import { organizationRoutes } from "./organizations/routes";
import { paymentIntegrationRoutes, paymentLinkRoutes } from "./payments/routes";
import { bookingReminderRoutes } from "./reminders/routes";
import { salesRoutes } from "./sales/routes";
import type { StoreCaller, StoreRequest } from "../worker/stores/store-calls";
import { labelRoutes, mentionRoutes, teamConversationRoutes } from "./team-inbox/routes";
import { adsRoutes } from "./tracking/ads-routes";
import { pixelConfigRoutes } from "./tracking/pixel-routes";
import { trackingRoutes } from "./tracking/routes";
import { whatsappOauthRoutes } from "./whatsapp/oauth-routes";
import { whatsappConfigRoutes } from "./whatsapp/routes";

/**
 * A conversation and what other domains keep of it (its sales, payment links, AI draft, labels
 * and notes, booking Flow): one mount for `/conversations`, their paths disjoint.
 */
const conversationApi = new Hono<AppContext>()
  .route("/", conversationRoutes)
  .route("/", salesRoutes)
  .route("/", paymentLinkRoutes)
  .route("/", draftRoutes)
  .route("/", teamConversationRoutes)
  .route("/", bookingFlowSendRoutes);

/** What the console reads of its pages' visits, conversions and ads: one mount for `/tracking`. */
const trackingApi = new Hono<AppContext>().route("/", trackingRoutes).route("/", adsRoutes);

/** Every organization route of /api/v1, each path mounted once. */
export const organizationApi = new Hono<AppContext>()
  .route("/organizations/audit-log", auditRoutes)
  .route("/organizations", organizationRoutes)
  .route("/agents", agentRoutes)
  .route("/knowledge", knowledgeRoutes)
  .route("/conversations", conversationApi)
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
  .route("/meta-config", pixelConfigRoutes)
  .route("/tracking", trackingApi)
  .route("/whatsapp/oauth", whatsappOauthRoutes)
  .route("/whatsapp/booking-flow", bookingFlowRoutes)
  .route("/whatsapp", legacyWhatsappRoutes);

/** Who calls, and what the store gives the request: its data, sockets and jobs. */
interface StoreCall {
  caller: StoreCaller;
  deps: StoreDeps;
}

const calls = new WeakMap<Request, StoreCall>();

const storeApi = new Hono<AppContext>()
  .use(async (c, next) => {
    const call = calls.get(c.req.raw);
    if (!call) throw notFound("Ruta no encontrada.");
    if ("member" in call.caller) {
      const { member } = call.caller;
      c.set("member", member);
      c.set("caller", member);
      c.set("tracking", { organizationId: member.organizationId, publicKey: false });
    } else c.set("tracking", call.caller.tracking);
    c.set("db", call.deps.db);
    c.set("deps", call.deps);
    c.set("storeDeps", call.deps);
    await next();
  })
  .route(API_BASE, organizationApi)
  .notFound((c) => handleError(notFound("Ruta no encontrada."), c))
  .onError(handleError);

/** Answers a request with the store's deps (their `defer` is the store's `waitUntil`). */
export function serveInStore(sent: StoreRequest, caller: StoreCaller, deps: StoreDeps) {
  const request = new Request(sent.url, sent);
  calls.set(request, { caller, deps });
  const ctx: ExecutionContext = {
    waitUntil: deps.defer,
    passThroughOnException: () => {},
    props: {},
  };
  return storeApi.fetch(request, deps.env, ctx);
}
