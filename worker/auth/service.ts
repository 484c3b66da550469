import { and, eq, gt, isNull, sql } from "drizzle-orm";
import { recordAccountAudit } from "../audit/trail";
import type { Db } from "../db/client";
import {
  accountAuditEvents,
  memberships,
  organizations,
  sessions,
  users,
} from "../db/global-schema";
import { AppError, conflict, unauthorized } from "../http/errors";
import type { Caller, Membership } from "../http/context";
import type { Deps } from "../http/deps";
import { addressKey } from "../http/address-key";
import {
  assertWithinLimits,
  clearHits,
  takeHits,
  type HitRow,
  type Limit,
} from "../http/rate-limit";
import { writeHits, type CountedWrite } from "../http/write-limits";
import { toOrganization } from "../organizations/mappers";
import { closeSockets } from "../realtime/close-sockets";
import type { AuthResult, LoginInput, Me, RegisterInput, User } from "../../contracts/auth";
import { hashPassword, UNMATCHABLE_HASH, verifyPassword } from "./passwords";
import { signAccessToken, TOKEN_LIFETIME_SECONDS, verifyAccessToken } from "./tokens";
import { usualAddressesAmong } from "./account-in-organization";
import { auditAccount, inOrganizationData } from "../stores/organization-parts";

/**
 * Sign-in attempts, counted before the password is checked (docs/decisions/0016): per e-mail,
 * and per client address for attempts from addresses the account does not usually use.
 */
const LOGIN_ATTEMPTS_PER_EMAIL: Limit = { max: 5, windowSeconds: 15 * 60 };
const LOGIN_ATTEMPTS_PER_IP: Limit = { max: 20, windowSeconds: 15 * 60 };
/** An address the account signed in from within this time is one of its usual addresses. */
const USUAL_ADDRESS_DAYS = 30;
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
  const limit: Limit = { max: registrationsPerHour, windowSeconds: 60 * 60 };
  await takeHits(db, [{ key: `register:ip:${addressKey(info.ip)}`, limit }]);

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

  await recordAccountAudit(db, { action: "auth.register", userId: user.id, ip: info.ip });
  return startSession(db, secret, user, info);
}

/**
 * The account behind an e-mail, its organization, and whether `ip` is one of its usual
 * addresses: one it registered or signed in from within USUAL_ADDRESS_DAYS, compared by the
 * limits' key (an IPv6 /64: privacy addresses rotate inside it, and the windows count it as
 * one). The account's own entries are global, its sign-ins as a member its organization's,
 * read in its store. Two reads whether or not the e-mail exists (an unknown one asks D1 for an
 * organization no entry names), so the answer takes about the same time.
 */
async function findLoginAccount(deps: Deps, email: string, ip: string | null) {
  const { db } = deps;
  const since = new Date(Date.now() - USUAL_ADDRESS_DAYS * 86_400_000).toISOString();
  const globalAddresses = db
    .select({ ips: sql`json_group_array(DISTINCT ${accountAuditEvents.ip})` })
    .from(accountAuditEvents)
    .where(
      usualAddressesAmong(
        accountAuditEvents,
        isNull(accountAuditEvents.organizationId),
        users.id,
        since,
      ),
    );
  const [row] = await db
    .select({
      user: users,
      organizationId: memberships.organizationId,
      usualAddresses: sql`(${globalAddresses})`.mapWith(
        (ips: string) => JSON.parse(ips) as string[],
      ),
    })
    .from(users)
    .leftJoin(memberships, eq(memberships.userId, users.id))
    .where(eq(users.email, email));
  const organizationId = row?.organizationId ?? null;
  const organizationAddresses =
    row && organizationId !== null
      ? await inOrganizationData(deps, organizationId, {
          kind: "usual-addresses",
          userId: row.user.id,
          since,
        })
      : // The same read in D1 for no organization: an unknown e-mail costs about what a known one does.
        (
          await db
            .select({ ip: accountAuditEvents.ip })
            .from(accountAuditEvents)
            .where(
              usualAddressesAmong(
                accountAuditEvents,
                eq(accountAuditEvents.organizationId, ""),
                "",
                since,
              ),
            )
        ).map((entry) => entry.ip!);
  const key = addressKey(ip);
  const usual = [...(row?.usualAddresses ?? []), ...organizationAddresses];
  const fromUsualAddress = ip !== null && usual.some((address) => addressKey(address) === key);
  return { user: row?.user, organizationId, fromUsualAddress };
}

/**
 * The windows a sign-in attempt counts in, the e-mail's first. From a usual address the e-mail has a window of
 * its own there, so guesses from elsewhere cannot lock its owner out, and the address's
 * window is left alone (a team behind one office address signs in every morning).
 */
function loginWindows(email: string, ip: string | null, fromUsualAddress: boolean) {
  if (fromUsualAddress) {
    return [{ key: `login:email:${email}:ip:${addressKey(ip)}`, limit: LOGIN_ATTEMPTS_PER_EMAIL }];
  }
  return [
    { key: `login:email:${email}`, limit: LOGIN_ATTEMPTS_PER_EMAIL },
    { key: `login:ip:${addressKey(ip)}`, limit: LOGIN_ATTEMPTS_PER_IP },
  ];
}

export async function login(deps: Deps, secret: string, input: LoginInput, info: RequestInfo) {
  const { db } = deps;
  const { user, organizationId, fromUsualAddress } = await findLoginAccount(
    deps,
    input.email,
    info.ip,
  );
  const windows = loginWindows(input.email, info.ip, fromUsualAddress);
  // Counted before the check: a burst of parallel guesses gets the same 5 as a slow one.
  await takeHits(db, windows);

  // Unknown e-mail and wrong password cost the same time and get the same answer.
  const valid = await verifyPassword(input.password, user?.passwordHash ?? UNMATCHABLE_HASH);
  if (!user || !valid) {
    await recordAccountAudit(db, {
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

  await clearHits(db, windows[0]!.key); // The e-mail's window: its owner got in.
  // A member's sign-in is their organization's data; an account's without one stays global.
  await auditAccount(deps, organizationId, { action: "auth.login", userId: user.id, ip: info.ip });
  return startSession(db, secret, user, info);
}

/**
 * The caller behind a bearer token: the signature, algorithm and expiry are checked, and
 * so is the server-side session, so that a revoked token stops working at once.
 */
export async function authenticate(
  db: Db,
  secret: string,
  token: string,
  write: CountedWrite | null = null,
): Promise<
  Omit<Caller, "ip"> & {
    expiresAt: string;
    membership: Membership | null;
    /** The version of the member's organization's global facts (decision 0136). */
    factsVersion: number | null;
  }
> {
  const claims = await verifyAccessToken(token, secret);
  if (!claims) throw unauthorized();
  // The session, the person's membership and a write's counters in one batch: a member's
  // request makes one trip to D1 before its organization's store (contract section 15).
  const now = Date.now();
  const session = db
    .select({
      expiresAt: sessions.expiresAt,
      organizationId: memberships.organizationId,
      role: memberships.role,
      factsVersion: organizations.factsVersion,
    })
    .from(sessions)
    .leftJoin(memberships, eq(memberships.userId, sessions.userId))
    .leftJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(
      and(
        eq(sessions.id, claims.sessionId),
        eq(sessions.userId, claims.userId),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, new Date(now).toISOString()),
      ),
    )
    .limit(1);
  const hits = write ? writeHits(db, claims.userId, write, now) : null;
  const [[live], ...counted] = await db.batch([session, ...(hits?.statements ?? [])]);
  if (!live) throw unauthorized();
  if (hits)
    assertWithinLimits(
      counted.map((rows) => (rows as HitRow[])[0]),
      hits.limits,
      now,
    );
  const { organizationId, role } = live;
  return {
    userId: claims.userId,
    sessionId: claims.sessionId,
    expiresAt: live.expiresAt,
    membership: organizationId !== null && role !== null ? { organizationId, role } : null,
    factsVersion: live.factsVersion,
  };
}

/** Revokes every live session of a user (role change); the statement, to run in a batch. */
export const revokeSessionsOf = (db: Db, userId: string) =>
  db
    .update(sessions)
    .set({ revokedAt: new Date().toISOString() })
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt)));

/** Revokes one session in D1, then closes its sockets, so a reconnect racing them is refused. */
async function revokeSession(deps: Deps, caller: Caller) {
  await deps.db
    .update(sessions)
    .set({ revokedAt: new Date().toISOString() })
    .where(eq(sessions.id, caller.sessionId));
  // Sockets are only ever open for a member, in the organization's hub.
  const membership = await deps.db.query.memberships.findFirst({
    where: eq(memberships.userId, caller.userId),
    columns: { organizationId: true },
  });
  if (membership) {
    await closeSockets(deps.env, membership.organizationId, { sessionIds: [caller.sessionId] });
  }
}

export async function logout(deps: Deps, caller: Caller) {
  await revokeSession(deps, caller);
  await recordAccountAudit(deps.db, {
    action: "auth.logout",
    userId: caller.userId,
    ip: caller.ip,
  });
}

/** Rotates the session: the presented token is revoked and a fresh one issued. */
export async function refresh(deps: Deps, secret: string, caller: Caller, info: RequestInfo) {
  const user = await deps.db.query.users.findFirst({ where: eq(users.id, caller.userId) });
  if (!user) throw unauthorized();
  await revokeSession(deps, caller);
  return startSession(deps.db, secret, user, info);
}

export async function me({ db }: Deps, caller: Caller): Promise<Me> {
  const [row] = await db
    .select({
      user: users,
      organization: organizations,
      role: memberships.role,
      available: memberships.available,
    })
    .from(users)
    .leftJoin(memberships, eq(memberships.userId, users.id))
    .leftJoin(organizations, eq(organizations.id, memberships.organizationId))
    .where(eq(users.id, caller.userId));
  if (!row) throw unauthorized();
  return {
    user: toUser(row.user),
    organization: row.organization ? toOrganization(row.organization) : null,
    role: row.role ?? null,
    available: row.available ?? null,
  };
}
