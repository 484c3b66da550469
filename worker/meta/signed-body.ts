import type { Context } from "hono";
import type { AppContext } from "../http/context";
import { refuseUnsigned } from "../http/webhook-refusals";
import { isValidSignature } from "./signature";

/**
 * The raw body of a call Meta signed with the app's secret (`X-Hub-Signature-256`: WhatsApp's
 * deliveries and the booking Flow's requests); any other call is refused and counted.
 */
export async function bodySignedByMeta(c: Context<AppContext>): Promise<ArrayBuffer> {
  const raw = await c.req.arrayBuffer();
  const header = c.req.header("X-Hub-Signature-256");
  if (await isValidSignature(raw, header, c.env.META_APP_SECRET)) return raw;
  return refuseUnsigned(c);
}
