/**
 * The privacy policy's rights as endpoints: a copy of everything stored about the caller
 * (portability), and deleting the account (erasure), which revokes every token at once.
 */
import { and, eq, ne } from "drizzle-orm";
import { recordAudit } from "../audit/service";
import type { Db } from "../db/client";
import {
  agents,
  aiCalls,
  auditEvents,
  conversations,
  conversions,
  memberships,
  messages,
  metaConnections,
  organizations,
  quickReplies,
  sessions,
  trackingSessions,
  users,
  whatsappConnections,
} from "../db/schema";
import type { Caller } from "../http/context";
import { AppError, unauthorized } from "../http/errors";
import { verifyPassword } from "./passwords";

/** Everything about the caller; with the organization's data when the caller owns it. */
export async function exportAccount(db: Db, caller: Caller, ip: string | null) {
  const user = await db.query.users.findFirst({ where: eq(users.id, caller.userId) });
  if (!user) throw unauthorized();
  const membership = await db.query.memberships.findFirst({
    where: eq(memberships.userId, caller.userId),
  });
  const [sessionRows, auditRows] = await db.batch([
    db
      .select({
        created_at: sessions.createdAt,
        expires_at: sessions.expiresAt,
        revoked_at: sessions.revokedAt,
        user_agent: sessions.userAgent,
      })
      .from(sessions)
      .where(eq(sessions.userId, caller.userId)),
    db.select().from(auditEvents).where(eq(auditEvents.userId, caller.userId)),
  ]);
  const document: Record<string, unknown> = {
    exported_at: new Date().toISOString(),
    user: { id: user.id, email: user.email, full_name: user.fullName, created_at: user.createdAt },
    membership: membership
      ? {
          organization_id: membership.organizationId,
          role: membership.role,
          joined_at: membership.createdAt,
        }
      : null,
    sessions: sessionRows,
    audit_events: auditRows,
  };

  if (membership?.role === "owner") {
    const orgId = membership.organizationId;
    const [
      organization,
      team,
      agentRows,
      conversationRows,
      messageRows,
      sessionsRows,
      conversionRows,
      replies,
      calls,
      whatsapp,
      pixel,
    ] = await db.batch([
      db.select().from(organizations).where(eq(organizations.id, orgId)),
      db
        .select({ user_id: memberships.userId, role: memberships.role })
        .from(memberships)
        .where(eq(memberships.organizationId, orgId)),
      db.select().from(agents).where(eq(agents.organizationId, orgId)),
      db.select().from(conversations).where(eq(conversations.organizationId, orgId)),
      db.select().from(messages).where(eq(messages.organizationId, orgId)),
      db.select().from(trackingSessions).where(eq(trackingSessions.organizationId, orgId)),
      db.select().from(conversions).where(eq(conversions.organizationId, orgId)),
      db.select().from(quickReplies).where(eq(quickReplies.organizationId, orgId)),
      db.select().from(aiCalls).where(eq(aiCalls.organizationId, orgId)),
      // Connections without their secrets.
      db
        .select({
          phone_number: whatsappConnections.phoneNumber,
          phone_number_id: whatsappConnections.phoneNumberId,
          business_account_id: whatsappConnections.businessAccountId,
          status: whatsappConnections.status,
          connected_at: whatsappConnections.connectedAt,
        })
        .from(whatsappConnections)
        .where(eq(whatsappConnections.organizationId, orgId)),
      db
        .select({
          pixel_id: metaConnections.pixelId,
          status: metaConnections.status,
          created_at: metaConnections.createdAt,
        })
        .from(metaConnections)
        .where(eq(metaConnections.organizationId, orgId)),
    ]);
    document.organization = {
      ...organization[0],
      members: team,
      agents: agentRows,
      conversations: conversationRows,
      messages: messageRows,
      tracking_sessions: sessionsRows,
      conversions: conversionRows,
      quick_replies: replies,
      ai_calls: calls,
      whatsapp_connection: whatsapp[0] ?? null,
      pixel_connection: pixel[0] ?? null,
    };
  }
  await recordAudit(db, {
    action: "account.export",
    userId: caller.userId,
    organizationId: membership?.organizationId,
    ip,
  });
  return document;
}

/**
 * Deletes the account after checking the password. When the caller is the organization's
 * only owner, the organization goes too, with all its data (cascading deletes).
 */
export async function deleteAccount(db: Db, caller: Caller, password: string, ip: string | null) {
  const user = await db.query.users.findFirst({ where: eq(users.id, caller.userId) });
  if (!user) throw unauthorized();
  if (!(await verifyPassword(password, user.passwordHash))) {
    throw new AppError(422, "validation_error", "La contraseña no es correcta.", [
      { path: "password", message: "La contraseña no es correcta." },
    ]);
  }
  const membership = await db.query.memberships.findFirst({
    where: eq(memberships.userId, caller.userId),
  });
  let organizationDeleted = false;
  if (membership?.role === "owner") {
    const otherOwner = await db.query.memberships.findFirst({
      where: and(
        eq(memberships.organizationId, membership.organizationId),
        eq(memberships.role, "owner"),
        ne(memberships.userId, caller.userId),
      ),
    });
    if (!otherOwner) {
      await db.delete(organizations).where(eq(organizations.id, membership.organizationId));
      organizationDeleted = true;
    }
  }
  // Sessions go with the user (cascade): every token of the account stops working now.
  await db.delete(users).where(eq(users.id, caller.userId));
  await recordAudit(db, {
    action: "account.delete",
    organizationId: organizationDeleted ? null : membership?.organizationId,
    metadata: { organization_deleted: organizationDeleted },
    ip,
  });
  return { organization_deleted: organizationDeleted };
}
