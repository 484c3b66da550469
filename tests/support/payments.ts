// Hand-built on purpose: a payment provider's webhook is signed over its raw body and headers.
// What the payment-link tests share (contract section 18): an organization with a connected
// number, a provider and a customer whose window is open; the fakes' controls that play the
// customer paying; and the provider's signed request posted to the webhook.
import { env } from "cloudflare:workers";
import { expect } from "vitest";
import type { Payment } from "../../contracts/payments";
import { api, answer } from "./api";
import { connectWhatsapp, openWindow } from "./db";
import { call } from "./http";
import type { Owner } from "./bookings";

export type PaymentProviderName = "stripe" | "mercadopago";
export type LinkInput = Parameters<
  ReturnType<typeof api>["conversations"][":id"]["payment-links"]["$post"]
>[0]["json"];

/** Each organization's own webhooks' secret, as its provider's dashboard shows it. */
export const webhookSecretOf = (orgId: string) => `whsec_${orgId.replaceAll("-", "")}`;
const secretOf = (provider: PaymentProviderName) =>
  provider === "stripe"
    ? `sk_test_${crypto.randomUUID().slice(0, 8)}`
    : `APP_USR-${crypto.randomUUID()}`;

export function connectProvider(
  owner: Owner,
  provider: PaymentProviderName,
  json: { secret?: string; webhook_secret?: string } = {},
) {
  return answer(
    api(owner.token).integrations.payments.$put({
      json: {
        provider,
        secret: json.secret ?? secretOf(provider),
        webhook_secret: json.webhook_secret ?? webhookSecretOf(owner.organization.id),
      },
    }),
  );
}

/** The organization's number connected and a provider, for an owner of `bookingOrganization`. */
export async function readyToCharge(owner: Owner, provider: PaymentProviderName, waba?: string) {
  const connection = await connectWhatsapp(owner.organization.id, {
    businessAccountId: waba,
  });
  const res = await connectProvider(owner, provider);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return connection;
}

export async function chargeable(owner: Owner, conversationId: string) {
  await openWindow(owner.organization.id, conversationId);
}

export function sendLink(owner: Owner, id: string, json: LinkInput, idempotencyKey?: string) {
  return answer(
    api(owner.token).conversations[":id"]["payment-links"].$post({
      param: { id },
      json,
      header: idempotencyKey ? { "idempotency-key": idempotencyKey } : {},
    }),
  );
}

export const paymentOf = (res: { body: unknown }) => (res.body as { data: Payment }).data;

const fakeUrl = (provider: PaymentProviderName) =>
  provider === "stripe" ? env.STRIPE_API_URL : env.MERCADOPAGO_API_URL;

/** A signed request the fake made for the customer's act, as the provider would post it. */
export interface ProviderRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

/** The customer pays (or the link expires, is refused or refunded) at the provider's fake. */
export async function playCustomer(
  provider: PaymentProviderName,
  act: "pay" | "expire" | "refund" | "reject",
  payment: Payment,
  webhookSecret: string,
): Promise<ProviderRequest> {
  const res = await fetch(`${fakeUrl(provider)}/__fake/${act}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ id: payment.provider_ref, webhook_secret: webhookSecret }),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as ProviderRequest;
}

/** Posts the provider's request to the webhook (as it is, or with `headers` changed). */
export const postWebhook = (request: ProviderRequest, headers: Record<string, string> = {}) =>
  call("POST", request.path, {
    rawBody: request.body,
    headers: { ...request.headers, ...headers },
  });

/** Requests a provider's fake received (optionally only those whose path contains `part`). */
export async function providerRequests(provider: PaymentProviderName, part = ""): Promise<any[]> {
  const all = (await (await fetch(`${fakeUrl(provider)}/__fake/requests`)).json()) as any[];
  return all.filter((r) => r.path.includes(part));
}

/** Makes the provider's fake fail its next matching request. */
export const failProvider = (provider: PaymentProviderName, failure: Record<string, unknown>) =>
  fetch(`${fakeUrl(provider)}/__fake/fail`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(failure),
  });
