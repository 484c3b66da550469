/**
 * Mercado Pago's API as payment links use it (contract section 18): the user behind an access
 * token (`GET /users/me`), a Checkout Pro preference (`POST /checkout/preferences`, JSON) and a
 * payment's status (`GET /v1/payments/{id}`), which its notifications only name.
 */
import type { Env } from "../../worker/env";
import { providerCall, type Checkout, type CheckoutRequest } from "./provider";

const messageOf = (body: unknown) => (body as { message?: string } | null)?.message;

const call = (env: Env, token: string, path: string, init: RequestInit = {}) =>
  providerCall(
    "mercadopago",
    `${env.MERCADOPAGO_API_URL}${path}`,
    { ...init, headers: { Authorization: `Bearer ${token}`, ...init.headers } },
    messageOf,
  );

export async function mercadoPagoUser(env: Env, token: string) {
  const user = await call(env, token, "/users/me");
  return { accountId: String(user.id) };
}

export async function createPreference(
  env: Env,
  token: string,
  request: CheckoutRequest,
): Promise<Checkout> {
  const preference = await call(env, token, "/checkout/preferences", {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Idempotency-Key": request.idempotencyKey },
    body: JSON.stringify({
      items: [
        {
          id: request.paymentId,
          title: request.description,
          quantity: 1,
          currency_id: request.currency,
          unit_price: Number(request.amount),
        },
      ],
      external_reference: request.paymentId,
      notification_url: request.notificationUrl,
      back_urls: { success: request.returnUrl },
      expires: true,
      expiration_date_to: request.expiresAt.toISOString(),
    }),
  });
  return { ref: String(preference.id), url: String(preference.init_point) };
}

/** What Mercado Pago says of one payment: its status and the link it paid. */
export interface MercadoPagoPayment {
  id: string;
  status: string;
  externalReference: string | null;
  amount: number;
  currency: string;
}

export async function mercadoPagoPayment(
  env: Env,
  token: string,
  id: string,
): Promise<MercadoPagoPayment> {
  const payment = await call(env, token, `/v1/payments/${encodeURIComponent(id)}`);
  return {
    id: String(payment.id),
    status: String(payment.status),
    externalReference:
      typeof payment.external_reference === "string" ? payment.external_reference : null,
    amount: Number(payment.transaction_amount),
    currency: String(payment.currency_id),
  };
}
