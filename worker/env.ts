/** Every binding and setting the Worker reads (wrangler.toml, .dev.vars, secrets). */
export interface Env {
  DB: D1Database;
  /** Each organization's store: reached only through the registry (worker/stores/registry.ts). */
  ORGANIZATION_HUB: DurableObjectNamespace;

  JWT_SECRET: string;
  ENCRYPTION_KEY: string;
  PUBLIC_APP_URL?: string;

  META_APP_ID?: string;
  META_APP_SECRET?: string;
  META_WEBHOOK_VERIFY_TOKEN?: string;
  META_CONFIG_ID?: string;
  META_GRAPH_URL: string;
  /** Meta's Business API (thread control of Meta Business Agent), without a version. */
  META_BUSINESS_API_URL: string;
  /** "true" when Meta is the local fake (`npm run sandbox`): no Facebook Login window exists. */
  META_SANDBOX?: string;
  /**
   * The booking Flow's RSA-2048 private key (PEM, PKCS#8): decrypts WhatsApp's calls to
   * `/webhooks/flows`; its public half is registered on the number (worker/flows/).
   */
  FLOWS_PRIVATE_KEY?: string;

  AI_BASE_URL: string;
  AI_API_KEY?: string;
  /** Model that transcribes voice notes (an `input_audio` part); default google/gemini-2.5-flash. */
  AI_TRANSCRIPTION_MODEL?: string;

  /** Stripe's API (`https://api.stripe.com`), without a version: payment links (section 18). */
  STRIPE_API_URL: string;
  /** Mercado Pago's API (`https://api.mercadopago.com`): payment links (section 18). */
  MERCADOPAGO_API_URL: string;

  /** Google Calendar's API (`https://www.googleapis.com`): busy times and booking events. */
  GOOGLE_API_URL: string;
  /** Google's OAuth 2.0 server (`https://oauth2.googleapis.com`): `/token` and `/revoke`. */
  GOOGLE_OAUTH_URL: string;
  /** The OAuth client of Google Calendar; without it the integration says it is not configured. */
  GOOGLE_CLIENT_ID?: string;
  GOOGLE_CLIENT_SECRET?: string;

  /** Sign-ups allowed per client address and hour (default 10). */
  REGISTRATIONS_PER_HOUR?: string;

  /**
   * "1": organizations in the EEA get their store in Cloudflare's `eu` jurisdiction (a
   * deployment setting: workerd has no jurisdictions, so local runs and tests leave it off).
   */
  EU_STORES?: string;
  /**
   * How long a Worker keeps an organization's store route, in seconds (default 30): what an
   * operator's change of the registry waits for. The API tests set 0.
   */
  STORE_ROUTE_TTL_SECONDS?: string;
  /** "1" (the API tests): D1 refuses more than 100 bound parameters, as deployed D1 does. */
  D1_BIND_CHECK?: string;
  /** The operator's token for `/api/v1/operator/*` (`npm run stores`); unset, those are 404. */
  OPERATOR_TOKEN?: string;

  /** "1" adds the benchmarks' references (worker/bench/routes.ts) and counts D1 and store trips. */
  BENCH_ROUTES?: string;
  /** With BENCH_ROUTES=1: each D1 round trip waits this long first (the simulated deployment). */
  BENCH_D1_LATENCY_MS?: string;
  /** With BENCH_ROUTES=1: each call to a store waits this long first. */
  BENCH_STORE_LATENCY_MS?: string;
}

declare global {
  // Lets `import { env } from "cloudflare:workers"` see the same type.
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Cloudflare {
    // eslint-disable-next-line @typescript-eslint/no-empty-object-type
    interface Env extends AppEnv {}
  }
}
type AppEnv = Env;
