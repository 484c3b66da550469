/**
 * Stripe's API as payment links use it (contract section 18): the account behind a secret key
 * (`GET /v1/account`) and a Checkout Session in `payment` mode (`POST /v1/checkout/sessions`),
 * form-encoded as Stripe reads bodies, its amount in the currency's minor units.
 */
import type { Env } from "../../worker/env";
import { toMinorUnits } from "./money";
import { providerCall, type Checkout, type CheckoutRequest } from "./provider";

const messageOf = (body: unknown) =>
  (body as { error?: { message?: string } } | null)?.error?.message;

/** Stripe's form encoding of nested fields: `line_items[0][price_data][currency]=eur`. */
export function formEncode(
  fields: Record<string, unknown>,
  prefix = "",
  form = new URLSearchParams(),
) {
  for (const [key, value] of Object.entries(fields)) {
    const name = prefix ? `${prefix}[${key}]` : key;
    if (value === undefined || value === null) continue;
    if (typeof value === "object") formEncode(value as Record<string, unknown>, name, form);
    else form.append(name, String(value));
  }
  return form;
}

const call = (env: Env, secret: string, path: string, init: RequestInit = {}) =>
  providerCall(
    "stripe",
    `${env.STRIPE_API_URL}${path}`,
    { ...init, headers: { Authorization: `Bearer ${secret}`, ...init.headers } },
    messageOf,
  );

/** The account a secret key belongs to (a refused key: `ProviderError` 401). */
export async function stripeAccount(env: Env, secret: string) {
  const account = await call(env, secret, "/v1/account");
  return { accountId: String(account.id) };
}

export async function createCheckoutSession(
  env: Env,
  secret: string,
  request: CheckoutRequest,
): Promise<Checkout> {
  const metadata = { payment_id: request.paymentId, organization_id: request.organizationId };
  const form = formEncode({
    mode: "payment",
    line_items: [
      {
        quantity: 1,
        price_data: {
          currency: request.currency.toLowerCase(),
          unit_amount: toMinorUnits(request.amount, request.currency),
          product_data: { name: request.description },
        },
      },
    ],
    metadata,
    // The PaymentIntent carries them too, so that a refund's charge names its payment.
    payment_intent_data: { metadata },
    client_reference_id: request.paymentId,
    expires_at: Math.floor(request.expiresAt.getTime() / 1000),
    success_url: request.returnUrl,
  });
  const session = await call(env, secret, "/v1/checkout/sessions", {
    method: "POST",
    headers: {
      "Content-Type": "application/x-www-form-urlencoded",
      "Idempotency-Key": request.idempotencyKey,
    },
    body: form.toString(),
  });
  return { ref: String(session.id), url: String(session.url) };
}
