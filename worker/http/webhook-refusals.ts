/**
 * What the webhooks (WhatsApp's, the booking Flow's, the payment providers') answer a call they
 * refuse: 401, counted per address; past the limit, 429. Only refusals are counted, so a
 * provider's signed calls from the same address are never slowed by it.
 */
import type { Context } from "hono";
import { addressKey } from "./address-key";
import { requestInfo } from "./auth";
import type { AppContext } from "./context";
import { AppError } from "./errors";
import { assertUnderLimit, countHit, type Limit } from "./rate-limit";

/** Failed signatures or verify tokens per address before it gets 429s instead of 401/403. */
const FAILURES_PER_ADDRESS: Limit = { max: 20, windowSeconds: 60 };

export const unsignedWebhook = () =>
  new AppError(401, "unauthorized", "Firma del webhook ausente o no válida.");

/** Counts a refused call from this address; past the limit it is answered 429. */
export async function countRefusal(c: Context<AppContext>, kind: "signature" | "verify") {
  const key = `webhook-${kind}:${addressKey(requestInfo(c).ip)}`;
  await countHit(c.var.db, key, FAILURES_PER_ADDRESS);
  await assertUnderLimit(c.var.db, key, FAILURES_PER_ADDRESS);
}

/** Counts the refusal, then refuses: 401, or 429 past the limit. */
export async function refuseUnsigned(c: Context<AppContext>): Promise<never> {
  await countRefusal(c, "signature");
  throw unsignedWebhook();
}
