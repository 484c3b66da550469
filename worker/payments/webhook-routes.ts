import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { AppContext } from "../http/context";
import { AppError } from "../http/errors";
import { refuseUnsigned } from "../http/webhook-refusals";
import { inOrganizationData } from "../stores/organization-parts";
import { StoreNotRegistered } from "../stores/registry";
import { PAYMENT_PROVIDERS, type PaymentProvider } from "../../contracts/payments";

/** Providers' events are small; anything this big is not one. */
const MAX_EVENT_BYTES = 256 * 1024;

/**
 * The organization an event is for (decision 0091): the `organization` query parameter of the
 * URL the product gave the provider (Mercado Pago's `notification_url`, the Stripe endpoint's
 * URL), else the `organization_id` the product put in a Stripe object's metadata. Only a
 * shape is checked here: the store's secret decides whether the event is the organization's.
 */
function organizationOf(provider: PaymentProvider, query: Record<string, string>, body: string) {
  let id = query.organization;
  if (!id && provider === "stripe") {
    try {
      const event = JSON.parse(body) as {
        data?: { object?: { metadata?: { organization_id?: unknown } } };
      };
      const named = event.data?.object?.metadata?.organization_id;
      if (typeof named === "string") id = named;
    } catch {
      return null;
    }
  }
  return id && /^[0-9a-f-]{36}$/i.test(id) ? id : null;
}

/**
 * `POST /webhooks/payments/{stripe|mercadopago}` (contract section 18): the edge finds the
 * organization and hands the raw request to its store, which checks the signature with the
 * organization's secret and applies the event in one call; an event for no organization, or
 * signed with another secret, is 401 and changes nothing (counted per address: 429 past the
 * limit, as the other webhooks).
 */
export const paymentWebhookRoutes = new Hono<AppContext>().post(
  "/:provider",
  bodyLimit({ maxSize: MAX_EVENT_BYTES }),
  async (c) => {
    const provider = c.req.param("provider") as PaymentProvider;
    if (!PAYMENT_PROVIDERS.includes(provider)) {
      throw new AppError(404, "not_found", "Ruta no encontrada.");
    }
    const body = await c.req.text();
    // A plain object: Hono's has no prototype, which the store's RPC cannot carry.
    const query = Object.fromEntries(new URL(c.req.url).searchParams);
    const organizationId = organizationOf(provider, query, body);
    if (!organizationId) return refuseUnsigned(c);
    let answer;
    try {
      answer = await inOrganizationData(c.var.deps, organizationId, {
        kind: "payment-webhook",
        hook: {
          provider,
          body,
          query,
          signature:
            c.req.header(provider === "stripe" ? "Stripe-Signature" : "x-signature") ?? null,
          requestId: c.req.header("x-request-id") ?? null,
        },
      });
    } catch (error) {
      if (error instanceof StoreNotRegistered) return refuseUnsigned(c);
      throw error;
    }
    if (answer.status === 401) return refuseUnsigned(c);
    return c.json(answer.body, answer.status);
  },
);
