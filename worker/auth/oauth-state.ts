/**
 * The state of an OAuth redirect (Facebook Login, Google's consent): a signed, short-lived
 * token naming the member, their session and organization, and the hash of a nonce that only
 * the browser which asked holds (in a cookie set and taken here). A leaked state cannot be finished
 * with someone else's code from another browser, and it dies with the session (logout,
 * revocation, expiry) or with the member's right to manage.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { jwtVerify, SignJWT } from "jose";
import type { Db } from "../db/client";
import type { Env } from "../env";
import { API_BASE } from "../http/api-base";
import type { Member } from "../http/context";
import { sha256Hex } from "./tokens";

/** Whose redirect it is: each signs with a key of its own, so one's state is never another's. */
export type OAuthPurpose = "oauth-state" | "google-oauth-state";

const stateKey = (env: Env, purpose: OAuthPurpose) =>
  new TextEncoder().encode(`${purpose}:${env.JWT_SECRET}`);

/** The browser's half of each redirect's state: a cookie sent only to its own callback. */
const NONCE_COOKIES: Record<OAuthPurpose, { name: string; path: string }> = {
  "oauth-state": { name: "wa_oauth_nonce", path: `${API_BASE}/whatsapp/oauth` },
  "google-oauth-state": { name: "google_oauth_nonce", path: `${API_BASE}/integrations/google` },
};

/** Hands the asking browser the nonce of the state it is about to be redirected with. */
export function setStateNonce(c: Context, purpose: OAuthPurpose, nonce: string) {
  const { name, path } = NONCE_COOKIES[purpose];
  // Sent back only on the provider's top-level redirect to the callback (SameSite=Lax).
  setCookie(c, name, nonce, {
    path,
    httpOnly: true,
    secure: new URL(c.req.url).protocol === "https:",
    sameSite: "Lax",
    maxAge: 10 * 60,
  });
}

/** On the callback: the browser's nonce, if it holds one, deleted so it serves once. */
export function takeStateNonce(c: Context, purpose: OAuthPurpose): string | undefined {
  const { name, path } = NONCE_COOKIES[purpose];
  const nonce = getCookie(c, name);
  deleteCookie(c, name, { path });
  return nonce;
}

/** A state for `member`, valid `lifetimeMs`, with its id (`jti`); and the browser's nonce. */
export async function signOAuthState(
  env: Env,
  purpose: OAuthPurpose,
  member: Member,
  { id = crypto.randomUUID(), lifetimeMs }: { id?: string; lifetimeMs: number },
) {
  const nonce = crypto.randomUUID();
  const state = await new SignJWT({
    org: member.organizationId,
    sid: member.sessionId,
    nonce: await sha256Hex(nonce),
  })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(member.userId)
    .setJti(id)
    .setIssuedAt()
    .setExpirationTime(Math.floor((Date.now() + lifetimeMs) / 1000))
    .sign(stateKey(env, purpose));
  return { state, nonce };
}

/**
 * The owner or admin a state was issued to, and its id; null when it is forged, expired, comes
 * back to a browser that does not hold its nonce, or its session or the right to manage ended.
 */
export async function oauthStateOwner(
  db: Db,
  env: Env,
  purpose: OAuthPurpose,
  state: string,
  nonce: string | undefined,
): Promise<{ member: Omit<Member, "ip">; stateId: string } | null> {
  try {
    const { payload } = await jwtVerify(state, stateKey(env, purpose), { algorithms: ["HS256"] });
    const { sub, org, sid, jti } = payload;
    if (typeof sub !== "string" || typeof org !== "string" || typeof sid !== "string") return null;
    if (typeof jti !== "string") return null;
    if (!nonce || payload.nonce !== (await sha256Hex(nonce))) return null;
    const session = await db.query.sessions.findFirst({
      where: (t, { and, eq, gt, isNull }) =>
        and(
          eq(t.id, sid),
          eq(t.userId, sub),
          isNull(t.revokedAt),
          gt(t.expiresAt, new Date().toISOString()),
        ),
      columns: { id: true },
    });
    if (!session) return null;
    const membership = await db.query.memberships.findFirst({
      where: (m, { and, eq }) => and(eq(m.userId, sub), eq(m.organizationId, org)),
    });
    if (!membership || (membership.role !== "owner" && membership.role !== "admin")) return null;
    return {
      member: { userId: sub, organizationId: org, role: membership.role, sessionId: sid },
      stateId: jti,
    };
  } catch {
    return null;
  }
}
