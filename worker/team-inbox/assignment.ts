/**
 * Who holds a conversation: a person picked by a member, or the next available member by
 * round robin (docs/decisions/0039). While a person holds it the AI stays silent there.
 * Every assignment is audited and announced as a `conversation_update`.
 */
import { and, eq, sql } from "drizzle-orm";
import type { BatchItem } from "drizzle-orm/batch";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { auditEachRow, recordAudit } from "../audit/service";
import type { Db } from "../db/client";
import { conversations, memberships, mentions, organizations } from "../db/schema";
import type { Member } from "../http/context";
import type { Deps } from "../http/deps";
import { memberNotFound } from "../organizations/errors";
import { conversationUpdate, type ConversationRow } from "../conversations/mappers";
import { publish } from "../realtime/publish";

/** A member of the organization (a user of another organization is 404). */
export async function assertMemberOf(db: Db, organizationId: string, userId: string) {
  const found = await db.query.memberships.findFirst({
    where: and(eq(memberships.organizationId, organizationId), eq(memberships.userId, userId)),
    columns: { id: true },
  });
  if (!found) throw memberNotFound();
}

/** What an assignment changed, for the audit trail. */
export const auditAssignment = (
  db: Db,
  entry: { organizationId: string; by: string | null; ip?: string | null },
  conversationId: string,
  assigneeId: string | null,
  how: "manual" | "round_robin",
) =>
  recordAudit(db, {
    action: "conversation.assign",
    organizationId: entry.organizationId,
    userId: entry.by,
    target: conversationId,
    metadata: { assignee_id: assigneeId, how },
    ip: entry.ip ?? null,
  });

/** A member's open conversations: what round robin balances and capacity limits. */
const openConversationsOf = (organizationId: string) => sql`(
  SELECT count(*) FROM ${conversations} AS held
  WHERE held.organization_id = ${organizationId} AND held.assignee_id = m.user_id
    AND held.status <> 'closed')`;

/**
 * Round robin, when the organization chose it: the conversation (if nobody holds it) goes to
 * the available member with the fewest open conversations, skipping those at capacity, ties
 * to who waited longest. One statement picks and assigns, so two handoffs at once cannot
 * both take a member's last free place. Nobody available leaves it unassigned. Returns the
 * conversation as it is now when someone got it, else null.
 */
export async function autoAssign(
  deps: Deps,
  organizationId: string,
  conversationId: string,
): Promise<ConversationRow | null> {
  const { db } = deps;
  const organization = await db.query.organizations.findFirst({
    where: eq(organizations.id, organizationId),
    columns: { autoAssign: true },
  });
  if (organization?.autoAssign !== "round_robin") return null;
  const now = new Date().toISOString();
  const open = openConversationsOf(organizationId);
  const [[assigned]] = await db.batch([
    db
      .update(conversations)
      .set({
        assigneeId: sql`(
          SELECT m.user_id FROM ${memberships} AS m
          WHERE m.organization_id = ${organizationId} AND m.available = 1
            AND (m.max_open IS NULL OR ${open} < m.max_open)
          ORDER BY ${open}, coalesce(m.last_assigned_at, ''), m.created_at
          LIMIT 1)`,
        updatedAt: now,
      })
      .where(
        and(
          eq(conversations.id, conversationId),
          eq(conversations.organizationId, organizationId),
          sql`${conversations.assigneeId} IS NULL`,
        ),
      )
      .returning(),
    // The member just given one waits longest next time.
    db
      .update(memberships)
      .set({ lastAssignedAt: now })
      .where(
        and(
          eq(memberships.organizationId, organizationId),
          sql`${memberships.userId} = (
            SELECT assignee_id FROM ${conversations}
            WHERE id = ${conversationId} AND updated_at = ${now})`,
        ),
      ),
  ]);
  if (!assigned?.assigneeId) return null;
  await auditAssignment(
    db,
    { organizationId, by: null },
    conversationId,
    assigned.assigneeId,
    "round_robin",
  );
  await publish(deps.env, organizationId, conversationUpdate(assigned));
  return assigned;
}

/**
 * A person who leaves holds nothing any more: removed from the organization
 * (`member_removed`, only there) or with their account deleted (`account_deleted`, wherever
 * they held something). Their conversations go back to "Sin asignar" (so the AI may answer
 * there again and the team sees them) and their mentions go, in one D1 batch with `removal`,
 * the statements that remove the person: never gone while still holding work, never a
 * release without its audit. Each conversation's entry comes from the conversation itself
 * (INSERT ... SELECT, before the release), and each is announced to its organization.
 */
export async function releaseOnLeaving(
  deps: Deps,
  leaving: {
    userId: string;
    how: "member_removed" | "account_deleted";
    /** The organization they are removed from; null: every one (their account goes). */
    organizationId: string | null;
    /** Who removed them, and from where; null when the person deleted their own account. */
    by: string | null;
    ip: string | null;
  },
  removal: { before?: BatchItem<"sqlite">[]; after: BatchItem<"sqlite">[] },
) {
  const { db } = deps;
  const before = removal.before ?? [];
  const where = (organizationColumn: SQLiteColumn, userColumn: SQLiteColumn) =>
    and(
      eq(userColumn, leaving.userId),
      leaving.organizationId === null ? undefined : eq(organizationColumn, leaving.organizationId),
    );
  const held = where(conversations.organizationId, conversations.assigneeId);
  const statements = [
    ...before,
    auditEachRow(
      db,
      {
        action: "conversation.assign",
        userId: leaving.by,
        metadata: { assignee_id: null, how: leaving.how },
        ip: leaving.ip,
      },
      {
        from: conversations,
        organizationId: conversations.organizationId,
        target: conversations.id,
        where: held,
      },
    ),
    db
      .update(conversations)
      .set({ assigneeId: null, updatedAt: new Date().toISOString() })
      .where(held)
      .returning(),
    db.delete(mentions).where(where(mentions.organizationId, mentions.userId)),
    ...removal.after,
  ];
  const results = await db.batch(statements as [BatchItem<"sqlite">, ...BatchItem<"sqlite">[]]);
  const released = results[before.length + 1] as ConversationRow[];
  for (const organizationId of new Set(released.map((c) => c.organizationId))) {
    const theirs = released.filter((c) => c.organizationId === organizationId);
    await publish(deps.env, organizationId, ...theirs.map(conversationUpdate));
  }
}

/** A member's choice of who holds the conversation ("Sin asignar": null). */
export async function checkAssignee(db: Db, member: Member, assigneeId: string | null) {
  if (assigneeId !== null) await assertMemberOf(db, member.organizationId, assigneeId);
}
