/**
 * Where each provider's OAuth redirect comes back (served by the edge, worker/http/oauth-callback.ts):
 * the consent URL and the code's exchange, in the store, name the same address.
 */
import type { Env } from "../env";

const appUrl = (env: Env) => (env.PUBLIC_APP_URL ?? "").replace(/\/$/, "");

export const whatsappCallbackUrl = (env: Env) => `${appUrl(env)}/api/v1/whatsapp/oauth/callback`;

export const googleCallbackUrl = (env: Env) => `${appUrl(env)}/api/v1/integrations/google/callback`;
