/**
 * Payment links (contract section 18, decisions 0091-0093): the provider an organization
 * connects (Stripe or Mercado Pago), the links sent in a conversation and what their webhooks
 * make of them. Shared with the console.
 */
import { z } from "zod/mini";
import { currencyField, moneyField } from "./sales";

export const PAYMENT_PROVIDERS = ["stripe", "mercadopago"] as const;
export type PaymentProvider = (typeof PAYMENT_PROVIDERS)[number];

export const PAYMENT_STATUSES = ["pending", "paid", "expired", "failed", "refunded"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];

/** The largest link an organization sends unless it says otherwise (its own currency). */
export const DEFAULT_MAX_PAYMENT_AMOUNT = 1000;

/**
 * How long a link can be paid: Stripe's shortest `expires_at` (30 minutes to 24 hours ahead),
 * and a booking paid ahead is held as long (decision 0092).
 */
export const LINK_MINUTES = 30;

/** What the customer's button says (WhatsApp's `cta_url` allows 20 characters). */
export const PAY_BUTTON = "Pagar";

const secretField = (label: string) =>
  z
    .string({ error: `${label} es obligatoria` })
    .check(
      z.trim(),
      z.minLength(1, `${label} es obligatoria`),
      z.maxLength(500, `${label} no puede superar 500 caracteres`),
      z.regex(/^[\x21-\x7e]+$/, `${label} solo admite caracteres ASCII visibles`),
    );

/** `PUT /integrations/payments`: the provider, its secret key and its webhooks' secret. */
export const paymentIntegrationInput = z.object({
  provider: z.enum(PAYMENT_PROVIDERS, { error: "El proveedor es stripe o mercadopago" }),
  secret: secretField("La clave secreta"),
  webhook_secret: secretField("La clave de los webhooks"),
});
export type PaymentIntegrationInput = z.input<typeof paymentIntegrationInput>;

/** What the API says of a connected provider: never a secret. */
export interface PaymentIntegration {
  provider: PaymentProvider;
  /** The provider's account (Stripe `acct_...`, Mercado Pago's user id). */
  account_id: string;
  connected_at: string;
  connected_by: string | null;
  /** Where the provider posts its events (Stripe: paste it as the endpoint's URL). */
  webhook_url: string;
}

/** `max_payment_amount` on `PATCH /organizations/{id}`, in the organization's currency. */
export const maxPaymentAmountField = z
  .number({ error: "El importe máximo debe ser un número" })
  .check(
    z.positive("El importe máximo debe ser mayor que 0"),
    z.lte(1_000_000, "El importe máximo no puede superar 1.000.000"),
  );

/** What the organization's answer carries of its payment settings. */
export interface PaymentLimits {
  max_payment_amount: number;
}

/** `POST /conversations/{id}/payment-links`. */
export const paymentLinkInput = z.object({
  amount: moneyField("El importe"),
  currency: currencyField,
  description: z
    .string({ error: "La descripción es obligatoria" })
    .check(
      z.trim(),
      z.minLength(1, "La descripción es obligatoria"),
      z.maxLength(200, "La descripción no puede superar 200 caracteres"),
    ),
  booking_id: z.optional(
    z.string().check(z.trim(), z.minLength(1, "Identificador de cita vacío"), z.maxLength(100)),
  ),
});
export type PaymentLinkInput = z.output<typeof paymentLinkInput>;

export interface Payment {
  id: string;
  conversation_id: string;
  booking_id: string | null;
  provider: PaymentProvider;
  /** The Checkout Session (`cs_...`) or the preference the link opens. */
  provider_ref: string;
  /** A decimal string ("25.00"), in `currency`. */
  amount: string;
  currency: string;
  description: string;
  status: PaymentStatus;
  url: string;
  expires_at: string;
  paid_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}
