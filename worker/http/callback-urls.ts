/**
 * The addresses at the edge a provider is given to come back to: each OAuth redirect (served by
 * worker/http/oauth-callback.ts; the consent URL and the code's exchange, in the store, name the
 * same address) and the booking Flow's endpoint, registered on the number.
 */
import type { Env } from "../env";

const appUrl = (env: Env) => (env.PUBLIC_APP_URL ?? "").replace(/\/$/, "");

export const whatsappCallbackUrl = (env: Env) => `${appUrl(env)}/api/v1/whatsapp/oauth/callback`;

export const googleCallbackUrl = (env: Env) => `${appUrl(env)}/api/v1/integrations/google/callback`;

export const flowEndpointUrl = (env: Env) => `${appUrl(env)}/webhooks/flows`;
