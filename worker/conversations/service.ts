import { and, count, desc, eq, isNull, like, or, sql, type SQL } from "drizzle-orm";
import type { Db } from "../db/client";
import { agents, conversations, messages } from "../db/schema";
import type { Member } from "../http/context";
import type { Deps } from "../http/deps";
import { AppError, conflict, notFound } from "../http/errors";
import { publish } from "../realtime/publish";
import type { z } from "zod";
import {
  CONVERSATION_STATUSES,
  PRIORITIES,
  type Conversation,
  type ConversationList,
  type ConversationStats,
  type conversationCreateInput,
  type conversationListQuery,
  type conversationUpdateInput,
} from "./contract";
import { toConversation, type ConversationRow } from "./mappers";

export const conversationNotFound = () => notFound("Conversación no encontrada.");

/** A conversation of the member's organization, or 404 (also for another organization's). */
export async function findConversation(db: Db, organizationId: string, id: string) {
  const row = await db.query.conversations.findFirst({
    where: and(eq(conversations.id, id), eq(conversations.organizationId, organizationId)),
  });
  if (!row) throw conversationNotFound();
  return row;
}

async function assertAgent(db: Db, organizationId: string, agentId: string) {
  const agent = await db.query.agents.findFirst({
    where: and(eq(agents.id, agentId), eq(agents.organizationId, organizationId)),
    columns: { id: true },
  });
  if (!agent) throw notFound("Agente no encontrado.");
}

function escapeLike(text: string) {
  return text.replace(/[\\%_]/g, (ch) => `\\${ch}`);
}

export async function listConversations(
  db: Db,
  member: Member,
  query: z.output<typeof conversationListQuery>,
): Promise<ConversationList> {
  const filters: SQL[] = [eq(conversations.organizationId, member.organizationId)];
  if (query.status) filters.push(eq(conversations.status, query.status));
  if (query.priority) filters.push(eq(conversations.priority, query.priority));
  if (query.unassigned === "true" || query.agent_id === "unassigned") {
    filters.push(isNull(conversations.agentId));
  } else if (query.agent_id && query.agent_id !== "all") {
    filters.push(eq(conversations.agentId, query.agent_id));
  }
  const search = query.search || query.q;
  if (search) {
    const pattern = `%${escapeLike(search)}%`;
    filters.push(
      or(
        sql`${conversations.contactName} LIKE ${pattern} ESCAPE '\\'`,
        like(conversations.phoneNumber, `%${escapeLike(search.replace(/[\s+()-]/g, ""))}%`),
        sql`EXISTS (SELECT 1 FROM ${messages} WHERE ${messages.conversationId} = ${conversations.id} AND ${messages.content} LIKE ${pattern} ESCAPE '\\')`,
      )!,
    );
  }
  const where = and(...filters);
  const [rows, [total]] = await db.batch([
    db
      .select()
      .from(conversations)
      .where(where)
      .orderBy(desc(conversations.lastMessageAt), desc(conversations.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ n: count() }).from(conversations).where(where),
  ]);
  return {
    conversations: rows.map(toConversation),
    total: total?.n ?? 0,
    page: query.page,
    limit: query.limit,
  };
}

export async function conversationStats(db: Db, member: Member): Promise<ConversationStats> {
  const countWhere = (condition: SQL) =>
    sql<number>`coalesce(sum(CASE WHEN ${condition} THEN 1 ELSE 0 END), 0)`;
  const [row] = await db
    .select({
      total: count(),
      unassigned: countWhere(sql`${conversations.agentId} IS NULL`),
      unread: countWhere(sql`${conversations.unreadCount} > 0`),
      ...Object.fromEntries(
        CONVERSATION_STATUSES.map((s) => [
          `status_${s}`,
          countWhere(sql`${conversations.status} = ${s}`),
        ]),
      ),
      ...Object.fromEntries(
        PRIORITIES.map((p) => [`priority_${p}`, countWhere(sql`${conversations.priority} = ${p}`)]),
      ),
    })
    .from(conversations)
    .where(eq(conversations.organizationId, member.organizationId));
  const values = row as unknown as Record<string, number>;
  return {
    total: values.total ?? 0,
    unassigned: values.unassigned ?? 0,
    unread: values.unread ?? 0,
    by_status: Object.fromEntries(
      CONVERSATION_STATUSES.map((s) => [s, Number(values[`status_${s}`] ?? 0)]),
    ) as ConversationStats["by_status"],
    by_priority: Object.fromEntries(
      PRIORITIES.map((p) => [p, Number(values[`priority_${p}`] ?? 0)]),
    ) as ConversationStats["by_priority"],
  };
}

export async function getConversation(db: Db, member: Member, id: string) {
  return toConversation(await findConversation(db, member.organizationId, id));
}

export async function createConversation(
  deps: Deps,
  member: Member,
  input: z.output<typeof conversationCreateInput>,
): Promise<Conversation> {
  const { db } = deps;
  if (input.agent_id) await assertAgent(db, member.organizationId, input.agent_id);
  const [row] = await db
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
  await publish(deps.env, member.organizationId, {
    type: "conversation_update",
    data: { conversation },
  });
  return conversation;
}

/** Applies a change and tells every console of the organization. */
async function applyChange(
  deps: Deps,
  member: Member,
  current: ConversationRow,
  change: Partial<ConversationRow>,
): Promise<Conversation> {
  const [row] = await deps.db
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
  await publish(deps.env, member.organizationId, {
    type: "conversation_update",
    data: { conversation },
  });
  return conversation;
}

export async function updateConversation(
  deps: Deps,
  member: Member,
  id: string,
  input: z.output<typeof conversationUpdateInput>,
) {
  const current = await findConversation(deps.db, member.organizationId, id);
  if (input.agent_id) await assertAgent(deps.db, member.organizationId, input.agent_id);
  const change: Partial<ConversationRow> = {
    status: input.status,
    priority: input.priority,
    contactName: input.contact_name,
  };
  if (input.agent_id !== undefined) {
    change.agentId = input.agent_id;
    // Assigning or unassigning moves an open/assigned conversation along, unless told otherwise.
    if (!input.status && (current.status === "open" || current.status === "assigned")) {
      change.status = input.agent_id ? "assigned" : "open";
    }
  }
  return applyChange(deps, member, current, change);
}

export async function assignConversation(deps: Deps, member: Member, id: string, agentId: string) {
  const current = await findConversation(deps.db, member.organizationId, id);
  await assertAgent(deps.db, member.organizationId, agentId);
  return applyChange(deps, member, current, { agentId, status: "assigned" });
}

export async function unassignConversation(deps: Deps, member: Member, id: string) {
  const current = await findConversation(deps.db, member.organizationId, id);
  return applyChange(deps, member, current, { agentId: null, status: "open" });
}

export async function conversationsOfAgent(db: Db, member: Member, agentId: string) {
  await assertAgent(db, member.organizationId, agentId);
  const rows = await db
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

export const windowClosed = () =>
  new AppError(
    422,
    "window_closed",
    "Han pasado más de 24 horas desde el último mensaje del cliente. WhatsApp solo permite responder con una plantilla aprobada.",
  );
