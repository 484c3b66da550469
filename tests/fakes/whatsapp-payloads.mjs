// Builders of WhatsApp Cloud API webhook deliveries, shaped as Meta sends them, and their
// X-Hub-Signature-256. No Node imports: used by the workerd tests, the browser tests and
// the sandbox alike.

let sequence = 0;

/** A wamid-like id, unique in a run. */
export function wamid() {
  sequence += 1;
  return `wamid.HBgL${Date.now().toString(36)}${sequence.toString(36)}${Math.random().toString(36).slice(2, 8)}`.toUpperCase();
}

const seconds = (date = new Date()) => String(Math.floor(date.getTime() / 1000));

/** One delivery: `object`, `entry[].changes[]` with the value of each change. */
export function delivery(...changes) {
  return {
    object: "whatsapp_business_account",
    entry: changes.map((c) => ({ id: c.wabaId, changes: [{ field: c.field, value: c.value }] })),
  };
}

/**
 * An inbound customer message change. `type` and its part follow Meta's reference, e.g.
 * `{ type: "image", image: { id, mime_type, sha256, caption } }`. Since 2026 every message
 * carries the customer's BSUID (`userId`: `from_user_id`, `contacts[].user_id`); a customer
 * with a `username` may withhold the phone: without `from`, `wa_id` and `from` are absent.
 */
export function inboundMessage({
  phoneNumberId,
  displayPhoneNumber = "34600000000",
  wabaId = "waba",
  from,
  name = "Cliente",
  userId,
  username,
  id = wamid(),
  timestamp = seconds(),
  type = "text",
  text = "Hola",
  part,
  referral,
  context,
}) {
  const message = {
    ...(from && { from }),
    ...(userId && { from_user_id: userId }),
    id,
    timestamp,
    type,
  };
  if (type === "text") message.text = { body: text };
  else if (part !== undefined) message[type] = part;
  if (referral) message.referral = referral;
  if (context) message.context = context;
  return {
    wabaId,
    field: "messages",
    value: {
      messaging_product: "whatsapp",
      metadata: { display_phone_number: displayPhoneNumber, phone_number_id: phoneNumberId },
      contacts: [
        {
          profile: { name, ...(username && { username }) },
          ...(from && { wa_id: from }),
          ...(userId && { user_id: userId }),
        },
      ],
      messages: [message],
    },
  };
}

/**
 * Inbound message changes of one number batched as Meta batches a burst: one change whose
 * `messages[]` and `contacts[]` hold them all.
 */
export function burst(...changes) {
  const [first] = changes;
  const contacts = new Map(
    changes.flatMap((c) => c.value.contacts ?? []).map((c) => [c.user_id ?? c.wa_id, c]),
  );
  return {
    ...first,
    value: {
      ...first.value,
      contacts: [...contacts.values()],
      messages: changes.flatMap((c) => c.value.messages),
    },
  };
}

/** A status change for an outbound message (sent, delivered, read, failed, played). */
export function statusUpdate({
  phoneNumberId,
  wabaId = "waba",
  id,
  recipientId,
  recipientUserId,
  status,
  timestamp = seconds(),
  errors,
  pricing = { billable: true, pricing_model: "PMP", category: "service", type: "regular" },
}) {
  return {
    wabaId,
    field: "messages",
    value: {
      messaging_product: "whatsapp",
      metadata: { display_phone_number: "34600000000", phone_number_id: phoneNumberId },
      statuses: [
        {
          id,
          status,
          timestamp,
          ...(recipientId && { recipient_id: recipientId }),
          ...(recipientUserId && { recipient_user_id: recipientUserId }),
          ...(status !== "failed" && pricing && { pricing }),
          ...(errors && { errors }),
        },
      ],
    },
  };
}

/** The `referral` of a message that came from a click-to-WhatsApp ad. */
export function ctwaReferral({
  adId = "120200000000001",
  headline = "Oferta de verano",
  ctwaClid = "ARAkLkA8rmlF",
} = {}) {
  return {
    source_url: "https://fb.me/abc",
    source_id: adId,
    source_type: "ad",
    body: "Escríbenos por WhatsApp",
    headline,
    media_type: "image",
    image_url: "https://scontent.example/ad.jpg",
    ...(ctwaClid && { ctwa_clid: ctwaClid }),
  };
}

/** `sha256=<hex>`: HMAC-SHA256 of the exact raw body with the app secret. */
export async function signPayload(rawBody, appSecret) {
  const encoder = new TextEncoder();
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(appSecret),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign"],
  );
  const signature = await crypto.subtle.sign("HMAC", key, encoder.encode(rawBody));
  return `sha256=${[...new Uint8Array(signature)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}
