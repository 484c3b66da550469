/**
 * What the product asks of a payment provider (decision 0091): to check a secret key before it
 * is kept, and to open a hosted checkout for one link. Stripe (stripe.ts) and Mercado Pago
 * (mercadopago.ts) are one small HTTP client each, their base URLs from configuration.
 */
import type { PaymentProvider } from "../../contracts/payments";

/** One link's checkout, as the provider is asked to open it. */
export interface CheckoutRequest {
  paymentId: string;
  organizationId: string;
  /** Decimal string in `currency`. */
  amount: string;
  currency: string;
  description: string;
  expiresAt: Date;
  /** Sent to the provider so that a retry of the same request opens one checkout. */
  idempotencyKey: string;
  /** Where the provider posts its events (Mercado Pago's `notification_url`). */
  notificationUrl: string;
  /** Where the customer lands after paying. */
  returnUrl: string;
}

export interface Checkout {
  /** The Checkout Session or preference id. */
  ref: string;
  url: string;
}

export const PROVIDER_NAMES: Record<PaymentProvider, string> = {
  stripe: "Stripe",
  mercadopago: "Mercado Pago",
};

/**
 * A provider's refusal or failure: `refused` when it answered that the key or the request is
 * not acceptable (a 4xx), otherwise it could not be reached or failed itself.
 */
export class ProviderError extends Error {
  constructor(
    readonly provider: PaymentProvider,
    readonly status: number,
    readonly providerMessage: string,
  ) {
    super(`${provider} ${status}: ${providerMessage}`);
  }
  get refused() {
    return this.status >= 400 && this.status < 500;
  }
}

/** A provider's answer as JSON, or its failure as a `ProviderError`. */
export async function providerCall(
  provider: PaymentProvider,
  url: string,
  init: RequestInit,
  messageOf: (body: unknown) => string | undefined,
): Promise<Record<string, unknown>> {
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: AbortSignal.timeout(15_000) });
  } catch (error) {
    throw new ProviderError(provider, 0, String(error));
  }
  const text = await res.text();
  let body: unknown = null;
  try {
    body = JSON.parse(text);
  } catch {
    // Not JSON: said by its status alone.
  }
  if (!res.ok || typeof body !== "object" || body === null) {
    throw new ProviderError(provider, res.status, messageOf(body) ?? `HTTP ${res.status}`);
  }
  return body as Record<string, unknown>;
}
