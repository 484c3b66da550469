import { jwtVerify, SignJWT } from "jose";

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
