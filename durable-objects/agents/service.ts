import { and, count, desc, eq, sql, sum } from "drizzle-orm";
import { recordAudit } from "../audit/service";
import { aiCallLog, readAiUsage } from "../ai/budget";
import { isAiConfigured, aiNotConfigured, ModelError } from "../ai/client";
import { orgBatch, type OrganizationDb } from "../db";
import { whatsappConnections } from "../../worker/db/global-schema";
import { agents, aiCalls, conversations } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError, notFound } from "../../worker/http/errors";
import type { z } from "zod/mini";
import type {
  Agent,
  AgentTestReply,
  agentCreateInput,
  agentTestInput,
  agentUpdateInput,
  agentWhatsappInput,
} from "../../contracts/agents";
import { requireAiBudget } from "../ai/budget";
import { checkedKnowledgeIds } from "../knowledge/service";
import { knowledgeForAgent } from "../knowledge/retrieval";
import { askAgent } from "./replies";

type AgentRow = typeof agents.$inferSelect;

export interface AgentUsage {
  calls: number;
  failures: number;
  prompt_tokens: number;
  completion_tokens: number;
}

/** The organization's WhatsApp number (at most one): its status and the agent that answers it. */
type WhatsappNumber = Pick<typeof whatsappConnections.$inferSelect, "status" | "defaultAgentId">;

/** The number, from the store's copy of its organization's facts (decision 0136): no trip to D1. */
const whatsappNumberOf = async ({ facts }: StoreDeps): Promise<WhatsappNumber | undefined> =>
  (await facts()).connection ?? undefined;

/**
 * An agent is on WhatsApp when it answers the organization's number, i.e. it is the number's
 * default agent: then it shares the number's status. The stored `whatsapp_status` (written
 * only by `PATCH /agents/{id}/whatsapp`) says nothing about that (docs/decisions/0023).
 */
const whatsappStatusOf = (agentId: string, number: WhatsappNumber | undefined) =>
  number?.defaultAgentId === agentId ? number.status : "disconnected";

export const toAgent = (
  row: AgentRow,
  number: WhatsappNumber | undefined,
  usage?: AgentUsage,
): Agent & { usage?: AgentUsage } => ({
  id: row.id,
  name: row.name,
  model: row.model,
  temperature: row.temperature,
  system_prompt: row.systemPrompt,
  is_active: row.isActive,
  can_mark_leads: row.canMarkLeads,
  can_book: row.canBook,
  can_charge: row.canCharge,
  mode: row.mode,
  whatsapp_status: whatsappStatusOf(row.id, number),
  whatsapp_qr: row.whatsappQr,
  knowledge_ids: row.knowledgeIds ?? null,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
  ...(usage && { usage }),
});

const agentNotFound = () => notFound("Agente no encontrado.");

export async function findAgent(db: OrganizationDb, organizationId: string, id: string) {
  const row = await db.query.agents.findFirst({
    where: and(eq(agents.id, id), eq(agents.organizationId, organizationId)),
  });
  if (!row) throw agentNotFound();
  return row;
}

/** An agent as the API shows it, with its WhatsApp status read now. */
async function agentView(deps: StoreDeps, row: AgentRow) {
  return toAgent(row, await whatsappNumberOf(deps));
}

/** The organization's agents and their model calls' totals per agent, read together. */
function orgAgentsWithUsage(orgDb: OrganizationDb, organizationId: string) {
  return orgBatch(orgDb, [
    orgDb
      .select()
      .from(agents)
      .where(eq(agents.organizationId, organizationId))
      .orderBy(desc(agents.createdAt), desc(agents.id)),
    orgDb
      .select({
        agentId: aiCalls.agentId,
        calls: count(),
        failures: sql<number>`coalesce(sum(CASE WHEN ${aiCalls.outcome} = 'failed' THEN 1 ELSE 0 END), 0)`,
        promptTokens: sum(aiCalls.promptTokens),
        completionTokens: sum(aiCalls.completionTokens),
      })
      .from(aiCalls)
      .where(eq(aiCalls.organizationId, organizationId))
      .groupBy(aiCalls.agentId),
  ]);
}

/**
 * The organization's agents, newest first, each with its model usage totals (its data), and
 * the number they may answer (global).
 */
export async function listAgents(deps: StoreDeps, member: Member) {
  const [[rows, usage], number] = await Promise.all([
    orgAgentsWithUsage(deps.orgDb, member.organizationId),
    whatsappNumberOf(deps),
  ]);
  const byAgent = new Map(usage.map((u) => [u.agentId, u]));
  return rows.map((row) => {
    const u = byAgent.get(row.id);
    return toAgent(row, number, {
      calls: u?.calls ?? 0,
      failures: Number(u?.failures ?? 0),
      prompt_tokens: Number(u?.promptTokens ?? 0),
      completion_tokens: Number(u?.completionTokens ?? 0),
    });
  });
}

export async function getAgent(deps: StoreDeps, member: Member, { id }: { id: string }) {
  return agentView(deps, await findAgent(deps.orgDb, member.organizationId, id));
}

/** `GET /agents/usage`: the organization's model use this month, against its budget. */
export const aiUsage = (deps: StoreDeps, member: Member) =>
  readAiUsage(deps, member.organizationId);

export async function createAgent(
  deps: StoreDeps,
  member: Member,
  input: z.output<typeof agentCreateInput>,
) {
  const { orgDb } = deps;
  const knowledgeIds = await checkedKnowledgeIds(orgDb, member.organizationId, input.knowledge_ids);
  const [row] = await orgDb
    .insert(agents)
    .values({
      organizationId: member.organizationId,
      name: input.name,
      systemPrompt: input.system_prompt,
      model: input.model,
      temperature: input.temperature,
      isActive: input.is_active,
      canMarkLeads: input.can_mark_leads,
      canBook: input.can_book,
      canCharge: input.can_charge,
      mode: input.mode,
      knowledgeIds,
    })
    .returning();
  return agentView(deps, row!);
}

export async function updateAgent(
  deps: StoreDeps,
  member: Member,
  { id, changes }: { id: string; changes: z.output<typeof agentUpdateInput> },
) {
  const { orgDb } = deps;
  await findAgent(orgDb, member.organizationId, id);
  const knowledgeIds = await checkedKnowledgeIds(
    orgDb,
    member.organizationId,
    changes.knowledge_ids,
  );
  const [row] = await orgDb
    .update(agents)
    .set({
      name: changes.name,
      systemPrompt: changes.system_prompt,
      model: changes.model,
      temperature: changes.temperature,
      isActive: changes.is_active,
      canMarkLeads: changes.can_mark_leads,
      canBook: changes.can_book,
      canCharge: changes.can_charge,
      mode: changes.mode,
      knowledgeIds,
      updatedAt: new Date().toISOString(),
    })
    .where(and(eq(agents.id, id), eq(agents.organizationId, member.organizationId)))
    .returning();
  return agentView(deps, row!);
}

export async function updateAgentWhatsapp(
  deps: StoreDeps,
  member: Member,
  { id, changes }: { id: string; changes: z.output<typeof agentWhatsappInput> },
) {
  const { orgDb } = deps;
  await findAgent(orgDb, member.organizationId, id);
  const [row] = await orgDb
    .update(agents)
    .set({
      whatsappStatus: changes.status,
      whatsappQr: changes.qr ?? null,
      updatedAt: new Date().toISOString(),
    })
    .where(and(eq(agents.id, id), eq(agents.organizationId, member.organizationId)))
    .returning();
  return agentView(deps, row!);
}

/** Deletes the agent; the conversations it had become unassigned and open again. */
export async function deleteAgent(
  { db, orgDb, factsChanged }: StoreDeps,
  member: Member,
  { id }: { id: string },
) {
  const agent = await findAgent(orgDb, member.organizationId, id);
  // The number stops naming it first (D1 has no foreign key to the organization's agents): a
  // failure between leaves a number without a default agent, never one naming a deleted agent,
  // which new conversations could not be given.
  await db
    .update(whatsappConnections)
    .set({ defaultAgentId: null, updatedAt: new Date().toISOString() })
    .where(
      and(
        eq(whatsappConnections.organizationId, member.organizationId),
        eq(whatsappConnections.defaultAgentId, id),
      ),
    );
  await factsChanged();
  await orgBatch(orgDb, [
    orgDb
      .update(conversations)
      .set({ agentId: null, status: "open", updatedAt: new Date().toISOString() })
      .where(
        and(
          eq(conversations.organizationId, member.organizationId),
          eq(conversations.agentId, id),
          eq(conversations.status, "assigned"),
        ),
      ),
    orgDb
      .delete(agents)
      .where(and(eq(agents.id, id), eq(agents.organizationId, member.organizationId))),
  ]);
  await recordAudit(orgDb, {
    action: "agent.delete",
    organizationId: member.organizationId,
    userId: member.userId,
    target: agent.name,
    ip: member.ip,
  });
}

/** The sandbox: the agent answers a transcript written by the team, without WhatsApp. */
export async function testAgent(
  deps: StoreDeps,
  member: Member,
  { id, transcript }: { id: string; transcript: z.output<typeof agentTestInput> },
): Promise<AgentTestReply> {
  const { orgDb, env } = deps;
  const agent = await findAgent(orgDb, member.organizationId, id);
  if (!isAiConfigured(env)) throw aiNotConfigured();
  await requireAiBudget(deps, member.organizationId);
  const { organization } = await deps.facts();
  // The same knowledge WhatsApp answers would get.
  const knowledge = await knowledgeForAgent(orgDb, agent, transcript.messages);
  const log = aiCallLog(orgDb, {
    organizationId: member.organizationId,
    agentId: agent.id,
    model: agent.model,
  });
  try {
    const answer = await askAgent(env, agent, organization!, transcript.messages, knowledge);
    await log.answered("test", answer);
    return {
      reply: answer.reply ?? "",
      handoff: answer.handoff,
      lead: answer.lead,
      sources: answer.sources,
    };
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    await log.failed(error.message);
    throw new AppError(502, "ai_error", error.message);
  }
}
