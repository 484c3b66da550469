/**
 * Who holds a conversation: a person picked by a member, or the next available member by
 * round robin (docs/decisions/0039). While a person holds it the AI stays silent there.
 * Every assignment is audited and announced as a `conversation_update`.
 */
import { and, count, eq, isNotNull, isNull, ne, sql } from "drizzle-orm";
import { auditEachRow, recordAudit } from "../audit/service";
import type { Db } from "../../worker/db/client";
import { orgBatch, type OrganizationDb } from "../db";
import { memberships } from "../../worker/db/global-schema";
import { conversations, mentions } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { memberNotFound } from "../../worker/organizations/errors";
import { conversationUpdate, type ConversationRow } from "../conversations/mappers";

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
  db: OrganizationDb,
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
const openConversationsOf = (organizationId: string, userId: string) => sql`(
  SELECT count(*) FROM ${conversations} AS held
  WHERE held.organization_id = ${organizationId} AND held.assignee_id = ${userId}
    AND held.status <> 'closed')`;

/** Text in SQL's order (bytes), not the locale's. */
const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Who round robin gives a conversation now, or null: of the available members (D1), those
 * under their capacity, with the fewest open conversations (the organization's data), ties to
 * who waited longest. With their open conversations as counted, which the assignment checks.
 */
async function nextInTurn({ db, orgDb }: StoreDeps, organizationId: string) {
  const [members, held] = await Promise.all([
    db
      .select({
        userId: memberships.userId,
        maxOpen: memberships.maxOpen,
        lastAssignedAt: memberships.lastAssignedAt,
        createdAt: memberships.createdAt,
      })
      .from(memberships)
      .where(and(eq(memberships.organizationId, organizationId), eq(memberships.available, true))),
    orgDb
      .select({ userId: conversations.assigneeId, n: count() })
      .from(conversations)
      .where(
        and(
          eq(conversations.organizationId, organizationId),
          isNotNull(conversations.assigneeId),
          ne(conversations.status, "closed"),
        ),
      )
      .groupBy(conversations.assigneeId),
  ]);
  const open = new Map(held.map((h) => [h.userId, h.n]));
  const [first] = members
    .map((m) => ({ ...m, open: open.get(m.userId) ?? 0 }))
    .filter((m) => m.maxOpen === null || m.open < m.maxOpen)
    .sort(
      (a, b) =>
        a.open - b.open ||
        byText(a.lastAssignedAt ?? "", b.lastAssignedAt ?? "") ||
        byText(a.createdAt, b.createdAt),
    );
  return first ?? null;
}

/**
 * How many times round robin picks again after another handoff took the chosen member's place
 * first (each retry means one did); past that the conversation waits unassigned, as when
 * nobody is available.
 */
const ASSIGN_ATTEMPTS = 10;

/**
 * Round robin, when the organization chose it: the conversation (if nobody holds it) goes to
 * the available member with the fewest open conversations, skipping those at capacity, ties
 * to who waited longest. The assignment holds only if that member's open conversations are
 * still those counted, so two handoffs at once cannot both take a member's last free place:
 * the second picks again. Nobody available leaves it unassigned. Returns the conversation as
 * it is now when someone got it, else null.
 */
export async function autoAssign(
  deps: StoreDeps,
  organizationId: string,
  conversationId: string,
): Promise<ConversationRow | null> {
  const { organization } = await deps.facts();
  if (organization?.autoAssign !== "round_robin") return null;
  const thisOne = and(
    eq(conversations.id, conversationId),
    eq(conversations.organizationId, organizationId),
  );
  for (let attempt = 0; attempt < ASSIGN_ATTEMPTS; attempt++) {
    const chosen = await nextInTurn(deps, organizationId);
    const now = new Date().toISOString();
    const [row] = await deps.orgDb
      .update(conversations)
      .set({ assigneeId: chosen?.userId ?? null, updatedAt: now })
      .where(
        and(
          thisOne,
          isNull(conversations.assigneeId),
          chosen
            ? sql`${openConversationsOf(organizationId, chosen.userId)} = ${chosen.open}`
            : undefined,
        ),
      )
      .returning();
    if (row) return row.assigneeId ? afterRoundRobin(deps, row, now) : null;
    if (!chosen) return null;
    const current = await deps.orgDb.query.conversations.findFirst({
      where: thisOne,
      columns: { assigneeId: true },
    });
    if (current?.assigneeId !== null) return null;
  }
  return null;
}

/** After round robin gave the conversation: the member's turn, the audit, the consoles. */
async function afterRoundRobin(deps: StoreDeps, assigned: ConversationRow, now: string) {
  const { organizationId } = assigned;
  // The member waits longest next time. Written after the assignment it follows from: a
  // failure between only leaves them their place in the queue.
  await deps.db
    .update(memberships)
    .set({ lastAssignedAt: now })
    .where(
      and(
        eq(memberships.organizationId, organizationId),
        eq(memberships.userId, assigned.assigneeId!),
      ),
    );
  await auditAssignment(
    deps.orgDb,
    { organizationId, by: null },
    assigned.id,
    assigned.assigneeId,
    "round_robin",
  );
  await deps.publish(conversationUpdate(assigned));
  return assigned;
}

/** Who leaves, how, and who made them leave. */
export interface Leaving {
  userId: string;
  how: "member_removed" | "account_deleted";
  /** Who removed them; null when the person deleted their own account. */
  by: string | null;
  ip: string | null;
}

/**
 * A person who leaves holds nothing any more in the organization: removed from it
 * (`member_removed`) or with their account deleted (`account_deleted`). Their conversations go
 * back to "Sin asignar" (so the AI may answer there again and the team sees them) and their
 * mentions go, all or nothing, never a release without its audit: each conversation's entry
 * comes from the conversation itself (INSERT ... SELECT, before the release), and each released
 * one is announced. The organization's part only: the caller removes the person afterwards, so
 * that a failure between leaves someone who holds nothing (the removal can be asked again),
 * never someone gone who still holds work.
 */
export async function releaseOnLeaving(
  { orgDb, publish }: StoreDeps,
  organizationId: string,
  leaving: Leaving,
) {
  const held = and(
    eq(conversations.organizationId, organizationId),
    eq(conversations.assigneeId, leaving.userId),
  );
  const [, released] = await orgBatch(orgDb, [
    auditEachRow(
      orgDb,
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
    orgDb
      .update(conversations)
      .set({ assigneeId: null, updatedAt: new Date().toISOString() })
      .where(held)
      .returning(),
    orgDb
      .delete(mentions)
      .where(and(eq(mentions.organizationId, organizationId), eq(mentions.userId, leaving.userId))),
  ]);
  await publish(...released.map(conversationUpdate));
}

/** A member's choice of who holds the conversation ("Sin asignar": null). */
export async function checkAssignee(db: Db, member: Member, assigneeId: string | null) {
  if (assigneeId !== null) await assertMemberOf(db, member.organizationId, assigneeId);
}
