// Customers who come from click-to-WhatsApp ads, and the conversions their sales become.
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { conversions } from "../../durable-objects/schema";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { ctwaReferral, delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { connectWhatsapp } from "./db";
import { createOwner } from "./factories";
import { withOrgDb } from "./org-data";
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
export async function settledConversion(organizationId: string, id: string) {
  for (let i = 0; i < 100; i++) {
    const row = await withOrgDb(organizationId, (orgDb) =>
      orgDb.query.conversions.findFirst({ where: eq(conversions.id, id) }),
    );
    if (row && row.capiStatus !== "pending") return row;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`conversion ${id} is still pending`);
}

/** Sets the fake ad account's spend, one row per ad and day. */
export async function setInsights(
  rows: { ad_id: string; ad_name: string; date: string; spend: number }[],
) {
  await fetch(`${new URL(env.META_GRAPH_URL).origin}/__fake/insights`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ rows }),
  });
}

/** An organization with a number and a pixel whose login found the fake ad account. */
export async function advertiser() {
  const owner = await createOwner();
  const connection = await connectWhatsapp(owner.organization.id, {
    businessAccountId: GRAPH_FIXTURES.wabaId,
  });
  await env.DB.prepare(
    `INSERT INTO meta_connections (id, organization_id, pixel_id, ad_account_id, access_token_encrypted, status, created_at, updated_at)
     SELECT ?, ?, ?, ?, access_token_encrypted, 'connected', ?, ? FROM whatsapp_connections WHERE id = ?`,
  )
    .bind(
      crypto.randomUUID(),
      owner.organization.id,
      GRAPH_FIXTURES.pixelId,
      GRAPH_FIXTURES.adAccountId,
      new Date().toISOString(),
      new Date().toISOString(),
      connection.id,
    )
    .run();
  return { owner, connection };
}
