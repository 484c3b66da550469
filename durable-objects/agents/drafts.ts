/**
 * Draft mode and "Sugerir respuesta": the agent's answer waits on the conversation (`ai_draft`)
 * for a person to edit and send, or discard. Nothing of it goes to WhatsApp
 * (docs/decisions/0028).
 */
import { and, eq } from "drizzle-orm";
import { aiCallLog } from "../ai/budget";
import { aiNotConfigured, isAiConfigured, ModelError } from "../ai/client";
import type { AiDraft } from "../../contracts/conversations";
import { conversationUpdate, type ConversationRow } from "../conversations/mappers";
import { findConversation } from "../conversations/find";
import { agents, conversations } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError, conflict } from "../../worker/http/errors";
import { markLeadByAgent } from "../sales/service";
import { requireAiBudget } from "../ai/budget";
import { knowledgeForAgent } from "../knowledge/retrieval";
import { buildHistory, recentMessages } from "./history";
import { askAgent, type AgentAnswer } from "./replies";

/**
 * Stores the answer as the conversation's draft and tells the consoles (`draft_ready`), unless
 * something was said since the conversation was read: a newer customer message gets a draft of
 * its own, and after a person's reply this one would be stale. Returns the draft, or null.
 */
export async function saveDraft(
  deps: StoreDeps,
  conversation: ConversationRow,
  agentId: string,
  answer: AgentAnswer & { reply: string },
) {
  const draft: AiDraft = {
    content: answer.reply,
    agent_id: agentId,
    sources: answer.sources,
    created_at: new Date().toISOString(),
  };
  const [saved] = await deps.orgDb
    .update(conversations)
    .set({ aiDraft: draft })
    .where(
      and(
        eq(conversations.id, conversation.id),
        eq(conversations.lastMessageAt, conversation.lastMessageAt),
      ),
    )
    .returning({ id: conversations.id });
  if (!saved) return null;
  await deps.publish({
    type: "draft_ready",
    data: { conversation_id: conversation.id, draft },
  });
  return draft;
}

/**
 * The agent that drafts for a conversation: its own, else the one that answers the
 * organization's number. Asked by a person, it drafts whatever its mode or switch: those say
 * what the agent does on its own.
 */
async function draftingAgent({ orgDb, facts }: StoreDeps, conversation: ConversationRow) {
  const agentId = conversation.agentId ?? (await facts()).connection?.defaultAgentId;
  const agent = agentId
    ? await orgDb.query.agents.findFirst({
        where: and(eq(agents.id, agentId), eq(agents.organizationId, conversation.organizationId)),
      })
    : undefined;
  if (!agent) {
    throw new AppError(
      422,
      "no_agent",
      "Asigna un agente de IA a la conversación (o elige el agente del número en Configuración) para pedir una sugerencia.",
    );
  }
  return agent;
}

/** The agent has nothing to suggest (it would hand over, or said nothing): the person answers. */
const noSuggestion = (reason?: string) =>
  new AppError(
    422,
    "no_suggestion",
    `El agente no tiene una respuesta que sugerir${reason ? ` (${reason})` : ""}: respóndele tú.`,
  );

/** "Sugerir respuesta": the agent drafts an answer now; it is stored and published as well. */
export async function suggestDraft(deps: StoreDeps, member: Member, { id }: { id: string }) {
  const { orgDb, env } = deps;
  const conversation = await findConversation(orgDb, member.organizationId, id);
  const agent = await draftingAgent(deps, conversation);
  if (!isAiConfigured(env)) throw aiNotConfigured();
  const recent = await recentMessages(orgDb, conversation.id);
  if (!recent.some((m) => m.direction === "inbound" && m.type !== "reaction")) {
    throw new AppError(
      422,
      "nothing_to_answer",
      "El cliente aún no ha escrito: no hay nada que responder.",
    );
  }
  await requireAiBudget(deps, member.organizationId);
  const history = await buildHistory(deps, member.organizationId, recent);
  if ("handoff" in history) throw noSuggestion(history.handoff);
  // The store's copy of the organization's row (decision 0136): no trip to D1.
  const { organization } = await deps.facts();
  const log = aiCallLog(orgDb, {
    organizationId: member.organizationId,
    agentId: agent.id,
    conversationId: conversation.id,
    model: agent.model,
  });

  // The same knowledge an answer on WhatsApp would get.
  const knowledge = await knowledgeForAgent(orgDb, agent, history.turns);
  let answer: AgentAnswer;
  try {
    // A person sends the draft: the tools that change nothing only (decision 0109).
    answer = await askAgent(env, agent, organization!, history.turns, knowledge, {
      deps,
      organizationId: member.organizationId,
      agentId: agent.id,
      conversationId: conversation.id,
      mayAct: false,
      sentMessageIds: [],
    });
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    await log.failed(error.message);
    throw new AppError(502, "ai_error", error.message);
  }
  await log.answered("draft", answer);
  if (answer.lead) await markLeadByAgent(deps, conversation, answer.lead.reason);
  const { reply } = answer;
  if (!reply) throw noSuggestion(answer.handoff?.reason);
  const draft = await saveDraft(deps, conversation, agent.id, { ...answer, reply });
  if (!draft) {
    throw conflict("La conversación cambió mientras se preparaba la sugerencia: vuelve a pedirla.");
  }
  return draft;
}

/** Discards the conversation's draft ("Descartar"); the consoles hear the conversation change. */
export async function discardDraft(deps: StoreDeps, member: Member, { id }: { id: string }) {
  const conversation = await findConversation(deps.orgDb, member.organizationId, id);
  const [updated] = await deps.orgDb
    .update(conversations)
    .set({ aiDraft: null })
    .where(eq(conversations.id, conversation.id))
    .returning();
  await deps.publish(conversationUpdate(updated!));
}
