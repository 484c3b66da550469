// What the payment fakes (stripe-server.mjs, mercadopago-server.mjs) share: the controls that
// play the customer, `POST /__fake/<action> {id, webhook_secret?, ...}`, and delivering the
// signed event they answer.
import { sendJson } from "./http-kit.mjs";

/**
 * The handler of a payment fake's `/__fake/<action>`: finds what `id` names (404 when nothing),
 * plays `actions[action]` on it with the secret to sign with (the body's, else the fake's),
 * and answers what it answers; an action answering null cannot be played (409, not paid).
 * @template T
 * @param {{
 *   find: (ref: string) => T | undefined,
 *   unknown: string,
 *   webhookSecret: string,
 *   actions: Record<string, (found: T, body: any, secret: string) => Promise<unknown> | null>,
 * }} controls
 */
export function customerControls({ find, unknown, webhookSecret, actions }) {
  return async (
    /** @type {string} */ action,
    /** @type {any} */ body,
    /** @type {import("node:http").ServerResponse} */ res,
  ) => {
    const found = find(String(body?.id ?? ""));
    if (!found) return sendJson(res, 404, { error: unknown });
    const play = actions[action];
    if (!play) return sendJson(res, 404, { error: "unknown control" });
    const answer = await play(found, body, body?.webhook_secret ?? webhookSecret);
    return answer === null ? sendJson(res, 409, { error: "not paid" }) : sendJson(res, 200, answer);
  };
}

/**
 * POSTs a signed event as the provider does; answers the status the console gave (0 when it
 * could not be reached).
 * @param {string | URL} url @param {Record<string, string>} headers @param {string} body
 */
export async function deliverEvent(url, headers, body) {
  const answer = await fetch(url, { method: "POST", headers, body }).catch(() => null);
  return answer?.status ?? 0;
}
