// A local stand-in for Mercado Pago's API as payment links use it: `GET /users/me` (the token's
// user), `POST /checkout/preferences` (JSON) and `GET /v1/payments/{id}`, with its error JSON.
// Its controls play the customer: `POST /__fake/pay|reject|refund {id}` (a preference id, or
// the product's `external_reference`) make or change the preference's payment and answer the
// notification as Mercado Pago sends it: to the preference's `notification_url` with
// `data.id` and `type` in the query, signed `x-signature: ts=…,v1=…` over
// `id:{data.id};request-id:{x-request-id};ts:{ts};`; also POSTed there when `deliver` is set.
import { createHmac, randomBytes, randomUUID } from "node:crypto";
import { sendJson, startRecordingServer } from "./http-kit.mjs";
import { customerControls, deliverEvent } from "./payment-controls.mjs";

/** An access token the fake refuses as Mercado Pago refuses an unknown one. */
export const REFUSED_MERCADOPAGO_TOKEN = "APP_USR-refused";

function mpError(res, status, message, error = "bad_request") {
  sendJson(res, status, { message, error, status, cause: [] });
}

/** `x-signature` for a notification, as Mercado Pago computes it. */
export function mercadoPagoSignature(
  dataId,
  requestId,
  secret,
  ts = Math.floor(Date.now() / 1000),
) {
  const v1 = createHmac("sha256", secret)
    .update(`id:${dataId};request-id:${requestId};ts:${ts};`)
    .digest("hex");
  return `ts=${ts},v1=${v1}`;
}

/**
 * @param {{ port?: number, webhookSecret?: string, deliver?: boolean }} options
 */
export async function startFakeMercadoPago({
  port = 0,
  webhookSecret = "mp_sandbox_secret",
  deliver = false,
} = {}) {
  const preferences = new Map();
  const paymentsById = new Map();
  let paymentSequence = 1_000_000_000 + Math.floor(Math.random() * 1_000_000);
  let base = "";

  const tokenOf = (req) => /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
  const userOf = (token) =>
    Number.parseInt(createHmac("sha256", "user").update(token).digest("hex").slice(0, 8), 16);
  const find = (ref) =>
    preferences.get(ref) ?? [...preferences.values()].find((p) => p.external_reference === ref);

  /** The notification for a payment, signed, and POSTed when the fake delivers. */
  async function notify(preference, payment, action, secret = webhookSecret) {
    const dataId = String(payment.id);
    const requestId = randomUUID();
    const url = new URL(preference.notification_url);
    url.searchParams.set("data.id", dataId);
    url.searchParams.set("type", "payment");
    const body = JSON.stringify({
      action,
      api_version: "v1",
      data: { id: dataId },
      date_created: new Date().toISOString(),
      id: Number(randomBytes(5).readUIntBE(0, 5)),
      live_mode: false,
      type: "payment",
      user_id: String(preference.collector_id),
    });
    const headers = {
      "Content-Type": "application/json",
      "x-request-id": requestId,
      "x-signature": mercadoPagoSignature(dataId, requestId, secret),
    };
    const delivered = deliver ? await deliverEvent(url, headers, body) : null;
    return {
      url: url.toString(),
      path: `${url.pathname}${url.search}`,
      headers,
      body,
      delivered,
      payment,
    };
  }

  /** The customer pays, or is refused, once: a new payment, notified as created. */
  function settle(preference, body, secret, approved) {
    const item = preference.items[0];
    paymentSequence += 1;
    const payment = {
      id: paymentSequence,
      status: approved ? "approved" : "rejected",
      status_detail: approved ? "accredited" : "cc_rejected_other_reason",
      external_reference: preference.external_reference,
      transaction_amount: Number(body?.amount ?? item.unit_price),
      currency_id: item.currency_id,
      date_approved: approved ? new Date().toISOString() : null,
      collector_id: preference.collector_id,
    };
    paymentsById.set(String(payment.id), payment);
    preference.payment_id = String(payment.id);
    return notify(preference, payment, "payment.created", secret);
  }

  const control = customerControls({
    find,
    unknown: "unknown preference",
    webhookSecret,
    actions: {
      pay: (preference, body, secret) => settle(preference, body, secret, true),
      reject: (preference, body, secret) => settle(preference, body, secret, false),
      refund(preference, _body, secret) {
        const payment = paymentsById.get(preference.payment_id ?? "");
        if (payment?.status !== "approved") return null;
        payment.status = "refunded";
        return notify(preference, payment, "payment.updated", secret);
      },
    },
  });

  const started = await startRecordingServer(
    port,
    async (req, res, body, url) => {
      const path = url.pathname;
      if (path.startsWith("/__fake/")) return control(path.slice("/__fake/".length), body, res);

      const token = tokenOf(req);
      if (!token || token === REFUSED_MERCADOPAGO_TOKEN)
        return mpError(res, 401, "invalid access token", "unauthorized");

      if (path === "/users/me" && req.method === "GET")
        return sendJson(res, 200, {
          id: userOf(token),
          nickname: "TESTUSER",
          site_id: "MLA",
          country_id: "AR",
        });

      if (path === "/checkout/preferences" && req.method === "POST") {
        if (typeof body !== "object" || body === null) return mpError(res, 400, "invalid body");
        const item = body.items?.[0];
        if (!item || !(Number(item.unit_price) > 0) || !/^[A-Z]{3}$/.test(item.currency_id ?? ""))
          return mpError(
            res,
            400,
            "items.unit_price or items.currency_id invalid",
            "invalid_items",
          );
        if (!body.notification_url || !/^https?:\/\//.test(body.notification_url))
          return mpError(
            res,
            400,
            "notification_url attribute must be url valid",
            "invalid_notification_url",
          );
        const collector = userOf(token);
        const preferenceId = `${collector}-${randomUUID()}`;
        const preference = {
          id: preferenceId,
          collector_id: collector,
          items: body.items,
          external_reference: body.external_reference ?? "",
          notification_url: body.notification_url,
          back_urls: body.back_urls ?? {},
          expires: Boolean(body.expires),
          expiration_date_to: body.expiration_date_to ?? null,
          date_created: new Date().toISOString(),
          init_point: `${base}/checkout/v1/redirect?pref_id=${preferenceId}`,
          sandbox_init_point: `${base}/checkout/v1/redirect?pref_id=${preferenceId}&sandbox=1`,
        };
        preferences.set(preferenceId, preference);
        return sendJson(res, 201, preference);
      }

      const paymentPath = /^\/v1\/payments\/([^/]+)$/.exec(path);
      if (paymentPath && req.method === "GET") {
        const payment = paymentsById.get(paymentPath[1]);
        if (!payment || payment.collector_id !== userOf(token))
          return mpError(res, 404, "Payment not found", "not_found");
        return sendJson(res, 200, payment);
      }
      return mpError(res, 404, `resource not found: ${req.method} ${path}`, "not_found");
    },
    (res, failure) =>
      mpError(
        res,
        failure.status,
        failure.message ?? "internal_error",
        failure.error ?? "internal_error",
      ),
    () => {
      preferences.clear();
      paymentsById.clear();
    },
  );
  base = `http://127.0.0.1:${started.port}`;
  return { ...started, url: base };
}
