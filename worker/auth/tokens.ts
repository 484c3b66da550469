import { jwtVerify, SignJWT } from "jose";

/** Lowercase hex SHA-256 of a text: invitation tokens are stored this way, phones sent to Meta. */
export async function sha256Hex(text: string) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Access tokens are HS256 JWTs; the algorithm is pinned on verification. */
const ALGORITHM = "HS256";
export const TOKEN_LIFETIME_SECONDS = 7 * 24 * 60 * 60;

export interface TokenClaims {
  userId: string;
  sessionId: string;
}

function key(secret: string) {
  return new TextEncoder().encode(secret);
}

export async function signAccessToken(claims: TokenClaims, secret: string, expiresAt: Date) {
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: ALGORITHM, typ: "JWT" })
    .setSubject(claims.userId)
    .setIssuedAt()
    .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
    .sign(key(secret));
}

/** The token's claims, or null when it is malformed, forged, of another algorithm or expired. */
export async function verifyAccessToken(
  token: string,
  secret: string,
): Promise<TokenClaims | null> {
  try {
    const { payload } = await jwtVerify(token, key(secret), { algorithms: [ALGORITHM] });
    if (typeof payload.sub !== "string" || typeof payload.sid !== "string") return null;
    return { userId: payload.sub, sessionId: payload.sid };
  } catch {
    return null;
  }
}
