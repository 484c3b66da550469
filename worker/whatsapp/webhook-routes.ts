import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppContext } from "../http/context";
import { badRequest } from "../http/errors";
import { queryParams } from "../http/validate";
import { countRefusal } from "../http/webhook-refusals";
import { eq } from "drizzle-orm";
import { whatsappConnections } from "../db/global-schema";
import type { Deps } from "../http/deps";
import { webhookVerifyQuery } from "../../contracts/whatsapp";
import { ingestDelivery } from "./delivery";
import type { WebhookPayload } from "./webhook-payloads";
import { bodySignedByMeta } from "../meta/signed-body";

/** Meta's deliveries are small; anything this big is not from Meta. */
const MAX_DELIVERY_BYTES = 3 * 1024 * 1024;

/**
 * Meta's subscription check (`GET /webhooks/whatsapp`): the app-wide verify token, or one an
 * organization generated below. A public flow: no member, only the token Meta echoes.
 */
async function isWebhookVerifyToken({ db, env }: Deps, token: string | undefined) {
  if (!token) return false;
  if (token === env.META_WEBHOOK_VERIFY_TOKEN) return true;
  const connection = await db.query.whatsappConnections.findFirst({
    where: eq(whatsappConnections.webhookToken, token),
    columns: { id: true },
  });
  return Boolean(connection);
}

export const whatsappWebhookRoutes = new Hono<AppContext>()
  /** Meta's subscription check: echo the challenge, as inert text, when the token is ours. */
  .get("/", queryParams(webhookVerifyQuery), async (c) => {
    const query = c.req.valid("query");
    const valid = await isWebhookVerifyToken(c.var.deps, query["hub.verify_token"]);
    if (query["hub.mode"] !== "subscribe" || !valid) {
      await countRefusal(c, "verify");
      return c.text("Forbidden", 403);
    }
    const challenge = query["hub.challenge"];
    if (!challenge) throw badRequest("Falta hub.challenge.");
    return c.body(challenge, 200, {
      "Content-Type": "text/plain; charset=utf-8",
      "X-Content-Type-Options": "nosniff",
    });
  })
  .post("/", bodyLimit({ maxSize: MAX_DELIVERY_BYTES }), async (c) => {
    const raw = await bodySignedByMeta(c);
    let payload: WebhookPayload;
    try {
      payload = JSON.parse(new TextDecoder().decode(raw)) as WebhookPayload;
    } catch {
      throw badRequest("El cuerpo del webhook no es JSON válido.");
    }
    // Stored and its replies scheduled before answering (nothing is lost, and a delivery Meta
    // has seen answered never comes again); model calls happen in the stores' alarms.
    const stored = await ingestDelivery(c.var.deps, payload);
    return c.json({ received: true, stored });
  });
