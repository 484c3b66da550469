import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppContext } from "../http/context";
import { addressKey } from "../http/address-key";
import { requestInfo } from "../http/auth";
import { AppError, badRequest } from "../http/errors";
import { assertUnderLimit, countHit, type Limit } from "../http/rate-limit";
import { scheduleReplies } from "../agents/auto-reply";
import { isWebhookVerifyToken } from "./connection-service";
import { ingestDelivery, type WebhookPayload } from "./ingest";
import { isValidSignature } from "../meta/signature";

/** Meta's deliveries are small; anything this big is not from Meta. */
const MAX_DELIVERY_BYTES = 3 * 1024 * 1024;

/** Failed signatures or verify tokens per address before it gets 429s instead of 401/403. */
const FAILURES_PER_ADDRESS: Limit = { max: 20, windowSeconds: 60 };

/**
 * Counts a refused call from this address; past the limit it is answered 429. Meta's signed
 * deliveries never reach this, so they are never slowed by it.
 */
async function countRefusal(c: Context<AppContext>, kind: "signature" | "verify") {
  const key = `webhook-${kind}:${addressKey(requestInfo(c).ip)}`;
  await countHit(c.var.db, key, FAILURES_PER_ADDRESS);
  await assertUnderLimit(c.var.db, key, FAILURES_PER_ADDRESS);
}

export const whatsappWebhookRoutes = new Hono<AppContext>()
  /** Meta's subscription check: echo the challenge when the token is ours. */
  .get("/", async (c) => {
    const mode = c.req.query("hub.mode");
    const challenge = c.req.query("hub.challenge") ?? "";
    const valid = await isWebhookVerifyToken(c.var.deps, c.req.query("hub.verify_token"));
    if (mode !== "subscribe" || !valid) {
      await countRefusal(c, "verify");
      return c.text("Forbidden", 403);
    }
    return c.text(challenge, 200);
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
    // Stored before answering (nothing is lost); model calls happen after the answer.
    const result = await ingestDelivery(c.var.deps, payload);
    if (result.conversationsToAnswer.length > 0) {
      c.var.deps.defer(scheduleReplies(c.env, result.conversationsToAnswer));
    }
    return c.json({ received: true, stored: result.storedMessages });
  });
