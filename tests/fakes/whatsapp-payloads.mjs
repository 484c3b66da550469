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
  callbackData,
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
          ...(callbackData && { biz_opaque_callback_data: callbackData }),
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

// ── A number shared with the WhatsApp Business app and Meta's own AI (contract section 16) ──

const metadataOf = (phoneNumberId, displayPhoneNumber = "34600000000") => ({
  display_phone_number: displayPhoneNumber,
  phone_number_id: phoneNumberId,
});

/**
 * What the owner sent from the WhatsApp Business app (`smb_message_echoes`), or, with
 * `field: "standby"`, what Meta's own AI sent while it holds the thread: `from` is the
 * business number, `to` the customer (`toUserId`, their BSUID, when Meta gives it).
 */
export function messageEcho({
  phoneNumberId,
  displayPhoneNumber = "34600000000",
  wabaId = "waba",
  field = "smb_message_echoes",
  to,
  toUserId,
  id = wamid(),
  timestamp = seconds(),
  type = "text",
  text = "Hola, te escribo desde el móvil",
  part,
}) {
  const echo = {
    from: displayPhoneNumber,
    ...(to && { to }),
    ...(toUserId && { to_user_id: toUserId }),
    id,
    timestamp,
    type,
  };
  if (type === "text") echo.text = { body: text };
  else if (part !== undefined) echo[type] = part;
  return {
    wabaId,
    field,
    value: {
      messaging_product: "whatsapp",
      metadata: metadataOf(phoneNumberId, displayPhoneNumber),
      message_echoes: [echo],
    },
  };
}

/** A customer message while Meta's own AI holds the thread: `messages`' value on `standby`. */
export function standbyMessage(options) {
  return { ...inboundMessage(options), field: "standby" };
}

/** The customer edited a message (`type: "edit"`), naming the one it replaces. */
export function editedMessage({ originalId, text = "Mensaje corregido", ...options }) {
  return inboundMessage({
    ...options,
    type: "edit",
    part: { original_message_id: originalId, message: { type: "text", text: { body: text } } },
  });
}

/** The customer deleted a message for everyone (`type: "revoke"`). */
export function revokedMessage({ originalId, ...options }) {
  return inboundMessage({ ...options, type: "revoke", part: { original_message_id: originalId } });
}

/**
 * The phone's address book (`smb_app_state_sync`): `contacts` as `{phone, fullName?,
 * firstName?, action?: "add" | "remove", timestamp?}`; names are absent on `remove`.
 */
export function contactSync({ phoneNumberId, wabaId = "waba", contacts }) {
  return {
    wabaId,
    field: "smb_app_state_sync",
    value: {
      messaging_product: "whatsapp",
      metadata: metadataOf(phoneNumberId),
      state_sync: contacts.map(
        ({ phone, fullName, firstName, action = "add", timestamp = seconds() }) => ({
          type: "contact",
          contact: {
            ...(action === "add" && fullName && { full_name: fullName }),
            ...(action === "add" && firstName && { first_name: firstName }),
            phone_number: phone,
          },
          action,
          metadata: { timestamp },
        }),
      ),
    },
  };
}

/**
 * One chunk of the app's history (`history`): `threads` as `{customer, messages: [{text?,
 * type?, part?, fromBusiness?, id?, timestamp?, status?}]}`. A message from the business has the
 * business number in `from` and the customer in `to`; media arrive as `media_placeholder`.
 */
export function historyChunk({
  phoneNumberId,
  displayPhoneNumber = "34600000000",
  wabaId = "waba",
  phase = 0,
  chunkOrder = 1,
  progress = 100,
  threads,
}) {
  return {
    wabaId,
    field: "history",
    value: {
      messaging_product: "whatsapp",
      metadata: metadataOf(phoneNumberId, displayPhoneNumber),
      history: [
        {
          metadata: { phase, chunk_order: chunkOrder, progress },
          threads: threads.map(({ customer, messages }) => ({
            id: customer,
            messages: messages.map(
              ({
                text = "Hola",
                type = "text",
                part,
                fromBusiness = false,
                id = wamid(),
                timestamp = seconds(),
                status = fromBusiness ? "READ" : "DELIVERED",
              }) => {
                const message = {
                  from: fromBusiness ? displayPhoneNumber : customer,
                  ...(fromBusiness && { to: customer }),
                  id,
                  timestamp,
                  type,
                  history_context: { status },
                };
                if (type === "text") message.text = { body: text };
                else if (part !== undefined) message[type] = part;
                return message;
              },
            ),
          })),
        },
      ],
    },
  };
}

/** The owner chose not to share the app's history: Meta's error 2593109 on `history`. */
export function historyDeclined({ phoneNumberId, wabaId = "waba" }) {
  return {
    wabaId,
    field: "history",
    value: {
      messaging_product: "whatsapp",
      metadata: metadataOf(phoneNumberId),
      history: [
        {
          errors: [
            {
              code: 2593109,
              title: "History sync is turned off by the business",
              message: "History sync is turned off by the business",
              error_data: { details: "The business declined to share chat history." },
            },
          ],
        },
      ],
    },
  };
}

/**
 * Meta's handover of a customer's thread (`messaging_handovers`): `newOwnerAppId` holds it now
 * (this app's id, or Meta Business Agent's); `kind` is `pass` or `take`.
 */
export function threadHandover({
  phoneNumberId,
  wabaId = "waba",
  from,
  userId,
  newOwnerAppId,
  previousOwnerAppId = null,
  kind = "pass",
  timestamp = seconds(),
}) {
  return {
    wabaId,
    field: "messaging_handovers",
    value: {
      messaging_product: "whatsapp",
      metadata: metadataOf(phoneNumberId),
      messaging_handovers: [
        {
          ...(from && { from }),
          ...(userId && { from_user_id: userId }),
          timestamp,
          [`${kind}_thread_control`]: {
            previous_owner_app_id: previousOwnerAppId,
            new_owner_app_id: newOwnerAppId,
          },
        },
      ],
    },
  };
}

/** Meta's identifier of Meta Business Agent as a thread owner, in the fakes. */
export const META_BUSINESS_AGENT_APP_ID = "263902037430900";

/**
 * `account_update` (routed by the WABA, `entry[].id`): for a number shared with the app,
 * `PARTNER_REMOVED` with its reason, `ACCOUNT_OFFBOARDED` or `ACCOUNT_RECONNECTED`; about the
 * whole account (`phoneNumber: null`), `PARTNER_REMOVED`, `DISABLED_UPDATE` with its
 * `banState` or `ACCOUNT_DELETED`.
 */
export function accountUpdate({
  wabaId,
  event = "PARTNER_REMOVED",
  reason = "PRIMARY_INACTIVITY",
  initiatedBy = "SYSTEM",
  phoneNumber = "34600000000",
  banState = "DISABLE",
}) {
  return {
    wabaId,
    field: "account_update",
    value: {
      ...(phoneNumber && { phone_number: phoneNumber }),
      event,
      ...(event === "PARTNER_REMOVED" &&
        phoneNumber && { disconnection_info: { reason, initiated_by: initiatedBy } }),
      ...(event === "DISABLED_UPDATE" && {
        ban_info: { waba_ban_state: banState, waba_ban_date: "2026-11-28" },
      }),
    },
  };
}

/**
 * `user_preferences`: a customer stopped (`stop`) or resumed (`resume`) marketing messages from
 * the business in WhatsApp ("Ofertas y anuncios"). A customer is named by `from` (wa_id), by
 * `userId` (BSUID) or both; `category` other than `marketing_messages` is Meta's to add later.
 */
export function userPreferences({
  phoneNumberId,
  wabaId = "waba",
  from,
  userId,
  value = "stop",
  category = "marketing_messages",
  timestamp = seconds(),
}) {
  const customer = { ...(from && { wa_id: from }), ...(userId && { user_id: userId }) };
  return {
    wabaId,
    field: "user_preferences",
    value: {
      messaging_product: "whatsapp",
      metadata: metadataOf(phoneNumberId),
      contacts: [customer],
      user_preferences: [
        {
          ...customer,
          detail:
            value === "stop"
              ? "User requested to stop marketing messages"
              : "User requested to resume marketing messages",
          category,
          value,
          timestamp: Number(timestamp),
        },
      ],
    },
  };
}

// ---------------------------------------------------------------------------------------------
// WhatsApp Flows, as WhatsApp's side plays them: a data-exchange request encrypted for the
// business's registered public key (RSA-OAEP SHA-256 over a fresh AES-128 key, AES-GCM over the
// JSON), and its answer opened with the same key and the inverted IV. WebCrypto only, so the
// workerd tests, the fake and the sandbox share it.

const b64 = (bytes) => {
  const view = new Uint8Array(bytes);
  let binary = "";
  for (const byte of view) binary += String.fromCharCode(byte);
  return globalThis.btoa(binary);
};
const unb64 = (text) => Uint8Array.from(globalThis.atob(text), (c) => c.charCodeAt(0));
const pemDer = (pem) =>
  unb64(
    pem
      .replaceAll("\\n", "\n")
      .replace(/-----(BEGIN|END) [A-Z ]+-----/g, "")
      .replace(/\s+/g, ""),
  );

/**
 * Encrypts a Flow request for `publicKeyPem` (SPKI) as WhatsApp does. Answers the body to post
 * and `open(text)`, which decrypts the endpoint's base64 answer (throws when it does not open).
 */
export async function encryptFlowRequest(publicKeyPem, payload) {
  const oaep = { name: "RSA-OAEP", hash: "SHA-256" };
  const publicKey = await crypto.subtle.importKey("spki", pemDer(publicKeyPem), oaep, false, [
    "encrypt",
  ]);
  const rawKey = crypto.getRandomValues(new Uint8Array(16));
  const iv = crypto.getRandomValues(new Uint8Array(16));
  const aesKey = await crypto.subtle.importKey("raw", rawKey, "AES-GCM", false, [
    "encrypt",
    "decrypt",
  ]);
  const data = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv },
    aesKey,
    new TextEncoder().encode(JSON.stringify(payload)),
  );
  return {
    body: {
      encrypted_flow_data: b64(data),
      encrypted_aes_key: b64(await crypto.subtle.encrypt(oaep, publicKey, rawKey)),
      initial_vector: b64(iv),
    },
    async open(text) {
      const flipped = iv.map((byte) => byte ^ 0xff);
      const plain = await crypto.subtle.decrypt(
        { name: "AES-GCM", iv: flipped },
        aesKey,
        unb64(text.trim()),
      );
      return JSON.parse(new globalThis.TextDecoder().decode(plain));
    },
  };
}

/**
 * The customer's completion of a Flow: an `interactive` `nfm_reply` whose `response_json`
 * carries the `flow_token` (and whatever the Flow's last screen put in its payload).
 */
export function flowCompletion({ response, ...options }) {
  return inboundMessage({
    ...options,
    type: "interactive",
    part: {
      type: "nfm_reply",
      nfm_reply: { name: "flow", body: "Sent", response_json: JSON.stringify(response) },
    },
  });
}

/** The customer's choice in a list message: an `interactive` `list_reply`. */
export function listReply({ replyId, title, description, ...options }) {
  return inboundMessage({
    ...options,
    type: "interactive",
    part: {
      type: "list_reply",
      list_reply: { id: replyId, title, ...(description && { description }) },
    },
  });
}
