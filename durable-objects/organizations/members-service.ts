import { and, asc, count, eq, gt, isNull } from "drizzle-orm";
import type { z } from "zod/mini";
import { auditStatement, recordAudit } from "../audit/service";
import type { Db } from "../../worker/db/client";
import { orgBatch } from "../db";
import { invitations, memberships, users } from "../../worker/db/global-schema";
import type { Member as Scope } from "../../worker/http/context";
import { AppError, forbidden, notFound } from "../../worker/http/errors";
import type { Role } from "../../contracts/auth";
import { revokeSessionsOf } from "../../worker/auth/service";
import { sha256Hex } from "../../worker/auth/tokens";
import type { Deps, StoreDeps } from "../../worker/http/deps";
import { closeSockets } from "../../worker/realtime/close-sockets";
import { releaseOnLeaving } from "../team-inbox/assignment";
import { memberNotFound } from "../../worker/organizations/errors";
import { rememberPerson } from "../../worker/organizations/people";
import {
  INVITATION_LIFETIME_DAYS,
  type Invitation,
  type Member,
  type memberChangeInput,
} from "../../contracts/members";

/** Owners and admins manage the organization; agents work conversations. */
export const isManager = (scope: Pick<Scope, "role">) =>
  scope.role === "owner" || scope.role === "admin";

export async function listMembers({ db }: Deps, scope: Scope): Promise<Member[]> {
  const rows = await db
    .select({ user: users, membership: memberships })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, scope.organizationId))
    .orderBy(asc(memberships.createdAt));
  return rows.map(({ user, membership }) => ({
    user_id: user.id,
    full_name: user.fullName,
    email: user.email,
    role: membership.role,
    joined_at: membership.createdAt,
    available: membership.available,
    max_open: membership.maxOpen,
  }));
}

async function findMembership(db: Db, organizationId: string, userId: string) {
  const row = await db.query.memberships.findFirst({
    where: and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)),
  });
  if (!row) throw memberNotFound();
  return row;
}

async function ownerCount(db: Db, organizationId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(memberships)
    .where(and(eq(memberships.organizationId, organizationId), eq(memberships.role, "owner")));
  return row?.n ?? 0;
}

const lastOwner = () =>
  new AppError(422, "last_owner", "La organización necesita al menos un propietario.");

/** Only owners grant or take away the owner role. */
function assertMayTouch(scope: Scope, targetRole: Role, newRole?: Role) {
  if (scope.role !== "owner" && (targetRole === "owner" || newRole === "owner")) throw forbidden();
}

/**
 * `PATCH /organizations/members/{user_id}`: a role (managers), availability (a member their
 * own, managers anyone's) and capacity (managers); an owner's availability and capacity are
 * their own and other owners' to set. Every part is checked before anything is written, then
 * all of it is written in one batch (and audited after it), so a refused part changes nothing.
 * A role change also signs the person out everywhere (docs/decisions/0015): their sessions are
 * revoked in that batch, and their open sockets closed after it.
 */
export async function changeMember(
  deps: StoreDeps,
  scope: Scope,
  { userId, role, available, max_open }: { userId: string } & z.output<typeof memberChangeInput>,
) {
  const { db, orgDb } = deps;
  const own = userId === scope.userId;
  const work = available !== undefined || max_open !== undefined;
  if (role !== undefined && !isManager(scope)) throw forbidden();
  if (!isManager(scope) && (!own || max_open !== undefined)) {
    throw forbidden(
      "Solo los propietarios y administradores pueden cambiar la disponibilidad de otros o la capacidad.",
    );
  }
  const target = await findMembership(db, scope.organizationId, userId);
  if (role !== undefined) assertMayTouch(scope, target.role, role);
  if (work && !own) assertMayTouch(scope, target.role);
  if (
    target.role === "owner" &&
    role !== undefined &&
    role !== "owner" &&
    (await ownerCount(db, scope.organizationId)) <= 1
  ) {
    throw lastOwner();
  }
  const entry = {
    organizationId: scope.organizationId,
    userId: scope.userId,
    target: userId,
    ip: scope.ip,
  };
  const roleChanges = role !== undefined && role !== target.role;
  await db.batch([
    db
      .update(memberships)
      .set({ role, available, maxOpen: max_open })
      .where(eq(memberships.id, target.id)),
    ...(roleChanges ? [revokeSessionsOf(db, userId)] : []),
  ]);
  // Audited once stored (the organization's data, apart from the membership): a failure
  // between leaves a change without its entry, never an entry for a change not made.
  const [first, ...rest] = [
    ...(work
      ? [
          auditStatement(orgDb, {
            ...entry,
            action: "member.availability",
            metadata: { available, max_open },
          }),
        ]
      : []),
    ...(role !== undefined
      ? [
          auditStatement(orgDb, {
            ...entry,
            action: "member.role_change",
            metadata: { from: target.role, to: role },
          }),
        ]
      : []),
  ];
  if (first) await orgBatch(orgDb, [first, ...rest]);
  if (roleChanges) await closeSockets(deps.env, scope.organizationId, { userId });
  return (await listMembers(deps, scope)).find((m) => m.user_id === userId)!;
}

/**
 * The person keeps their account and sessions (they may join or create another
 * organization), but their sockets in this one are closed and `/ws` refuses a non-member.
 * What they held goes back to the team (and to the AI) before they are removed.
 */
export async function removeMember(deps: StoreDeps, scope: Scope, { userId }: { userId: string }) {
  const { db } = deps;
  const target = await findMembership(db, scope.organizationId, userId);
  assertMayTouch(scope, target.role);
  if (target.role === "owner" && (await ownerCount(db, scope.organizationId)) <= 1)
    throw lastOwner();
  const { organizationId } = scope;
  // Released before removed (the request runs where the organization's data is).
  await releaseOnLeaving(deps, organizationId, {
    userId,
    how: "member_removed",
    by: scope.userId,
    ip: scope.ip,
  });
  await db.delete(memberships).where(eq(memberships.id, target.id));
  // Audited once removed: a failure between leaves a removal without its entry, never an
  // entry for a member still there.
  await recordAudit(deps.orgDb, {
    action: "member.remove",
    organizationId,
    userId: scope.userId,
    target: userId,
    metadata: { role: target.role },
    ip: scope.ip,
  });
  await closeSockets(deps.env, scope.organizationId, { userId });
}

const toInvitation = (row: typeof invitations.$inferSelect): Invitation => ({
  id: row.id,
  email: row.email,
  role: row.role,
  expires_at: row.expiresAt,
  created_at: row.createdAt,
});

/** A single-use invitation link; only the token's hash is stored. */
export async function invite(
  { db, orgDb }: StoreDeps,
  scope: Scope,
  { invitation: input, appUrl }: { invitation: { email: string; role: Role }; appUrl: string },
): Promise<Invitation> {
  assertMayTouch(scope, input.role);
  const token = `${crypto.randomUUID()}${crypto.randomUUID()}`.replaceAll("-", "");
  const expiresAt = new Date(Date.now() + INVITATION_LIFETIME_DAYS * 86_400_000).toISOString();
  const [[row]] = await db.batch([
    db
      .insert(invitations)
      .values({
        organizationId: scope.organizationId,
        email: input.email,
        role: input.role,
        tokenHash: await sha256Hex(token),
        invitedBy: scope.userId,
        expiresAt,
      })
      .returning(),
    rememberPerson(db, scope.organizationId, { email: input.email }),
  ]);
  await recordAudit(orgDb, {
    action: "member.invite",
    organizationId: scope.organizationId,
    userId: scope.userId,
    target: input.email,
    metadata: { role: input.role },
    ip: scope.ip,
  });
  return { ...toInvitation(row!), url: `${appUrl.replace(/\/$/, "")}/auth?invitation=${token}` };
}

export async function pendingInvitations({ db }: Deps, scope: Scope) {
  const rows = await db
    .select()
    .from(invitations)
    .where(
      and(
        eq(invitations.organizationId, scope.organizationId),
        isNull(invitations.acceptedAt),
        gt(invitations.expiresAt, new Date().toISOString()),
      ),
    )
    .orderBy(asc(invitations.createdAt));
  return rows.map(toInvitation);
}

/** An invitation withdrawn: its link stops working, and the audit trail says who withdrew it. */
export async function revokeInvitation(
  { db, orgDb }: StoreDeps,
  scope: Scope,
  { id }: { id: string },
) {
  const [revoked] = await db
    .delete(invitations)
    .where(and(eq(invitations.id, id), eq(invitations.organizationId, scope.organizationId)))
    .returning({ email: invitations.email, role: invitations.role });
  if (!revoked) throw notFound("Invitación no encontrada.");
  await recordAudit(orgDb, {
    action: "member.invite_revoke",
    organizationId: scope.organizationId,
    userId: scope.userId,
    target: revoked.email,
    metadata: { role: revoked.role },
    ip: scope.ip,
  });
}
