// Customers who come from click-to-WhatsApp ads, and the conversions their sales become.
import { eq } from "drizzle-orm";
import { conversions } from "../../worker/db/schema";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { ctwaReferral, delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { db } from "./db";
import { deliver } from "./webhooks";

let phoneSequence = 0;
/** A customer's phone no other test file uses (files run at once against one fake). */
export const adCustomerPhone = () =>
  `3469${String(1_000_000 + ((++phoneSequence * 7919 + Math.floor(Math.random() * 997)) % 8_999_999)).padStart(7, "0")}`;

/**
 * A customer writes to the connected number from an ad: the message carries Meta's referral
 * (ad id, headline, click id). Returns the customer's phone and the click id.
 */
export async function messageFromAd(
  connection: { phoneNumberId: string },
  ad: { adId?: string; headline?: string; ctwaClid?: string } = {},
  from = adCustomerPhone(),
) {
  const ctwaClid = ad.ctwaClid ?? `ARAk${crypto.randomUUID().replaceAll("-", "").slice(0, 12)}`;
  await deliver(
    delivery(
      inboundMessage({
        phoneNumberId: connection.phoneNumberId,
        wabaId: GRAPH_FIXTURES.wabaId,
        from,
        referral: ctwaReferral({ adId: ad.adId, headline: ad.headline, ctwaClid }),
      }),
    ),
  );
  return { from, ctwaClid };
}

/** The conversion as stored, once the send to Meta that follows the answer has finished. */
export async function settledConversion(id: string) {
  for (let i = 0; i < 100; i++) {
    const row = await db.query.conversions.findFirst({ where: eq(conversions.id, id) });
    if (row && row.capiStatus !== "pending") return row;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`conversion ${id} is still pending`);
}
