/** Shapes of the WhatsApp connection calls, shared by the API and the console. */
import { z } from "zod/mini";
import { metaAccessToken } from "./meta-token";

const required = (label: string) =>
  z
    .string({ error: `${label} es obligatorio` })
    .check(
      z.trim(),
      z.minLength(1, `${label} es obligatorio`),
      z.maxLength(200, `${label} es demasiado largo`),
    );

export const whatsappConfigInput = z.object({
  phone_number_id: required("El identificador del número"),
  business_account_id: required("El identificador de la cuenta de WhatsApp Business"),
  access_token: metaAccessToken,
  phone_number: z.optional(z.string().check(z.trim(), z.maxLength(40))),
  default_agent_id: z.nullish(z.string().check(z.trim(), z.maxLength(64))),
});

export const whatsappConfigUpdateInput = z.partial(whatsappConfigInput);

export const whatsappConnectInput = z.object({
  phone_number: z.optional(z.string().check(z.trim(), z.maxLength(40))),
});

export interface WhatsappConfig {
  id: string;
  phone_number: string | null;
  phone_number_id: string;
  business_account_id: string;
  status: "connected" | "connecting" | "disconnected" | "error";
  default_agent_id: string | null;
  webhook_token: string | null;
  connected_at: string | null;
  /** The number is also used in the WhatsApp Business app (contract section 16). */
  coexistence: boolean;
  /** Why Meta disconnected the number (`account_update`), in Spanish; null while connected. */
  disconnected_reason: string | null;
  /** The app's chat history as it is imported; null for a number that is not shared. */
  history_import: HistoryImport | null;
}

/**
 * Where the import of the WhatsApp Business app's history stands: `requested` (asked of Meta,
 * nothing arrived yet), `declined` (the owner chose not to share it, Meta's 2593109),
 * `importing`, `done`, `failed` (Meta refused the request; `error` says why in Spanish).
 */
export const HISTORY_IMPORT_STATES = [
  "requested",
  "declined",
  "importing",
  "done",
  "failed",
] as const;

export interface HistoryImport {
  state: (typeof HISTORY_IMPORT_STATES)[number];
  /** Meta's own figure (0-100) from the chunks received so far. */
  progress: number;
  /** Messages imported into conversations so far. */
  messages: number;
  error: string | null;
}

/** The realtime event of the number's state (`account_update`): `{status, disconnected_reason}`. */
export interface WhatsappStatusEvent {
  status: WhatsappConfig["status"];
  disconnected_reason: string | null;
}

export interface WhatsappTestResult {
  success: boolean;
  phone_number?: string;
  error?: string;
}

/**
 * Meta's subscription check (`GET /webhooks/whatsapp`). Meta's challenge is a number; a sane
 * one is short and plain, so what is echoed can never be markup or a header.
 */
export const webhookVerifyQuery = z.object({
  "hub.mode": z.optional(z.string().check(z.maxLength(50))),
  "hub.verify_token": z.optional(z.string().check(z.maxLength(200))),
  "hub.challenge": z.optional(
    z
      .string()
      .check(
        z.regex(/^[A-Za-z0-9._~-]{1,256}$/, "hub.challenge solo admite letras, cifras y . _ ~ -"),
      ),
  ),
});

export const oauthExchangeInput = z.object({
  code: z
    .string({ error: "Falta el código de autorización" })
    .check(z.trim(), z.minLength(1, "Falta el código de autorización"), z.maxLength(2000)),
  waba_id: z.optional(z.string().check(z.trim(), z.maxLength(64))),
  phone_number_id: z.optional(z.string().check(z.trim(), z.maxLength(64))),
  redirect_uri: z.optional(z.url().check(z.maxLength(500))),
  /** The number stays in the WhatsApp Business app (Embedded Signup's app onboarding). */
  coexistence: z.optional(z.boolean()),
});

export interface OauthStatus {
  connected: boolean;
  status: WhatsappConfig["status"];
  phone_number: string | null;
}

/** What the console's Facebook SDK needs; `app_id` is null when Meta is not configured. */
export interface MetaAppConfig {
  app_id: string | null;
  config_id: string | null;
  graph_version: string;
  /** Meta is the local sandbox: connections are made with `npm run sandbox -- connect`. */
  sandbox: boolean;
}

/** A component of a message template as Meta describes it (`BODY` carries `{{1}}` placeholders). */
export interface TemplateComponent {
  type: string;
  format?: string;
  text?: string;
  buttons?: { type: string; text: string }[];
}

/** `GET /whatsapp-config/templates`: the account's templates; only `APPROVED` ones can be sent. */
export interface WhatsappTemplate {
  name: string;
  language: string;
  category: string;
  status: string;
  components: TemplateComponent[];
}

const bodyText = (template: Pick<WhatsappTemplate, "components">) =>
  template.components.find((c) => c.type.toUpperCase() === "BODY")?.text ?? "";

/** The body text with `{{n}}` replaced by the n-th parameter: what the customer reads. */
export function fillTemplate(template: Pick<WhatsappTemplate, "components">, parameters: string[]) {
  return bodyText(template).replace(
    /\{\{(\d+)\}\}/g,
    (placeholder, n: string) => parameters[Number(n) - 1] ?? placeholder,
  );
}

/** How many `{{n}}` parameters the body expects. */
export function templateParameterCount(template: Pick<WhatsappTemplate, "components">) {
  return new Set(bodyText(template).match(/\{\{\d+\}\}/g) ?? []).size;
}

/** Meta's pricing categories (per-message pricing) the product counts. */
export const PRICING_CATEGORIES = [
  "marketing",
  "utility",
  "authentication",
  "authentication_international",
  "service",
  "marketing_lite",
  "referral_conversion",
] as const;
export type PricingCategory = (typeof PRICING_CATEGORIES)[number];

/** A category as Meta writes it (`SERVICE` in analytics, `service` in statuses), or null. */
export function pricingCategoryOf(value: unknown): PricingCategory | null {
  const category = typeof value === "string" ? value.toLowerCase() : "";
  return (PRICING_CATEGORIES as readonly string[]).includes(category)
    ? (category as PricingCategory)
    : null;
}
