/**
 * The payment providers' webhooks as the organization's store reads them (contract section 18,
 * decision 0091): the edge found the organization and handed the raw request here, where its
 * signature is checked with that organization's own webhooks' secret before anything is read.
 * Stripe: `Stripe-Signature: t=…,v1=…`, HMAC-SHA256 of `${t}.${body}`. Mercado Pago:
 * `x-signature: ts=…,v1=…` over `id:{data.id};request-id:{x-request-id};ts:{ts};`, then the
 * payment's status asked of Mercado Pago. Stripe's within five minutes of its timestamp.
 */
import { z } from "zod/mini";
import type { StoreDeps } from "../../worker/http/deps";
import { isHmacSha256 } from "../../worker/meta/signature";
import type { PaymentProvider } from "../../contracts/payments";
import { mercadoPagoPayment } from "./mercadopago";
import { sameAmount } from "./money";
import { ProviderError } from "./provider";
import { applyPaymentChange, findPaymentOf, type PaymentChange, type PaymentRow } from "./service";
import { connectedProvider } from "./settings";

/** A provider's request as the edge received it: what the signature and the event need. */
export interface PaymentWebhook {
  provider: PaymentProvider;
  body: string;
  query: Record<string, string>;
  /** `Stripe-Signature` or `x-signature`. */
  signature: string | null;
  /** Mercado Pago's `x-request-id`. */
  requestId: string | null;
}

/**
 * What the edge answers the provider (a class does not cross the store's RPC); a refusal is a
 * bare 401, which the edge answers as every webhook's (`refuseUnsigned`).
 */
export type WebhookAnswer =
  | { status: 401 }
  | { status: 200; body: { received: true; changed: boolean } }
  | { status: 502; body: { error: string; message: string } };

/** How far a signature's timestamp may be from now (Stripe's own default tolerance). */
export const SIGNATURE_TOLERANCE_SECONDS = 5 * 60;

const refused: WebhookAnswer = { status: 401 };
const received = (changed: boolean): WebhookAnswer => ({
  status: 200,
  body: { received: true, changed },
});

/** `t=1,v1=ab,v1=cd` → its values by name. */
function signatureParts(header: string) {
  const parts = new Map<string, string[]>();
  for (const item of header.split(",")) {
    const at = item.indexOf("=");
    if (at < 1) continue;
    const name = item.slice(0, at).trim();
    parts.set(name, [...(parts.get(name) ?? []), item.slice(at + 1).trim()]);
  }
  return parts;
}

/** Whether a timestamp (unix seconds) is within the tolerance of now. */
const isFresh = (value: string) =>
  /^\d{1,12}$/.test(value) &&
  Math.abs(Date.now() / 1000 - Number(value)) <= SIGNATURE_TOLERANCE_SECONDS;

/**
 * Whether any `v1` of the header signs `message` with `secret`; with `fresh`, only at a
 * timestamp within the tolerance of now.
 */
async function signs(
  secret: string,
  header: string | null,
  { stamp, fresh }: { stamp: "t" | "ts"; fresh: boolean },
  message: (t: string) => string,
) {
  if (!header) return false;
  const parts = signatureParts(header);
  const t = parts.get(stamp)?.[0];
  if (!t || (fresh && !isFresh(t))) return false;
  const data = new TextEncoder().encode(message(t));
  for (const v1 of parts.get("v1") ?? []) {
    if (await isHmacSha256(secret, data, v1)) return true;
  }
  return false;
}

/**
 * One provider request for the organization: 401 when its provider is not the one connected or
 * the signature is not its secret's; otherwise the event applied (a repeated or late one
 * changes nothing) and 200. A failure to ask Mercado Pago is 502, for it to try again.
 */
export async function receivePaymentWebhook(
  deps: StoreDeps,
  organizationId: string,
  hook: PaymentWebhook,
): Promise<WebhookAnswer> {
  const connected = await connectedProvider(deps.env, deps.orgDb, organizationId);
  if (connected?.provider !== hook.provider) return refused;
  if (hook.provider === "stripe") {
    const valid = await signs(
      connected.webhookSecret,
      hook.signature,
      { stamp: "t", fresh: true },
      (t) => `${t}.${hook.body}`,
    );
    if (!valid) return refused;
    return received(await applyStripeEvent(deps, organizationId, hook.body));
  }
  const dataId = mercadoPagoDataId(hook);
  const valid =
    dataId !== null &&
    (await signs(
      connected.webhookSecret,
      hook.signature,
      // Not checked for freshness: a replayed notification only makes the store ask Mercado
      // Pago again, and what it answers is the truth.
      { stamp: "ts", fresh: false },
      (ts) => `id:${dataId};request-id:${hook.requestId ?? ""};ts:${ts};`,
    ));
  if (!valid) return refused;
  try {
    return received(
      await applyMercadoPagoPayment(deps, organizationId, connected.secret, hook, dataId),
    );
  } catch (error) {
    if (!(error instanceof ProviderError)) throw error;
    console.warn("mercadopago payment lookup failed", error.message);
    return {
      status: 502,
      body: { error: "payment_provider_error", message: "Mercado Pago no respondió: reintenta." },
    };
  }
}

// ---------------------------------------------------------------------------------------------
// Stripe.

const stripeEvent = z.object({
  id: z.string(),
  type: z.string(),
  data: z.object({
    object: z.looseObject({
      id: z.optional(z.string()),
      metadata: z.nullish(z.record(z.string(), z.string())),
      payment_status: z.nullish(z.string()),
      payment_intent: z.nullish(z.string()),
      refunded: z.optional(z.boolean()),
    }),
  }),
});

/** What a Stripe event says of a payment; null for an event that says nothing of one. */
function stripeChange(event: z.infer<typeof stripeEvent>): PaymentChange | null {
  const object = event.data.object;
  switch (event.type) {
    case "checkout.session.completed":
    case "checkout.session.async_payment_succeeded":
      return object.payment_status === "paid"
        ? { status: "paid", providerPaymentId: object.payment_intent ?? undefined }
        : null;
    case "checkout.session.async_payment_failed":
      return { status: "failed" };
    case "checkout.session.expired":
      return { status: "expired" };
    case "charge.refunded":
      // Partly refunded is still paid; the event comes again when the rest is.
      return object.refunded ? { status: "refunded" } : null;
    default:
      return null;
  }
}

async function applyStripeEvent(deps: StoreDeps, organizationId: string, body: string) {
  let parsed;
  try {
    parsed = stripeEvent.safeParse(JSON.parse(body));
  } catch {
    return false;
  }
  if (!parsed.success) return false;
  const change = stripeChange(parsed.data);
  if (!change) return false;
  const object = parsed.data.data.object;
  const payment = await findPaymentOf(deps, organizationId, {
    paymentId: object.metadata?.payment_id,
    providerPaymentId: object.payment_intent,
  });
  // A session's event must name the session the payment opened (never another payment's).
  const isSession = parsed.data.type.startsWith("checkout.session.");
  if (!payment || payment.provider !== "stripe") return false;
  if (isSession && object.id !== payment.providerRef) return false;
  return applyPaymentChange(deps, payment, change);
}

// ---------------------------------------------------------------------------------------------
// Mercado Pago.

/** The notification's `data.id`: its query's (what Mercado Pago signs), else its body's. */
function mercadoPagoDataId(hook: PaymentWebhook) {
  let id = hook.query["data.id"];
  if (!id) {
    try {
      const body = JSON.parse(hook.body) as { data?: { id?: unknown } };
      if (body.data?.id !== undefined) id = String(body.data.id);
    } catch {
      return null;
    }
  }
  // Mercado Pago signs an alphanumeric id in lower case.
  return id ? id.toLowerCase() : null;
}

const MERCADOPAGO_STATUSES: Record<string, PaymentChange["status"]> = {
  approved: "paid",
  rejected: "failed",
  cancelled: "failed",
  refunded: "refunded",
  charged_back: "refunded",
};

async function applyMercadoPagoPayment(
  deps: StoreDeps,
  organizationId: string,
  token: string,
  hook: PaymentWebhook,
  dataId: string,
) {
  const topic = hook.query.type ?? hook.query.topic ?? topicOf(hook.body);
  if (topic !== "payment") return false;
  const paid = await mercadoPagoPayment(deps.env, token, dataId);
  const status = MERCADOPAGO_STATUSES[paid.status];
  if (!status || !paid.externalReference) return false;
  const payment: PaymentRow | undefined = await findPaymentOf(deps, organizationId, {
    paymentId: paid.externalReference,
  });
  if (!payment || payment.provider !== "mercadopago") return false;
  // What was paid must be what the link asked.
  if (!sameAmount(String(paid.amount), payment.amount) || paid.currency !== payment.currency) {
    console.warn("mercadopago payment does not match its link", payment.id, paid.id);
    return false;
  }
  return applyPaymentChange(deps, payment, { status, providerPaymentId: paid.id });
}

function topicOf(body: string) {
  try {
    return (JSON.parse(body) as { type?: string }).type;
  } catch {
    return undefined;
  }
}
