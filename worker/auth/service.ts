import { and, eq, gt, isNull } from "drizzle-orm";
import { recordAudit } from "../audit/service";
import type { Db } from "../db/client";
import { memberships, organizations, sessions, users } from "../db/schema";
import { AppError, conflict, unauthorized } from "../http/errors";
import type { Caller } from "../http/context";
import { assertUnderLimit, clearHits, countHit, type Limit } from "../http/rate-limit";
import { toOrganization } from "../organizations/service";
import type { AuthResult, LoginInput, Me, RegisterInput, User } from "./contract";
import { hashPassword, UNMATCHABLE_HASH, verifyPassword } from "./passwords";
import { signAccessToken, TOKEN_LIFETIME_SECONDS, verifyAccessToken } from "./tokens";

/** Failed logins allowed per e-mail and per client address before 429. */
const LOGIN_FAILURES_PER_EMAIL: Limit = { max: 5, windowSeconds: 15 * 60 };
const LOGIN_FAILURES_PER_IP: Limit = { max: 20, windowSeconds: 15 * 60 };
/** Sign-ups per client address and hour, unless REGISTRATIONS_PER_HOUR says otherwise. */
const DEFAULT_REGISTRATIONS_PER_HOUR = 10;

export interface RequestInfo {
  ip: string | null;
  userAgent: string | null;
}

type UserRow = typeof users.$inferSelect;

export const toUser = (row: UserRow): User => ({
  id: row.id,
  email: row.email,
  full_name: row.fullName,
});

async function startSession(db: Db, secret: string, user: UserRow, info: RequestInfo) {
  const expiresAt = new Date(Date.now() + TOKEN_LIFETIME_SECONDS * 1000);
  const [session] = await db
    .insert(sessions)
    .values({ userId: user.id, expiresAt: expiresAt.toISOString(), userAgent: info.userAgent })
    .returning({ id: sessions.id });
  const token = await signAccessToken(
    { userId: user.id, sessionId: session!.id },
    secret,
    expiresAt,
  );
  return { token, user: toUser(user) } satisfies AuthResult;
}

export async function register(
  db: Db,
  secret: string,
  input: RegisterInput,
  info: RequestInfo,
  registrationsPerHour = DEFAULT_REGISTRATIONS_PER_HOUR,
) {
  const ipKey = `register:ip:${info.ip ?? "unknown"}`;
  const limit: Limit = { max: registrationsPerHour, windowSeconds: 60 * 60 };
  await assertUnderLimit(db, ipKey, limit);
  await countHit(db, ipKey, limit);

  const existing = await db.query.users.findFirst({ where: eq(users.email, input.email) });
  if (existing) throw conflict("Este email ya está registrado. Inicia sesión.");

  const [user] = await db
    .insert(users)
    .values({
      email: input.email,
      fullName: input.full_name,
      passwordHash: await hashPassword(input.password),
    })
    .onConflictDoNothing({ target: users.email })
    .returning();
  // Two registrations racing for one e-mail: the loser gets the same 409.
  if (!user) throw conflict("Este email ya está registrado. Inicia sesión.");

  await recordAudit(db, { action: "auth.register", userId: user.id, ip: info.ip });
  return startSession(db, secret, user, info);
}

export async function login(db: Db, secret: string, input: LoginInput, info: RequestInfo) {
  const emailKey = `login:email:${input.email}`;
  const ipKey = `login:ip:${info.ip ?? "unknown"}`;
  await assertUnderLimit(db, emailKey, LOGIN_FAILURES_PER_EMAIL);
  await assertUnderLimit(db, ipKey, LOGIN_FAILURES_PER_IP);

  const user = await db.query.users.findFirst({ where: eq(users.email, input.email) });
  // Unknown e-mail and wrong password cost the same time and get the same answer.
  const valid = await verifyPassword(input.password, user?.passwordHash ?? UNMATCHABLE_HASH);
  if (!user || !valid) {
    await countHit(db, emailKey, LOGIN_FAILURES_PER_EMAIL);
    await countHit(db, ipKey, LOGIN_FAILURES_PER_IP);
    await recordAudit(db, {
      action: "auth.login_failed",
      userId: user?.id,
      metadata: { email: input.email },
      ip: info.ip,
    });
    throw new AppError(
      401,
      "invalid_credentials",
      "Credenciales incorrectas. Verifica tu email y contraseña.",
    );
  }

  await clearHits(db, emailKey);
  const membership = await db.query.memberships.findFirst({
    where: eq(memberships.userId, user.id),
  });
  await recordAudit(db, {
    action: "auth.login",
    userId: user.id,
    organizationId: membership?.organizationId,
    ip: info.ip,
  });
  return startSession(db, secret, user, info);
}

/**
 * The caller behind a bearer token: the signature, algorithm and expiry are checked, and
 * so is the server-side session, so that a revoked token stops working at once.
 */
export async function authenticate(db: Db, secret: string, token: string): Promise<Caller> {
  const claims = await verifyAccessToken(token, secret);
  if (!claims) throw unauthorized();
  const session = await db.query.sessions.findFirst({
    where: and(
      eq(sessions.id, claims.sessionId),
      eq(sessions.userId, claims.userId),
      isNull(sessions.revokedAt),
      gt(sessions.expiresAt, new Date().toISOString()),
    ),
  });
  if (!session) throw unauthorized();
  return { userId: claims.userId, sessionId: claims.sessionId };
}

export async function logout(db: Db, caller: Caller, info: RequestInfo) {
  await db
    .update(sessions)
    .set({ revokedAt: new Date().toISOString() })
    .where(eq(sessions.id, caller.sessionId));
  await recordAudit(db, { action: "auth.logout", userId: caller.userId, ip: info.ip });
}

/** Rotates the session: the presented token is revoked and a fresh one issued. */
export async function refresh(db: Db, secret: string, caller: Caller, info: RequestInfo) {
  const user = await db.query.users.findFirst({ where: eq(users.id, caller.userId) });
  if (!user) throw unauthorized();
  await db
    .update(sessions)
    .set({ revokedAt: new Date().toISOString() })
    .where(eq(sessions.id, caller.sessionId));
  return startSession(db, secret, user, info);
}

export async function me(db: Db, caller: Caller): Promise<Me> {
  const [row] = await db
    .select({ user: users, organization: organizations, role: memberships.role })
    .from(users)
    .leftJoin(memberships, eq(memberships.userId, users.id))
    .leftJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(users.id, caller.userId));
  if (!row) throw unauthorized();
  return {
    user: toUser(row.user),
    organization: row.organization ? toOrganization(row.organization) : null,
    role: row.role ?? null,
  };
}
