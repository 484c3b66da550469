import { and, count, desc, eq, isNull, like, sql, type SQL } from "drizzle-orm";
import { orgBatch, type OrganizationDb } from "../db";
import { agents, conversationCounts, conversationLabels, conversations } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { conflict, notFound } from "../../worker/http/errors";
import { findConversation } from "./find";
import { afterStageChange, conversationOrigin, pendingSuggestions } from "../sales/service";
import type { z } from "zod/mini";
import {
  CONVERSATION_STATUSES,
  PRIORITIES,
  type Conversation,
  type ConversationDetail,
  type ConversationList,
  type ConversationStats,
  type conversationCreateInput,
  type conversationListQuery,
  type conversationUpdateInput,
} from "../../contracts/conversations";
import { toConversation, type ConversationRow } from "./mappers";
import { searchFilter } from "./search";
import { conversationBilling } from "./billing";
import { auditAssignment, checkAssignee } from "../team-inbox/assignment";

async function assertAgent(db: OrganizationDb, organizationId: string, agentId: string) {
  const agent = await db.query.agents.findFirst({
    where: and(eq(agents.id, agentId), eq(agents.organizationId, organizationId)),
    columns: { id: true },
  });
  if (!agent) throw notFound("Agente no encontrado.");
}

/**
 * The list's total from the stats' tallies when it is filtered on one of their dimensions
 * at most (the inbox, or one status, priority or unassigned): no count over the inbox.
 * Other combinations (two filters) are counted.
 */
function totalTally(
  status: string | undefined,
  priority: string | undefined,
  unassigned: boolean,
): SQL | null {
  const chosen = [
    status && `status:${status}`,
    priority && `priority:${priority}`,
    unassigned && "unassigned",
  ].filter((tally): tally is string => Boolean(tally));
  if (chosen.length > 1) return null;
  return chosen[0]
    ? eq(conversationCounts.tally, chosen[0])
    : like(conversationCounts.tally, "status:%");
}

/**
 * The organization's rows. With a label chosen, the unary `+` keeps SQLite (which has no
 * statistics on D1) from walking every conversation of the organization to test each against
 * the label: it starts from the label's rows instead, so the page and its count cost what the
 * label holds, not what the inbox holds.
 */
function organizationFilter(
  organizationId: string,
  { label_id }: z.output<typeof conversationListQuery>,
): SQL {
  return label_id
    ? sql`+${conversations.organizationId} = ${organizationId}`
    : eq(conversations.organizationId, organizationId);
}

/** "Mis conversaciones", a colleague's, nobody's; and one label's. */
function teamFilters(
  member: Member,
  { assignee_id, label_id }: z.output<typeof conversationListQuery>,
): SQL[] {
  const filters: SQL[] = [];
  if (assignee_id === "none") filters.push(isNull(conversations.assigneeId));
  else if (assignee_id) {
    filters.push(eq(conversations.assigneeId, assignee_id === "me" ? member.userId : assignee_id));
  }
  if (label_id) {
    filters.push(
      sql`${conversations.id} IN (SELECT ${conversationLabels.conversationId} FROM ${conversationLabels}
        WHERE ${conversationLabels.organizationId} = ${member.organizationId}
          AND ${conversationLabels.labelId} = ${label_id})`,
    );
  }
  return filters;
}

export async function listConversations(
  { orgDb }: StoreDeps,
  member: Member,
  query: z.output<typeof conversationListQuery>,
): Promise<ConversationList> {
  const search = query.search || query.q;
  const filters: SQL[] = search
    ? searchFilter(member.organizationId, search)
    : [organizationFilter(member.organizationId, query)];
  if (query.status) filters.push(eq(conversations.status, query.status));
  if (query.priority) filters.push(eq(conversations.priority, query.priority));
  if (query.stage) filters.push(eq(conversations.stage, query.stage));
  const unassigned = query.unassigned === "true" || query.agent_id === "unassigned";
  const agentId = !unassigned && query.agent_id !== "all" ? query.agent_id : undefined;
  if (unassigned) filters.push(isNull(conversations.agentId));
  if (agentId) filters.push(eq(conversations.agentId, agentId));
  filters.push(...teamFilters(member, query));
  const where = and(...filters);
  // Searches, stages, one agent's, a person's or a label's conversations have no tally:
  // those are counted.
  const counted = search || agentId || query.stage || query.assignee_id || query.label_id;
  const tally = counted ? null : totalTally(query.status, query.priority, unassigned);
  // A label alone is counted on its own rows (an index range), not on the conversations.
  const labelOnly =
    query.label_id &&
    !(search || agentId || unassigned || query.status || query.priority || query.stage) &&
    !query.assignee_id;
  const [rows, [total]] = await orgBatch(orgDb, [
    orgDb
      .select()
      .from(conversations)
      .where(where)
      .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    tally
      ? orgDb
          .select({ n: sql<number>`coalesce(sum(${conversationCounts.n}), 0)` })
          .from(conversationCounts)
          .where(and(eq(conversationCounts.organizationId, member.organizationId), tally))
      : labelOnly
        ? orgDb
            .select({ n: count() })
            .from(conversationLabels)
            .where(
              and(
                eq(conversationLabels.organizationId, member.organizationId),
                eq(conversationLabels.labelId, query.label_id!),
              ),
            )
        : orgDb.select({ n: count() }).from(conversations).where(where),
  ]);
  return {
    conversations: rows.map(toConversation),
    total: total?.n ?? 0,
    page: query.page,
    limit: query.limit,
  };
}

/** Read from the tallies the database keeps (migration 0004): a few rows at any inbox size. */
export async function conversationStats(
  { orgDb }: StoreDeps,
  member: Member,
): Promise<ConversationStats> {
  const rows = await orgDb
    .select({ tally: conversationCounts.tally, n: conversationCounts.n })
    .from(conversationCounts)
    .where(eq(conversationCounts.organizationId, member.organizationId));
  const tallies = new Map(rows.map((r) => [r.tally, r.n]));
  const tally = <K extends string>(prefix: string, keys: readonly K[]) =>
    Object.fromEntries(keys.map((k) => [k, tallies.get(`${prefix}:${k}`) ?? 0])) as Record<
      K,
      number
    >;
  const byStatus = tally("status", CONVERSATION_STATUSES);
  return {
    total: Object.values<number>(byStatus).reduce((sum, n) => sum + n, 0),
    unassigned: tallies.get("unassigned") ?? 0,
    unread: tallies.get("unread") ?? 0,
    by_status: byStatus,
    by_priority: tally("priority", PRIORITIES),
  };
}

export async function getConversation(
  { orgDb }: StoreDeps,
  member: Member,
  { id }: { id: string },
): Promise<ConversationDetail> {
  const row = await findConversation(orgDb, member.organizationId, id);
  const [suggestions, origin, billing] = await Promise.all([
    pendingSuggestions(orgDb, member.organizationId, id),
    conversationOrigin(orgDb, row),
    conversationBilling(orgDb, row),
  ]);
  return { ...toConversation(row), suggestions, origin, billing };
}

export async function createConversation(
  deps: StoreDeps,
  member: Member,
  input: z.output<typeof conversationCreateInput>,
): Promise<Conversation> {
  const { orgDb } = deps;
  if (input.agent_id) await assertAgent(orgDb, member.organizationId, input.agent_id);
  const [row] = await orgDb
    .insert(conversations)
    .values({
      organizationId: member.organizationId,
      phoneNumber: input.phone_number,
      contactName: input.contact_name || null,
      agentId: input.agent_id ?? null,
      status: input.agent_id ? "assigned" : "open",
      priority: input.priority ?? "medium",
      lastMessageAt: new Date().toISOString(),
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw conflict("Ya existe una conversación con este número.");
  const conversation = toConversation(row);
  await deps.publish({
    type: "conversation_update",
    data: { conversation },
  });
  return conversation;
}

/** Applies a change and tells every console of the organization. */
async function applyChange(
  deps: StoreDeps,
  member: Member,
  current: ConversationRow,
  change: Partial<ConversationRow>,
): Promise<Conversation> {
  const [row] = await deps.orgDb
    .update(conversations)
    .set({ ...change, updatedAt: new Date().toISOString() })
    .where(
      and(
        eq(conversations.id, current.id),
        eq(conversations.organizationId, member.organizationId),
      ),
    )
    .returning();
  const conversation = toConversation(row!);
  await deps.publish({
    type: "conversation_update",
    data: { conversation },
  });
  return conversation;
}

export async function updateConversation(
  deps: StoreDeps,
  member: Member,
  { id, changes }: { id: string; changes: z.output<typeof conversationUpdateInput> },
) {
  const current = await findConversation(deps.orgDb, member.organizationId, id);
  if (changes.agent_id) await assertAgent(deps.orgDb, member.organizationId, changes.agent_id);
  if (changes.assignee_id !== undefined) {
    await checkAssignee(deps.db, member, changes.assignee_id);
  }
  const change: Partial<ConversationRow> = {
    status: changes.status,
    priority: changes.priority,
    stage: changes.stage,
    contactName: changes.contact_name,
    assigneeId: changes.assignee_id,
  };
  if (changes.agent_id !== undefined) {
    change.agentId = changes.agent_id;
    // Assigning or unassigning moves an open/assigned conversation along, unless told otherwise.
    if (!changes.status && (current.status === "open" || current.status === "assigned")) {
      change.status = changes.agent_id ? "assigned" : "open";
    }
  }
  const conversation = await applyChange(deps, member, current, change);
  if (changes.stage) await afterStageChange(deps, { ...current, stage: changes.stage });
  if (changes.assignee_id !== undefined && changes.assignee_id !== current.assigneeId) {
    await auditAssignment(
      deps.orgDb,
      { organizationId: member.organizationId, by: member.userId, ip: member.ip },
      current.id,
      changes.assignee_id,
      "manual",
    );
  }
  return conversation;
}

export async function assignConversation(
  deps: StoreDeps,
  member: Member,
  { id, agentId }: { id: string; agentId: string },
) {
  const current = await findConversation(deps.orgDb, member.organizationId, id);
  await assertAgent(deps.orgDb, member.organizationId, agentId);
  return applyChange(deps, member, current, { agentId, status: "assigned" });
}

export async function unassignConversation(
  deps: StoreDeps,
  member: Member,
  { id }: { id: string },
) {
  const current = await findConversation(deps.orgDb, member.organizationId, id);
  return applyChange(deps, member, current, { agentId: null, status: "open" });
}

/** `GET /agents/{id}/conversations`: the conversations that agent has, newest first. */
export async function conversationsOfAgent(
  { orgDb }: StoreDeps,
  member: Member,
  { id: agentId }: { id: string },
) {
  await assertAgent(orgDb, member.organizationId, agentId);
  const rows = await orgDb
    .select()
    .from(conversations)
    .where(
      and(
        eq(conversations.organizationId, member.organizationId),
        eq(conversations.agentId, agentId),
      ),
    )
    .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
    .limit(200);
  return rows.map(toConversation);
}
