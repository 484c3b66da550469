/**
 * Where a provider's OAuth redirect comes back to the edge (Facebook Login for WhatsApp,
 * Google's consent): a browser redirect with no bearer token, served by the edge and ending on
 * a page of the console. One path for both (decision 0146): the provider's refusal, then its
 * code, then the signed state with the browser's nonce names the member; the provider's own
 * part, in the organization's store, ends it.
 */
import type { Context } from "hono";
import { oauthStateOwner, takeStateNonce, type OAuthPurpose } from "../auth/oauth-state";
import { requestInfo } from "./auth";
import type { AppContext, Member } from "./context";

/** A redirect back whose state held: its code, the member it was issued to, the state's id. */
export interface OAuthReturn {
  code: string;
  /** With this request's address, for the organization's trail. */
  member: Member;
  stateId: string;
}

/** Why a redirect back stops before the provider's part: no code, or a state not this browser's. */
export type OAuthReturnRefusal = "no_code" | "invalid_state";

/** How one provider's redirect back ends. */
interface OAuthCallbackEnds {
  /** The provider refused (its `error` and `error_description`). */
  refused: (c: Context<AppContext>, error: string, description: string) => Response;
  /** No code, or a state forged, expired, or not this browser's (its nonce). */
  failed: (c: Context<AppContext>, error: OAuthReturnRefusal) => Response;
  /** The provider's part, with the code, for the member the state names. */
  connect: (c: Context<AppContext>, back: OAuthReturn) => Promise<Response>;
}

/** The handler of a provider's callback whose state was signed for `purpose`. */
export const oauthCallback =
  (purpose: OAuthPurpose, { refused, failed, connect }: OAuthCallbackEnds) =>
  async (c: Context<AppContext>) => {
    const providerError = c.req.query("error");
    if (providerError) {
      return refused(c, providerError, c.req.query("error_description") ?? "");
    }
    const code = c.req.query("code");
    if (!code) return failed(c, "no_code");
    const state = c.req.query("state") ?? "";
    const nonce = takeStateNonce(c, purpose);
    const owner = await oauthStateOwner(c.var.db, c.env, purpose, state, nonce);
    if (!owner) return failed(c, "invalid_state");
    const member = { ...owner.member, ip: requestInfo(c).ip };
    return connect(c, { code, member, stateId: owner.stateId });
  };
