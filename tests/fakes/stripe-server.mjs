// A local stand-in for Stripe's API as payment links use it: `GET /v1/account` (the key's
// account), `POST /v1/checkout/sessions` (form-encoded, `Idempotency-Key` honoured) and
// `GET /v1/checkout/sessions/{id}`, with Stripe's error JSON. Its controls play the customer:
// `POST /__fake/pay|expire|refund {id}` (a session id, or the product's `payment_id`) change
// the session and answer the event signed as Stripe signs it (`Stripe-Signature: t=…,v1=…`),
// also POSTed to the webhook URL when one is configured. See tests/fakes/README.md.
import { createHmac, randomBytes } from "node:crypto";
import { sendJson, startRecordingServer } from "./http-kit.mjs";
import { customerControls, deliverEvent } from "./payment-controls.mjs";
import { URLSearchParams } from "node:url";

/** A secret key the fake refuses as Stripe refuses an unknown one. */
export const REFUSED_STRIPE_KEY = "sk_test_refused";

const id = (prefix) => `${prefix}_${randomBytes(12).toString("hex")}`;

/** Stripe's error envelope. */
function stripeError(res, status, message, type = "invalid_request_error", extra = {}) {
  sendJson(res, status, { error: { type, message, ...extra } });
}

/** `a[b][0][c]=1` → nested objects (arrays stay objects keyed "0", "1", as they arrive). */
function formFields(raw) {
  const fields = {};
  for (const [name, value] of new URLSearchParams(typeof raw === "string" ? raw : "")) {
    const path = name.replace(/\]/g, "").split("[");
    let at = fields;
    path.slice(0, -1).forEach((key) => (at = at[key] ??= {}));
    at[path.at(-1)] = value;
  }
  return fields;
}

/** `Stripe-Signature` for a payload, as Stripe computes it. */
export function stripeSignature(payload, secret, timestamp = Math.floor(Date.now() / 1000)) {
  const v1 = createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex");
  return `t=${timestamp},v1=${v1}`;
}

/**
 * @param {{ port?: number, webhookUrl?: string, webhookSecret?: string }} options
 */
export async function startFakeStripe({
  port = 0,
  webhookUrl,
  webhookSecret = "whsec_sandbox",
} = {}) {
  /** @type {Map<string, any>} */
  const sessions = new Map();
  /** Sessions made under an `Idempotency-Key`, by key and secret. */
  const byIdempotencyKey = new Map();
  let base = "";

  const keyOf = (req) => /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
  const find = (ref) =>
    sessions.get(ref) ?? [...sessions.values()].find((s) => s.metadata?.payment_id === ref);

  function event(type, object) {
    return {
      id: id("evt"),
      object: "event",
      api_version: "2026-10-28",
      created: Math.floor(Date.now() / 1000),
      type,
      livemode: false,
      data: { object },
    };
  }

  /** The event signed, and POSTed to the webhook URL when there is one. */
  async function emit(type, object, secret = webhookSecret) {
    const body = JSON.stringify(event(type, object));
    const headers = {
      "Content-Type": "application/json",
      "Stripe-Signature": stripeSignature(body, secret),
    };
    const delivered = webhookUrl ? await deliverEvent(webhookUrl, headers, body) : null;
    return { path: "/webhooks/payments/stripe", headers, body, delivered };
  }

  const charge = (session) => ({
    id: session.charge_id,
    object: "charge",
    amount: session.amount_total,
    amount_refunded: session.amount_total,
    currency: session.currency,
    payment_intent: session.payment_intent,
    metadata: session.payment_intent_metadata ?? {},
    refunded: true,
    status: "succeeded",
  });

  const control = customerControls({
    find,
    unknown: "unknown session",
    webhookSecret,
    actions: {
      pay(session, _body, secret) {
        session.status = "complete";
        session.payment_status = "paid";
        session.payment_intent ??= id("pi");
        session.charge_id ??= id("ch");
        return emit("checkout.session.completed", session, secret);
      },
      expire(session, _body, secret) {
        session.status = "expired";
        return emit("checkout.session.expired", session, secret);
      },
      refund: (session, _body, secret) =>
        session.payment_status === "paid" ? emit("charge.refunded", charge(session), secret) : null,
    },
  });

  const started = await startRecordingServer(
    port,
    async (req, res, body, url) => {
      const path = url.pathname;
      if (path.startsWith("/__fake/")) return control(path.slice("/__fake/".length), body, res);

      const key = keyOf(req);
      if (!key.startsWith("sk_") || key === REFUSED_STRIPE_KEY)
        return stripeError(res, 401, `Invalid API Key provided: ${key.slice(0, 8)}****`);

      if (path === "/v1/account" && req.method === "GET")
        return sendJson(res, 200, {
          id: `acct_${createHmac("sha256", "acct").update(key).digest("hex").slice(0, 16)}`,
          object: "account",
          country: "ES",
          default_currency: "eur",
        });

      if (path === "/v1/checkout/sessions" && req.method === "POST") {
        if (!String(req.headers["content-type"]).includes("application/x-www-form-urlencoded"))
          return stripeError(res, 400, "Invalid request: the body must be form-encoded.");
        const idempotency = req.headers["idempotency-key"];
        const replay = idempotency && byIdempotencyKey.get(`${key}:${idempotency}`);
        if (replay) return sendJson(res, 200, replay);
        const f = formFields(body);
        const item = f.line_items?.["0"];
        const amount = Number(item?.price_data?.unit_amount);
        const now = Math.floor(Date.now() / 1000);
        const expiresAt = Number(f.expires_at ?? now + 86_400);
        if (f.mode !== "payment")
          return stripeError(res, 400, "Invalid mode: must be payment.", "invalid_request_error", {
            param: "mode",
          });
        if (!Number.isInteger(amount) || amount < 1)
          return stripeError(res, 400, "Invalid integer: unit_amount.", "invalid_request_error", {
            param: "line_items[0][price_data][unit_amount]",
          });
        if (!/^[a-z]{3}$/.test(item?.price_data?.currency ?? ""))
          return stripeError(res, 400, "Invalid currency.", "invalid_request_error", {
            param: "line_items[0][price_data][currency]",
          });
        if (expiresAt < now + 30 * 60 - 60 || expiresAt > now + 24 * 3600)
          return stripeError(
            res,
            400,
            "The `expires_at` timestamp must be between 30 minutes and 24 hours from Checkout Session creation.",
            "invalid_request_error",
            { param: "expires_at" },
          );
        if (!f.success_url)
          return stripeError(
            res,
            400,
            "Missing required param: success_url.",
            "invalid_request_error",
            { param: "success_url" },
          );
        const sessionId = id("cs_test");
        const session = {
          id: sessionId,
          object: "checkout.session",
          mode: "payment",
          status: "open",
          payment_status: "unpaid",
          amount_total: amount * Number(item.quantity ?? 1),
          currency: item.price_data.currency,
          client_reference_id: f.client_reference_id ?? null,
          metadata: f.metadata ?? {},
          payment_intent: null,
          payment_intent_metadata: f.payment_intent_data?.metadata ?? {},
          expires_at: expiresAt,
          success_url: f.success_url,
          url: `${base}/pay/${sessionId}`,
        };
        sessions.set(sessionId, session);
        if (idempotency) byIdempotencyKey.set(`${key}:${idempotency}`, session);
        return sendJson(res, 200, session);
      }

      const sessionPath = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path);
      if (sessionPath && req.method === "GET") {
        const session = sessions.get(sessionPath[1]);
        return session
          ? sendJson(res, 200, session)
          : stripeError(
              res,
              404,
              `No such checkout.session: '${sessionPath[1]}'`,
              "invalid_request_error",
              { code: "resource_missing" },
            );
      }
      return stripeError(res, 404, `Unrecognized request URL (${req.method}: ${path}).`);
    },
    (res, failure) =>
      stripeError(
        res,
        failure.status,
        failure.message ?? "An error occurred with our connection to Stripe.",
        failure.type ?? "api_error",
      ),
    () => {
      sessions.clear();
      byIdempotencyKey.clear();
    },
  );
  base = `http://127.0.0.1:${started.port}`;
  return { ...started, url: base };
}
