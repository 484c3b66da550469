// A local Meta Graph API (v25.0) for the tests and the sandbox: the calls the app makes,
// answered in Graph's wire format, every request recorded, failures injectable through
// /__fake/fail (`{path, contains?, status, error?}` answers Graph's error; `delay_ms` makes
// it slow, with or without a status; `drop: true` cuts the connection), and signed status
// webhooks (sent → delivered → read) for accepted messages.
import { createHmac, createPublicKey, randomBytes } from "node:crypto";
import { sendJson, startRecordingServer } from "./http-kit.mjs";
import {
  contactSync,
  delivery,
  encryptFlowRequest,
  flowCompletion,
  historyChunk,
} from "./whatsapp-payloads.mjs";

export const GRAPH_VERSION = "v25.0";

export const GRAPH_FIXTURES = {
  appId: "1234567890123456",
  wabaId: "102290129340398",
  phoneNumberId: "106540352242922",
  displayPhoneNumber: "+34 600 000 000",
  verifiedName: "Atiende Sandbox",
  validCode: "valid-code",
  businessToken: "EAAG-sandbox-business-token",
  adAccountId: "act_880000000000001",
  pixelId: "990000000000001",
  pixelName: "Pixel Sandbox",
  datasetId: "770000000000001",
  /**
   * A second account and number the same login grants, for the API tests of a number moved in
   * from the WhatsApp Business app: tests running in parallel on the first number cannot see
   * its requests.
   */
  appWabaId: "102290129340399",
  appPhoneNumberId: "106540352242923",
  appDisplayPhoneNumber: "+34 600 000 001",
  /** Another business's account, which holds only its own number (a WABA id typed by hand). */
  foreignWabaId: "102290129340400",
  foreignPhoneNumberId: "106540352242924",
  /**
   * Embedded Signup v4 lets a business finish before its number is verified, or without one
   * (decision 0074): an account the login grants whose only number is `NOT_VERIFIED` (Meta
   * refuses to register it), and one with no number at all (`FINISH_ONLY_WABA`).
   */
  pendingWabaId: "102290129340401",
  pendingPhoneNumberId: "106540352242925",
  pendingDisplayPhoneNumber: "+34 600 000 002",
  emptyWabaId: "102290129340402",
};

/** The fixtures' number as analytics name it (digits only): pricing points without `phone`. */
const DEFAULT_NUMBER = GRAPH_FIXTURES.displayPhoneNumber.replace(/\D/g, "");

/** The only event names Meta takes for click-to-WhatsApp (business_messaging) events. */
const BUSINESS_MESSAGING_EVENTS = [
  "LeadSubmitted",
  "Purchase",
  "AddToCart",
  "InitiateCheckout",
  "ViewContent",
];

/**
 * What Meta's Conversions API would refuse in one event, by its action_source: a message, or
 * `{message, subcode}`. One refused event refuses the whole request, like Meta.
 */
function eventProblem(event) {
  const user = event.user_data ?? {};
  for (const hash of [user.ph ?? []].flat())
    if (!/^[0-9a-f]{64}$/.test(hash)) return "Invalid parameter: ph must be a SHA-256 hash";
  if (user.fbc !== undefined && !/^fb\.1\.\d{13}\..+$/.test(user.fbc))
    return "Invalid parameter: fbc is not in the fb.1.<ms>.<fbclid> format";
  if (event.action_source === "website") {
    if (!user.client_user_agent)
      return "Invalid parameter: client_user_agent is required for website events";
    if (!event.event_source_url)
      return "Invalid parameter: event_source_url is required for website events";
  }
  if (event.action_source === "business_messaging") {
    if (!BUSINESS_MESSAGING_EVENTS.includes(event.event_name))
      return {
        subcode: 2804066,
        message: `Invalid parameter: event_name ${event.event_name} is not supported for business_messaging`,
      };
    if (event.messaging_channel !== "whatsapp")
      return "Invalid parameter: messaging_channel must be whatsapp";
    if (!user.whatsapp_business_account_id || !user.ctwa_clid)
      return "Invalid parameter: whatsapp_business_account_id and ctwa_clid are required";
  }
  return null;
}

/** The fake account's templates, as `GET /{waba}/message_templates` lists them. */
const TEMPLATES = [
  {
    name: "seguimiento_cita",
    language: "es",
    status: "APPROVED",
    category: "UTILITY",
    id: "1001",
    components: [{ type: "BODY", text: "Hola {{1}}, ¿te confirmamos la cita?" }],
  },
  {
    name: "bienvenida",
    language: "es",
    status: "APPROVED",
    category: "MARKETING",
    id: "1002",
    components: [{ type: "BODY", text: "¡Gracias por escribirnos!" }],
  },
  {
    name: "codigo_acceso",
    language: "es",
    status: "APPROVED",
    category: "AUTHENTICATION",
    id: "1004",
    components: [{ type: "BODY", text: "Tu código es {{1}}" }],
  },
  {
    name: "promo_rechazada",
    language: "es",
    status: "REJECTED",
    category: "MARKETING",
    id: "1003",
    components: [{ type: "BODY", text: "Oferta" }],
  },
];

/**
 * Approved templates Meta sends but the list call leaves out, unless the account is one of the
 * fake's `fullLists` (the sandbox's) or was named to `POST /__fake/templates
 * {business_account_id}`: so every other test's list stays as it was. A booking reminder's
 * (contract section 18): a utility template with three quick-reply buttons.
 */
export const UNLISTED_TEMPLATES = [
  {
    name: "recordatorio_cita",
    language: "es",
    status: "APPROVED",
    category: "UTILITY",
    id: "1101",
    components: [
      { type: "BODY", text: "Te recordamos tu cita de {{1}} el {{2}}." },
      {
        type: "BUTTONS",
        buttons: [
          { type: "QUICK_REPLY", text: "Confirmar" },
          { type: "QUICK_REPLY", text: "Cambiar" },
          { type: "QUICK_REPLY", text: "Cancelar cita" },
        ],
      },
    ],
  },
];

/** A template Meta sends by its name (listed or not). */
const sendableTemplate = (name) =>
  TEMPLATES.find((t) => t.name === name) ?? UNLISTED_TEMPLATES.find((t) => t.name === name);

/**
 * What Meta refuses in a template's `button` components: each names a quick-reply button of the
 * template by its index and carries a payload.
 */
function buttonProblem(template, given) {
  const buttons = template.components.find((c) => c.type === "BUTTONS")?.buttons ?? [];
  for (const part of given.filter((c) => c.type === "button")) {
    const button = buttons[Number(part.index)];
    const payload = part.parameters?.[0];
    if (part.sub_type !== "quick_reply" || button?.type !== "QUICK_REPLY")
      return { message: "(#131008) Button at index is not a quick reply", code: 131008 };
    if (payload?.type !== "payload" || !payload.payload || payload.payload.length > 128)
      return { message: "(#131009) Parameter value is not valid: payload", code: 131009 };
  }
  return null;
}

/** What Meta refuses in a template, media or reaction message, as its error. */
function outboundProblem(body, uploaded) {
  // Exactly one of `to` (a phone) and `recipient` (a BSUID) names the customer.
  if (Boolean(body.to) === Boolean(body.recipient))
    return { message: "(#100) Exactly one of to or recipient is required.", code: 100 };
  if (body.recipient && !/^[A-Z]{2}\.[A-Za-z0-9]{1,128}$/.test(body.recipient))
    return { message: "(#100) Invalid parameter recipient", code: 100 };
  if (body.type === "template") {
    const t = body.template ?? {};
    const known = [...TEMPLATES, ...UNLISTED_TEMPLATES].find(
      (x) => x.name === t.name && x.language === t.language?.code && x.status === "APPROVED",
    );
    if (!known)
      return { message: "(#132001) Template name does not exist in the translation", code: 132001 };
    if (known.category === "AUTHENTICATION" && body.recipient)
      return {
        message: "(#131062) Authentication templates cannot be sent to a business-scoped user ID",
        code: 131062,
      };
    const expected = new Set(known.components[0].text.match(/\{\{\d+\}\}/g) ?? []).size;
    const given = (t.components ?? []).find((c) => c.type === "body")?.parameters?.length ?? 0;
    if (expected !== given)
      return { message: "(#132000) Number of parameters does not match", code: 132000 };
    const buttons = buttonProblem(known, t.components ?? []);
    if (buttons) return buttons;
  }
  if (["image", "audio", "video", "document", "sticker"].includes(body.type)) {
    const part = body[body.type] ?? {};
    if (!part.link && !uploaded.has(part.id))
      return { message: "(#131053) Media upload error: unknown media id", code: 131053 };
    if (body.type === "audio" && part.caption)
      return { message: "(#100) Param audio['caption'] is not allowed", code: 100 };
  }
  // A `cta_url` button: a link and its text (at most 20 characters).
  const cta = body.type === "interactive" && body.interactive?.type === "cta_url";
  const link = cta ? (body.interactive.action?.parameters ?? {}) : null;
  if (link && (!/^https?:\/\//.test(link.url ?? "") || !(link.display_text?.length <= 20)))
    return { message: "(#131009) Parameter value is not valid", code: 131009 };
  if (body.type === "reaction" && (!body.reaction?.message_id || body.reaction.emoji === undefined))
    return { message: "(#100) reaction requires message_id and emoji", code: 100 };
  return null;
}

/**
 * What Meta refuses in an interactive `flow` or `list` message (lengths as Meta's reference
 * gives them); a Flow must be published on the account. Other interactive types pass.
 */
function interactiveProblem(body, flows) {
  if (body.type !== "interactive") return null;
  const part = body.interactive ?? {};
  const invalid = (what) => ({
    message: `(#131009) Parameter value is not valid: ${what}`,
    code: 131009,
  });
  if (!part.body?.text) return invalid("interactive.body.text is required");
  if (part.type === "flow") {
    const p = part.action?.parameters ?? {};
    if (part.action?.name !== "flow") return invalid("action.name must be flow");
    if (p.flow_message_version !== "3") return invalid("flow_message_version");
    if (!p.flow_token || !p.flow_cta || p.flow_cta.length > 20)
      return invalid("flow_token or flow_cta");
    if (!["navigate", "data_exchange"].includes(p.flow_action)) return invalid("flow_action");
    const flow = flows.get(p.flow_id);
    if (!flow) return invalid("flow_id does not exist");
    if (flow.status !== "PUBLISHED")
      return { message: "(#139000) Flow is not published", code: 139000 };
  }
  if (part.type === "list") {
    const rows = (part.action?.sections ?? []).flatMap((section) => section.rows ?? []);
    if (!part.action?.button || part.action.button.length > 20) return invalid("action.button");
    if (rows.length === 0 || rows.length > 10) return invalid("a list holds 1 to 10 rows");
    for (const row of rows) {
      if (!row.id || row.id.length > 200) return invalid("row id (at most 200 characters)");
      if (!row.title || row.title.length > 24) return invalid("row title (at most 24 characters)");
      if (row.description && row.description.length > 72) return invalid("row description");
    }
  }
  return null;
}

/**
 * What Meta bills for a message it accepted (per-message pricing): a template its
 * category, anything else a service message, billable since October 2026.
 */
export function pricingOf(body, edge = "messages") {
  const template = body.type === "template" && sendableTemplate(body.template?.name);
  // Meta bills what the Marketing Messages API sends as `marketing_lite`.
  const category = template ? template.category.toLowerCase() : "service";
  return {
    billable: true,
    pricing_model: "PMP",
    category: edge === "marketing_messages" ? "marketing_lite" : category,
    type: "regular",
  };
}

/** Graph's error envelope. */
function graphError(res, status, { message, code = 100, error_subcode, type = "OAuthException" }) {
  sendJson(res, status, {
    error: {
      message,
      type,
      code,
      ...(error_subcode && { error_subcode }),
      fbtrace_id: randomBytes(8).toString("hex"),
    },
  });
}

/**
 * @param {{ port?: number, appSecret?: string, webhookUrl?: string, autoStatuses?: boolean, statusDelayMs?: number, adInsights?: any[], fullLists?: string[] }} options
 */
export async function startFakeGraph({
  port = 0,
  appSecret = "",
  webhookUrl,
  autoStatuses = false,
  statusDelayMs = 50,
  adInsights: initialInsights = [],
  pricing: initialPricing = [],
  playAppData = false,
  fullLists = [],
} = {}) {
  const F = GRAPH_FIXTURES;
  /** The accounts whose template list includes `UNLISTED_TEMPLATES`. */
  const fullyListed = new Set(fullLists);
  const usedCodes = new Set();
  /** `<phone number id>:<sync type>` already requested: Meta allows each sync once. */
  const appSyncs = new Set();
  const tokens = new Set([F.businessToken, "test-access-token", "sandbox-access-token"]);
  const uploaded = new Map();
  let messageSequence = 0;
  /** Each number's messaging limit tier, set through /__fake/messaging-limit. */
  const messagingLimits = new Map();
  /**
   * The numbers asked for by id (tests give each organization its own): the sandbox's accounts
   * hold every one of them, as the fixture's account holds its number; the foreign one, none.
   */
  const numbersSeen = new Set();
  /**
   * WhatsApp Flows: each number's registered public key (PEM), the Flows created on accounts
   * (`{id, wabaId, name, endpointUri, status, json}`), and the Flow messages accepted, newest last
   * (`{flowToken, flowId, phoneNumberId, to, recipient}`), which `/__fake/flow` plays.
   */
  const flowKeys = new Map();
  const flows = new Map();
  const sentFlows = [];
  let flowSequence = 0;
  /** Ids chosen for the next accepted message containing a text (/__fake/message-id). */
  let chosenIds = [];
  /** The fake ad account's spend, one row per ad and day (tests set it through /__fake/insights). */
  let adInsights = [...initialInsights];
  /**
   * The WABA's billed messages per day, category, country and number (`phone`, digits only;
   * the fixtures' number when absent), set through /__fake/pricing.
   */
  let pricingPoints = [...initialPricing];

  async function sendWebhook(payload) {
    if (!webhookUrl) return 0;
    const body = JSON.stringify(payload);
    const signature = `sha256=${createHmac("sha256", appSecret).update(body).digest("hex")}`;
    const answer = await fetch(webhookUrl, {
      method: "POST",
      headers: { "Content-Type": "application/json", "X-Hub-Signature-256": signature },
      body,
    }).catch(() => null);
    return answer?.status ?? 0;
  }

  /**
   * sent → delivered → read for an accepted message; `pricing` rides on the first two, and the
   * send's `biz_opaque_callback_data` on all of them, as Meta repeats it.
   */
  function scheduleStatuses(phoneNumberId, id, body, edge) {
    ["sent", "delivered", "read"].forEach((status, index) => {
      setTimeout(
        () => {
          void sendWebhook({
            object: "whatsapp_business_account",
            entry: [
              {
                id: F.wabaId,
                changes: [
                  {
                    field: "messages",
                    value: {
                      messaging_product: "whatsapp",
                      metadata: {
                        display_phone_number: F.displayPhoneNumber.replace(/\D/g, ""),
                        phone_number_id: phoneNumberId,
                      },
                      statuses: [
                        {
                          id,
                          status,
                          timestamp: String(Math.floor(Date.now() / 1000)),
                          ...(body.to
                            ? { recipient_id: body.to }
                            : { recipient_user_id: body.recipient }),
                          ...(status !== "read" && { pricing: pricingOf(body, edge) }),
                          ...(body.biz_opaque_callback_data && {
                            biz_opaque_callback_data: body.biz_opaque_callback_data,
                          }),
                        },
                      ],
                    },
                  },
                ],
              },
            ],
          });
        },
        statusDelayMs * (index + 1),
      );
    });
  }

  /**
   * A customer's file held under a new media id, as if they had sent it: `text` (UTF-8, e.g. the
   * words the fake model "hears" in a voice note) or `base64` bytes, its `mime_type`, and
   * optionally the `file_size` Meta states for it (to test size caps without the bytes).
   */
  function holdMedia({ text, base64, mime_type = "audio/ogg", file_size }) {
    messageSequence += 1;
    const id = `${Date.now()}${messageSequence}`;
    const bytes = base64 !== undefined ? Buffer.from(base64, "base64") : Buffer.from(text ?? "");
    uploaded.set(id, { bytes, mime: mime_type, statedSize: file_size });
    return id;
  }

  /**
   * With `playAppData`, a number's `smb_app_data` request is answered as Meta does after it:
   * the phone's contacts, then its history in chunks out of order (the sandbox's two chats).
   */
  function playSync(phoneNumberId, syncType) {
    const at = (minutesAgo) => String(Math.floor(Date.now() / 1000) - minutesAgo * 60);
    const send = (change, delayMs) =>
      setTimeout(() => void sendWebhook(delivery({ ...change, wabaId: F.wabaId })), delayMs);
    const digits = F.displayPhoneNumber.replace(/\D/g, "");
    if (syncType === "smb_app_state_sync") {
      send(
        contactSync({
          phoneNumberId,
          contacts: APP_CHATS.map(({ customer, name }) => ({ phone: customer, fullName: name })),
        }),
        statusDelayMs,
      );
      return;
    }
    const chunk = (chunkOrder, progress, phase, messagesOf) =>
      historyChunk({
        phoneNumberId,
        displayPhoneNumber: digits,
        phase,
        chunkOrder,
        progress,
        threads: APP_CHATS.map(({ customer }, index) => ({
          customer,
          messages: messagesOf(index),
        })),
      });
    // Chunk 2 of phase 0 before chunk 1, as Meta may send them; phase 1 holds the oldest days.
    send(
      chunk(2, 40, 0, (i) => [
        { text: APP_CHATS[i].recent, timestamp: at(30 + i) },
        { text: "¡Perfecto! Te lo preparo.", fromBusiness: true, timestamp: at(20 + i) },
      ]),
      statusDelayMs * 2,
    );
    send(
      chunk(1, 70, 0, (i) => [
        { type: "media_placeholder", timestamp: at(60 * 20 + i) },
        { text: "Buenos días, ¿seguís abiertos?", timestamp: at(60 * 22 + i) },
      ]),
      statusDelayMs * 4,
    );
    send(
      chunk(1, 100, 1, (i) => [
        { text: APP_CHATS[i].first, timestamp: at(60 * 24 * 30 + i) },
        { text: "¡Hola! Sí, claro.", fromBusiness: true, timestamp: at(60 * 24 * 30 - 5 + i) },
      ]),
      statusDelayMs * 6,
    );
  }

  const bearer = (req) => /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1] ?? null;

  const started = await startRecordingServer(
    port,
    async (req, res, body, url) => {
      if (url.pathname === "/__fake/templates" && req.method === "POST") {
        fullyListed.add(String(body?.business_account_id));
        return sendJson(res, 200, { ok: true });
      }
      if (url.pathname === "/__fake/insights" && req.method === "POST") {
        adInsights = [...(body?.rows ?? [])];
        return sendJson(res, 200, { ok: true });
      }
      // `{phone_number_id, tier}`: the number's messaging limit (TIER_2K until set).
      if (url.pathname === "/__fake/messaging-limit" && req.method === "POST") {
        messagingLimits.set(body?.phone_number_id, body?.tier);
        return sendJson(res, 200, { ok: true });
      }
      // `{contains, id}`: the next accepted message whose body contains `contains` gets `id`.
      if (url.pathname === "/__fake/message-id" && req.method === "POST") {
        chosenIds.push({ contains: String(body?.contains ?? ""), id: String(body?.id ?? "") });
        return sendJson(res, 200, { ok: true });
      }
      if (url.pathname === "/__fake/pricing" && req.method === "POST") {
        pricingPoints = [...(body?.points ?? [])];
        return sendJson(res, 200, { ok: true });
      }
      if (url.pathname === "/__fake/media" && req.method === "POST") {
        return sendJson(res, 200, { id: holdMedia(body ?? {}) });
      }
      if (url.pathname === "/__fake/flow" && req.method === "POST") {
        return playFlow(res, body ?? {});
      }
      if (url.pathname === "/__fake/webhook" && req.method === "POST") {
        return sendJson(res, 200, { status: await sendWebhook(body?.payload ?? body) });
      }
      if (url.pathname.startsWith("/media-download/")) {
        if (!tokens.has(bearer(req) ?? ""))
          return graphError(res, 401, { message: "Invalid OAuth access token.", code: 190 });
        const id = url.pathname.split("/").pop();
        const media = uploaded.get(id) ?? { bytes: TINY_PNG, mime: "image/png" };
        res.writeHead(200, { "Content-Type": media.mime });
        return res.end(media.bytes);
      }
      // Meta's Business API: giving a customer's thread back to Meta Business Agent.
      const threadControl = /^\/business\/whatsapp\/phone_numbers\/([^/]+)\/thread_control$/.exec(
        url.pathname,
      );
      if (threadControl && req.method === "POST") {
        if (!tokens.has(bearer(req) ?? ""))
          return graphError(res, 401, { message: "Invalid OAuth access token.", code: 190 });
        if (req.headers["x-api-version"] !== "1.0.0")
          return graphError(res, 400, {
            message: "Unsupported or missing X-API-Version",
            code: 100,
          });
        if (
          body?.messaging_product !== "whatsapp" ||
          !["release", "take", "pass"].includes(body?.action) ||
          !(body?.to || body?.recipient)
        )
          return graphError(res, 400, { message: "(#100) Invalid parameter", code: 100 });
        return sendJson(res, 200, { success: true });
      }
      const prefix = `/${GRAPH_VERSION}/`;
      if (!url.pathname.startsWith(prefix))
        return graphError(res, 400, { message: "Unknown path components" });
      const parts = url.pathname.slice(prefix.length).split("/").filter(Boolean);
      const [node, edge] = parts;
      const method = req.method ?? "GET";

      // Calls that need no user token.
      if (node === "oauth" && edge === "access_token") {
        const code = url.searchParams.get("code");
        if (url.searchParams.get("client_id") !== F.appId)
          return graphError(res, 400, {
            message: "Error validating application. Invalid application ID.",
            code: 101,
          });
        // Every code starting with "valid-" is a real one (each works once), so tests can make their own.
        if (!code?.startsWith("valid-"))
          return graphError(res, 400, {
            message: "Invalid verification code format.",
            code: 100,
            error_subcode: 36007,
          });
        if (usedCodes.has(code))
          return graphError(res, 400, {
            message: "This authorization code has been used.",
            code: 100,
            error_subcode: 36009,
          });
        usedCodes.add(code);
        return sendJson(res, 200, { access_token: F.businessToken, token_type: "bearer" });
      }
      if (node === "debug_token") {
        const token = url.searchParams.get("input_token");
        if (!tokens.has(token ?? ""))
          return sendJson(res, 200, { data: { is_valid: false, scopes: [] } });
        return sendJson(res, 200, {
          data: {
            app_id: F.appId,
            type: "USER",
            application: "Atiende",
            is_valid: true,
            scopes: [
              "whatsapp_business_management",
              "whatsapp_business_messaging",
              "business_management",
              "ads_management",
              "ads_read",
            ],
            granular_scopes: [
              {
                scope: "whatsapp_business_management",
                target_ids: [F.wabaId, F.appWabaId, F.pendingWabaId, F.emptyWabaId],
              },
              {
                scope: "whatsapp_business_messaging",
                target_ids: [F.wabaId, F.appWabaId, F.pendingWabaId, F.emptyWabaId],
              },
              { scope: "business_management" },
              { scope: "ads_management", target_ids: [F.adAccountId.replace("act_", "")] },
              { scope: "ads_read" },
            ],
          },
        });
      }

      const token = bearer(req) ?? url.searchParams.get("access_token") ?? body?.access_token;
      if (!tokens.has(token ?? ""))
        return graphError(res, 401, {
          message: "Invalid OAuth access token - Cannot parse access token",
          code: 190,
        });

      // Any phone number id sends (tests give each organization its own number); the Marketing
      // Messages API takes the same body, for marketing templates only.
      if ((edge === "messages" || edge === "marketing_messages") && method === "POST") {
        if (body?.messaging_product !== "whatsapp")
          return graphError(res, 400, {
            message: "(#100) The parameter messaging_product is required.",
            code: 100,
          });
        if (
          edge === "marketing_messages" &&
          sendableTemplate(body.template?.name)?.category !== "MARKETING"
        )
          return graphError(res, 400, {
            message: "(#134100) Only marketing templates are supported by this endpoint",
            code: 134100,
          });
        if (body.status === "read") return sendJson(res, 200, { success: true });
        if (body.type === "text" && !(body.text?.body?.length <= 4096))
          return graphError(res, 400, { message: "(#100) Invalid parameter", code: 100 });
        const problem = outboundProblem(body, uploaded) ?? interactiveProblem(body, flows);
        if (problem) return graphError(res, 400, problem);
        if (body.type === "interactive" && body.interactive.type === "flow") {
          const p = body.interactive.action.parameters;
          sentFlows.push({
            flowToken: p.flow_token,
            flowId: p.flow_id,
            phoneNumberId: node,
            to: body.to,
            recipient: body.recipient,
          });
        }
        messageSequence += 1;
        const raw = JSON.stringify(body);
        const chosen = chosenIds.find((c) => raw.includes(c.contains));
        chosenIds = chosenIds.filter((c) => c !== chosen);
        const id =
          chosen?.id ?? `wamid.FAKE${Date.now().toString(36).toUpperCase()}${messageSequence}`;
        if (autoStatuses) scheduleStatuses(node, id, body, edge);
        return sendJson(res, 200, {
          messaging_product: "whatsapp",
          contacts: [
            body.to
              ? { input: body.to, wa_id: body.to }
              : { input: body.recipient, user_id: body.recipient },
          ],
          messages: [{ id }],
        });
      }
      // WhatsApp Flows: the business's public key on a number (any number the tests connect).
      if (edge === "whatsapp_business_encryption" && method === "POST") {
        const pem = body?.business_public_key;
        try {
          if (createPublicKey(pem).asymmetricKeyDetails?.modulusLength !== 2048) throw new Error();
        } catch {
          return graphError(res, 400, {
            message: "(#100) Invalid parameter: business_public_key must be an RSA-2048 public key",
            code: 100,
          });
        }
        flowKeys.set(node, pem);
        return sendJson(res, 200, { success: true });
      }
      if (edge === "flows" && method === "POST") {
        const categories = body?.categories;
        if (!body?.name || !Array.isArray(categories) || categories.length === 0)
          return graphError(res, 400, {
            message: "(#100) The parameters name and categories are required.",
            code: 100,
          });
        if ([...flows.values()].some((f) => f.wabaId === node && f.name === body.name))
          return graphError(res, 400, {
            message: "(#100) Flow name is not unique",
            code: 100,
            error_subcode: 4016019,
          });
        flowSequence += 1;
        const id = `${Date.now()}${flowSequence}`;
        flows.set(id, {
          id,
          wabaId: node,
          name: body.name,
          categories,
          endpointUri: body.endpoint_uri ?? null,
          status: "DRAFT",
          json: null,
        });
        return sendJson(res, 200, { id, success: true, validation_errors: [] });
      }
      if (flows.has(node) && edge === "assets" && method === "POST") {
        const flow = flows.get(node);
        if (body?.asset_type !== "FLOW_JSON" || body?.name !== "flow.json" || !body?.file?.bytes)
          return graphError(res, 400, {
            message: "(#100) name flow.json, asset_type FLOW_JSON and file are required.",
            code: 100,
          });
        if (flow.status !== "DRAFT")
          return graphError(res, 400, { message: "(#139001) Flow is published", code: 139001 });
        let json;
        try {
          json = JSON.parse(body.file.bytes.toString("utf8"));
        } catch {
          json = null;
        }
        const validation_errors = [];
        if (!json || !Array.isArray(json.screens) || json.screens.length === 0)
          validation_errors.push({ error: "INVALID_JSON", message: "screens are required" });
        else if (json.data_api_version && !flow.endpointUri)
          validation_errors.push({ error: "MISSING_ENDPOINT", message: "endpoint_uri needed" });
        flow.json = validation_errors.length === 0 ? json : null;
        return sendJson(res, 200, { success: true, validation_errors });
      }
      if (flows.has(node) && edge === "publish" && method === "POST") {
        const flow = flows.get(node);
        if (!flow.json)
          return graphError(res, 400, {
            message: "(#139002) Publishing failed: the Flow JSON is missing or invalid",
            code: 139002,
          });
        flow.status = "PUBLISHED";
        return sendJson(res, 200, { success: true });
      }
      // The WhatsApp Business app's contacts and history, each requested once per number.
      if (edge === "smb_app_data" && method === "POST") {
        const syncType = body?.sync_type;
        if (
          body?.messaging_product !== "whatsapp" ||
          !["smb_app_state_sync", "history"].includes(syncType)
        )
          return graphError(res, 400, { message: "(#100) Invalid parameter", code: 100 });
        if (appSyncs.has(`${node}:${syncType}`))
          return graphError(res, 400, {
            message: "(#100) Data synchronization was already requested for this phone number.",
            code: 100,
          });
        appSyncs.add(`${node}:${syncType}`);
        if (playAppData && webhookUrl) playSync(node, syncType);
        return sendJson(res, 200, {
          messaging_product: "whatsapp",
          request_id: `sync-${randomBytes(6).toString("hex")}`,
        });
      }
      if (
        (node === F.phoneNumberId || node === F.appPhoneNumberId) &&
        edge === "register" &&
        method === "POST"
      )
        return sendJson(res, 200, { success: true });
      // Media upload (any number): multipart with messaging_product, type and the file.
      if (edge === "media" && method === "POST") {
        const file = body?.file;
        if (body?.messaging_product !== "whatsapp" || !file?.bytes || !body?.type)
          return graphError(res, 400, {
            message: "(#100) The parameter messaging_product, file and type are required.",
            code: 100,
          });
        messageSequence += 1;
        const id = `${Date.now()}${messageSequence}`;
        uploaded.set(id, { bytes: file.bytes, mime: body.type });
        return sendJson(res, 200, { id });
      }
      if (node === F.phoneNumberId && edge === "whatsapp_business_profile") {
        return sendJson(res, 200, {
          data: [
            {
              about: "Atendemos por WhatsApp",
              address: "Calle Mayor 1, Madrid",
              description: "Negocio de prueba",
              email: "hola@sandbox.example",
              websites: ["https://sandbox.example"],
              vertical: "HEALTH",
              messaging_product: "whatsapp",
            },
          ],
        });
      }
      // The business portfolio's messaging limit, as each number reports it (since Oct 2025).
      if (
        !edge &&
        method === "GET" &&
        url.searchParams.get("fields") === "whatsapp_business_manager_messaging_limit"
      ) {
        return sendJson(res, 200, {
          id: node,
          whatsapp_business_manager_messaging_limit: messagingLimits.get(node) ?? "TIER_2K",
        });
      }
      // Any number id answers (tests give each organization its own); media ids carry no `fields`.
      if (
        !edge &&
        method === "GET" &&
        url.searchParams.get("fields")?.includes("display_phone_number")
      ) {
        numbersSeen.add(node);
        return sendJson(res, 200, {
          id: F.phoneNumberId,
          display_phone_number: F.displayPhoneNumber,
          verified_name: F.verifiedName,
          quality_rating: "GREEN",
          code_verification_status: "VERIFIED",
        });
      }
      // v4's unfinished signups: a number not verified yet, and an account without one.
      if (node === F.pendingWabaId && edge === "phone_numbers") {
        return sendJson(res, 200, {
          data: [
            {
              id: F.pendingPhoneNumberId,
              display_phone_number: F.pendingDisplayPhoneNumber,
              verified_name: F.verifiedName,
              code_verification_status: "NOT_VERIFIED",
            },
          ],
        });
      }
      if (node === F.emptyWabaId && edge === "phone_numbers")
        return sendJson(res, 200, { data: [] });
      if (node === F.pendingPhoneNumberId && edge === "register" && method === "POST")
        return graphError(res, 400, {
          message: "(#133010) Phone number Not Registered",
          code: 133010,
        });
      if (node === F.foreignWabaId && edge === "phone_numbers") {
        const own = { id: F.foreignPhoneNumberId, display_phone_number: "+34 699 999 999" };
        return sendJson(res, 200, { data: [{ ...own, verified_name: "Otra Empresa" }] });
      }
      // The fixture's account, or any other the tests type by hand: the fixture's number first,
      // then every number asked for by id.
      if (edge === "phone_numbers" && node !== F.appWabaId) {
        const seen = [...numbersSeen].filter((id) => id !== F.phoneNumberId);
        return sendJson(res, 200, {
          data: [
            {
              id: F.phoneNumberId,
              display_phone_number: F.displayPhoneNumber,
              verified_name: F.verifiedName,
              quality_rating: "GREEN",
              code_verification_status: "VERIFIED",
            },
            ...seen.map((id) => ({
              id,
              display_phone_number: F.displayPhoneNumber,
              code_verification_status: "VERIFIED",
            })),
          ],
          paging: { cursors: { before: "QVFI", after: "QVFI" } },
        });
      }
      if (node === F.appWabaId && edge === "phone_numbers") {
        return sendJson(res, 200, {
          data: [
            {
              id: F.appPhoneNumberId,
              display_phone_number: F.appDisplayPhoneNumber,
              verified_name: F.verifiedName,
              quality_rating: "GREEN",
              code_verification_status: "VERIFIED",
            },
          ],
        });
      }
      if (
        [F.wabaId, F.appWabaId, F.pendingWabaId, F.emptyWabaId].includes(node) &&
        edge === "subscribed_apps" &&
        method === "POST"
      )
        return sendJson(res, 200, { success: true });
      if (node === F.wabaId && edge === "dataset" && method === "POST")
        return sendJson(res, 200, { id: F.datasetId });
      // Any WhatsApp Business Account the tests connect (the sandbox's and the browser tests').
      if (!edge && method === "GET" && url.searchParams.get("fields")?.startsWith("pricing_"))
        return pricingAnalytics(res, url);
      // Every account the tests connect lists the fake's templates.
      if (edge === "message_templates" && method === "GET") {
        return sendJson(res, 200, {
          data: fullyListed.has(node) ? [...TEMPLATES, ...UNLISTED_TEMPLATES] : TEMPLATES,
          paging: { cursors: { before: "MAZDZD", after: "MjQZD" } },
        });
      }
      if ((node === F.pixelId || node === F.datasetId) && edge === "events" && method === "POST") {
        const events = Array.isArray(body?.data) ? body.data : [];
        const now = Date.now() / 1000;
        if (events.length === 0 || events.length > 1000)
          return graphError(res, 400, { message: "Invalid parameter", code: 100 });
        for (const event of events) {
          if (!event.event_name || !event.event_time || !event.action_source)
            return graphError(res, 400, {
              message: "Invalid parameter: missing event_name, event_time or action_source",
              code: 100,
            });
          if (event.event_time < now - 7 * 86400 || event.event_time > now + 60)
            return graphError(res, 400, {
              message: "Invalid parameter: event_time is outside the allowed range",
              code: 100,
              error_subcode: 2804004,
            });
          const problem = eventProblem(event);
          if (problem)
            return graphError(res, 400, {
              message: typeof problem === "string" ? problem : problem.message,
              code: 100,
              ...(typeof problem === "object" && { error_subcode: problem.subcode }),
            });
        }
        return sendJson(res, 200, {
          events_received: events.length,
          messages: [],
          fbtrace_id: randomBytes(8).toString("hex"),
        });
      }
      if (node === F.pixelId && edge === "stats")
        return sendJson(res, 200, {
          data: [{ aggregation: "event", data: [{ value: "Lead", count: 12 }] }],
        });
      if (node === F.pixelId && !edge)
        return sendJson(res, 200, {
          id: F.pixelId,
          name: F.pixelName,
          last_fired_time: new Date().toISOString(),
        });
      if (node === "me" && edge === "adaccounts")
        return sendJson(res, 200, {
          data: [
            {
              id: F.adAccountId,
              account_id: F.adAccountId.replace("act_", ""),
              name: "Cuenta Sandbox",
            },
          ],
        });
      if (node === F.adAccountId && edge === "insights") return insights(res, url);
      if (node === F.adAccountId && edge === "adspixels")
        return sendJson(res, 200, { data: [{ id: F.pixelId, name: F.pixelName }] });
      if (!edge && method === "GET" && /^\d+$/.test(node ?? "")) {
        return sendJson(res, 200, {
          messaging_product: "whatsapp",
          url: `http://127.0.0.1:${started.port}/media-download/${node}`,
          mime_type: uploaded.get(node)?.mime ?? "image/png",
          sha256: "0",
          file_size:
            uploaded.get(node)?.statedSize ?? uploaded.get(node)?.bytes.length ?? TINY_PNG.length,
          id: node,
        });
      }
      return graphError(res, 400, {
        message: `Unsupported ${method.toLowerCase()} request. Object with ID '${node}' does not exist, cannot be loaded due to missing permissions, or does not support this operation.`,
        code: 100,
        error_subcode: 33,
      });
    },
    (res, failure) => {
      // `drop: true` (given with a status, which arms the failure) ends the connection
      // without an answer, as a network failure does.
      if (failure.drop) return res.socket?.end();
      graphError(res, failure.status, failure.error ?? { message: "Fallo inyectado", code: 1 });
    },
    () => {
      usedCodes.clear();
      appSyncs.clear();
      adInsights = [];
      pricingPoints = [];
      chosenIds = [];
    },
  );

  /**
   * `POST /__fake/flow {flow_token?, phone?, steps?, endpoint?}` plays WhatsApp: the Flow sent
   * with that token (or the last one sent to `phone`) is opened and walked through its endpoint,
   * each request encrypted for the number's registered key and signed with the app secret;
   * `steps` (`[{screen?, data}]`) choose on each screen, else the first option of each. When the
   * endpoint closes the Flow (`SUCCESS`), the customer's `nfm_reply` is delivered as a webhook.
   * Answers every screen seen (decrypted), the final HTTP status and the webhook's.
   */
  async function playFlow(res, { flow_token, phone, steps, endpoint }) {
    const digits = phone ? String(phone).replace(/\D/g, "") : null;
    const sent = [...sentFlows]
      .reverse()
      .find((f) => (flow_token ? f.flowToken === flow_token : f.to === digits));
    if (!sent) return sendJson(res, 404, { error: "No Flow was sent with that token or phone." });
    const flow = flows.get(sent.flowId);
    const publicKey = flowKeys.get(sent.phoneNumberId);
    const url = endpoint ?? flow?.endpointUri;
    if (!publicKey || !url)
      return sendJson(res, 409, { error: "The number has no key or the Flow no endpoint." });
    const exchange = async (payload) => {
      const request = await encryptFlowRequest(publicKey, payload);
      const raw = JSON.stringify(request.body);
      const answer = await fetch(url, {
        method: "POST",
        headers: {
          "Content-Type": "application/json",
          "X-Hub-Signature-256": `sha256=${createHmac("sha256", appSecret).update(raw).digest("hex")}`,
        },
        body: raw,
      });
      const text = await answer.text();
      return { status: answer.status, answer: answer.ok ? await request.open(text) : text };
    };
    const screens = [];
    const base = { version: "3.0", flow_token: sent.flowToken };
    let step = await exchange({ ...base, action: "INIT" });
    const plan = Array.isArray(steps) ? [...steps] : [];
    // A Flow has four screens; a few more exchanges allow for refused choices.
    for (let turn = 0; turn < 8 && step.status === 200; turn++) {
      screens.push(step.answer);
      const { screen, data } = step.answer;
      if (screen === "SUCCESS" || !screen) break;
      const chosen = plan.shift() ?? {
        screen,
        data: firstChoice(screen, data),
      };
      step = await exchange({
        ...base,
        action: "data_exchange",
        screen: chosen.screen ?? screen,
        data: chosen.data ?? {},
      });
    }
    const last = screens.at(-1);
    let webhook = null;
    const params = last?.screen === "SUCCESS" && last.data?.extension_message_response?.params;
    if (params) {
      webhook = await sendWebhook(
        delivery(
          flowCompletion({
            phoneNumberId: sent.phoneNumberId,
            wabaId: flow.wabaId,
            from: sent.to,
            userId: sent.recipient ?? (sent.to ? `ES.${sent.to}` : undefined),
            response: params,
          }),
        ),
      );
    }
    return sendJson(res, 200, { screens, status: step.status, webhook });
  }

  /**
   * `GET /{waba_id}?fields=pricing_analytics.start(…).end(…).granularity(DAILY)[.phone_numbers([…])].dimensions([…])`:
   * one data point per day, category, type and country, as Meta's pricing analytics answer;
   * `phone_numbers` (normalized: digits only) keeps the numbers named, none means every
   * number of the account.
   */
  function pricingAnalytics(res, url) {
    const field = url.searchParams.get("fields") ?? "";
    const modifiers = /^pricing_analytics((?:\.\w+\([^()]*\))+)$/.exec(field)?.[1];
    if (!modifiers)
      return graphError(res, 400, {
        message: "(#100) Tried accessing nonexisting field (pricing_analytics) or bad syntax",
        code: 100,
      });
    const given = Object.fromEntries(
      [...modifiers.matchAll(/\.(\w+)\(([^()]*)\)/g)].map(([, name, value]) => [name, value]),
    );
    const array = (value) => {
      try {
        const parsed = JSON.parse(value ?? "[]");
        return Array.isArray(parsed) ? parsed : null;
      } catch {
        return null;
      }
    };
    const { start, end, granularity } = given;
    const known = ["start", "end", "granularity", "phone_numbers", "dimensions"];
    const unixTime = (value) => /^\d+$/.test(value ?? "");
    if (Object.keys(given).some((name) => !known.includes(name)) || ![start, end].every(unixTime))
      return graphError(res, 400, { message: "(#100) Invalid parameter", code: 100 });
    if (granularity !== "DAILY" || Number(end) - Number(start) > 90 * 86_400)
      return graphError(res, 400, { message: "(#100) Invalid time range", code: 100 });
    const phones = array(given.phone_numbers);
    if (!phones || phones.some((phone) => !/^\d+$/.test(String(phone))))
      return graphError(res, 400, { message: "(#100) Invalid phone_numbers", code: 100 });
    if (!array(given.dimensions))
      return graphError(res, 400, { message: "(#100) Invalid dimensions", code: 100 });
    const dayStart = (date) => Date.parse(`${date}T00:00:00Z`) / 1000;
    const points = pricingPoints
      .filter((p) => dayStart(p.date) >= Number(start) && dayStart(p.date) < Number(end))
      .filter((p) => phones.length === 0 || phones.includes(p.phone ?? DEFAULT_NUMBER))
      .map((p) => ({
        start: dayStart(p.date),
        end: dayStart(p.date) + 86_400,
        pricing_category: String(p.category).toUpperCase(),
        pricing_type: String(p.type ?? "regular").toUpperCase(),
        country: p.country,
        volume: p.volume,
        cost: p.cost,
      }));
    return sendJson(res, 200, {
      pricing_analytics: { data: [{ data_points: points }] },
      id: F.wabaId,
    });
  }

  /**
   * `GET /{ad_account_id}/insights` as the Marketing API answers it at ad level with
   * time_increment=1: one row per ad and day with spend as a string, paged with cursors.
   */
  function insights(res, url) {
    const q = url.searchParams;
    let range;
    try {
      range = JSON.parse(q.get("time_range") ?? "");
    } catch {
      range = null;
    }
    if (
      q.get("level") !== "ad" ||
      q.get("time_increment") !== "1" ||
      !range?.since ||
      !range?.until
    )
      return graphError(res, 400, {
        message: "(#100) level=ad, time_increment=1 and a time_range {since, until} are required",
        code: 100,
      });
    const fields = (q.get("fields") ?? "").split(",");
    if (!fields.includes("spend") || !fields.includes("ad_id"))
      return graphError(res, 400, {
        message: "(#100) fields must include ad_id and spend",
        code: 100,
      });
    const rows = adInsights
      .filter((r) => r.date >= range.since && r.date <= range.until)
      .sort((a, b) => a.date.localeCompare(b.date) || a.ad_id.localeCompare(b.ad_id));
    const limit = Number(q.get("limit") ?? 25);
    const offset = Number(Buffer.from(q.get("after") ?? "", "base64").toString() || 0);
    const page = rows.slice(offset, offset + limit);
    const end = offset + page.length;
    const cursor = (n) => Buffer.from(String(n)).toString("base64");
    return sendJson(res, 200, {
      data: page.map((r) => ({
        ad_id: r.ad_id,
        ad_name: r.ad_name,
        spend: String(r.spend),
        account_currency: "EUR",
        date_start: r.date,
        date_stop: r.date,
      })),
      paging: {
        cursors: { before: cursor(offset), after: cursor(end) },
        ...(end < rows.length && {
          next: (() => {
            const next = new URL(url);
            next.searchParams.set("after", cursor(end));
            return next.toString();
          })(),
        }),
      },
    });
  }

  return {
    port: started.port,
    url: `http://127.0.0.1:${started.port}/${GRAPH_VERSION}`,
    /** Meta's Business API (thread control), served by the same fake. */
    businessUrl: `http://127.0.0.1:${started.port}/business/whatsapp`,
    requests: started.requests,
    sendWebhook,
    close: started.close,
  };
}

/** What a customer taps first on each screen of the booking Flow. */
function firstChoice(screen, data = {}) {
  if (screen === "SERVICE") return { service: data.services?.[0]?.id };
  if (screen === "DAY") return { day: data.days?.[0]?.id };
  if (screen === "SLOT") return { slot: data.slots?.[0]?.id };
  return { confirm: "yes" };
}

/**
 * Has a running fake hold a customer's file (see `POST /__fake/media`); answers its media id.
 * @param {string} origin the fake's origin, e.g. http://127.0.0.1:8788
 * @param {{ text?: string, base64?: string, mime_type: string, file_size?: number }} file
 */
export async function holdFakeMedia(origin, file) {
  const response = await fetch(`${origin}/__fake/media`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(file),
  });
  return /** @type {{ id: string }} */ (await response.json()).id;
}

/** The chats the sandbox's phone shares when a number moves in from the WhatsApp Business app. */
const APP_CHATS = [
  {
    customer: "34611222333",
    name: "Lucía (clienta de siempre)",
    first: "Hola, ¿hacéis envíos a Valencia?",
    recent: "¿Me guardas dos cajas para el sábado?",
  },
  {
    customer: "34622333444",
    name: "Marcos Taller",
    first: "Buenas, quería pedir presupuesto",
    recent: "Perfecto, paso mañana a recogerlo",
  },
];

/** A 1×1 PNG. */
const TINY_PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);

if (import.meta.url === `file://${process.argv[1]}`) {
  const arg = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i > 0 ? process.argv[i + 1] : fallback;
  };
  const graph = await startFakeGraph({
    port: Number(arg("port", "8788")),
    appSecret: arg("app-secret", ""),
    webhookUrl: arg("webhook-url", undefined),
    autoStatuses: process.argv.includes("--auto-statuses"),
    playAppData: process.argv.includes("--play-app-data"),
  });
  console.log(`Fake Graph API on ${graph.url}`);
}
