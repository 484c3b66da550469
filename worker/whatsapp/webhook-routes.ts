import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppContext } from "../http/context";
import { addressKey } from "../http/address-key";
import { requestInfo } from "../http/auth";
import { AppError, badRequest } from "../http/errors";
import { queryParams } from "../http/validate";
import { assertUnderLimit, countHit, type Limit } from "../http/rate-limit";
import { isWebhookVerifyToken } from "./connection-service";
import { webhookVerifyQuery } from "./contract";
import { ingestDelivery } from "./delivery";
import type { WebhookPayload } from "./ingest";
import { isValidSignature } from "../meta/signature";

/** Meta's deliveries are small; anything this big is not from Meta. */
const MAX_DELIVERY_BYTES = 3 * 1024 * 1024;

/** Failed signatures or verify tokens per address before it gets 429s instead of 401/403. */
const FAILURES_PER_ADDRESS: Limit = { max: 20, windowSeconds: 60 };

/**
 * Counts a refused call from this address; past the limit it is answered 429. Meta's signed
 * deliveries never reach this, so they are never slowed by it.
 */
export async function countRefusal(c: Context<AppContext>, kind: "signature" | "verify") {
  const key = `webhook-${kind}:${addressKey(requestInfo(c).ip)}`;
  await countHit(c.var.db, key, FAILURES_PER_ADDRESS);
  await assertUnderLimit(c.var.db, key, FAILURES_PER_ADDRESS);
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
    const raw = await c.req.arrayBuffer();
    const signed = await isValidSignature(
      raw,
      c.req.header("X-Hub-Signature-256"),
      c.env.META_APP_SECRET,
    );
    if (!signed) {
      await countRefusal(c, "signature");
      throw new AppError(401, "unauthorized", "Firma del webhook ausente o no válida.");
    }
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
