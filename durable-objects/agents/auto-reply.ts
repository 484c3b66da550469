/**
 * The auto-reply pipeline. The webhook only schedules; the organization's Durable Object
 * runs the replies from its alarm, one at a time, so a conversation never has two answers
 * in flight, and a burst of customer messages is answered once.
 */
import { and, eq, gt, notInArray, or, sql } from "drizzle-orm";
import { isAiConfigured, ModelError } from "../ai/client";
import { awaitingTranscript, transcribeMessage } from "../ai/transcribe";
import type { MessageRow } from "../conversations/mappers";
import { agents, conversations, messages } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError } from "../../worker/http/errors";
import { conversationUpdate, isWindowOpen, toConversation } from "../conversations/mappers";
import { knowledgeForAgent } from "../knowledge/retrieval";
import { markLeadByAgent } from "../sales/service";
import { connectedSender } from "../whatsapp/connection-service";
import { sendText } from "../whatsapp/sender";
import {
  aiCallLog,
  checkAiBudget,
  CONVERSATION_AI_LIMIT_REACHED,
  takeConversationAiCall,
} from "../ai/budget";
import { saveDraft } from "./drafts";
import { buildHistory, recentMessages } from "./history";
import { autoAssign } from "../team-inbox/assignment";
import { systemNote } from "../team-inbox/notes-service";
import { askAgent } from "./replies";
import { aiHeldElsewhere } from "../whatsapp/coexistence";

/** `later`: a voice note it must read is being transcribed elsewhere; the hub asks again. */
export type ReplyOutcome = "replied" | "drafted" | "handoff" | "skipped" | "failed" | "later";

/**
 * Transcribes the voice notes the reply reads (those since the business last wrote, as
 * `buildHistory` takes them) without waiting on another path's claim: the hub runs every
 * reply of the organization, and one note must not hold them all. True when a note is still
 * being transcribed elsewhere; otherwise every note has its outcome and the history reads it
 * without waiting.
 */
async function transcribingElsewhere(
  deps: StoreDeps,
  organizationId: string,
  recent: MessageRow[],
) {
  for (const message of recent) {
    if (message.type === "reaction") continue;
    if (message.direction === "outbound") return false;
    if (message.type !== "audio" || message.direction !== "inbound") continue;
    const current = await transcribeMessage(deps, organizationId, message.id, {
      waitForOtherPath: false,
    });
    if (current && awaitingTranscript(current)) return true;
  }
  return false;
}

/**
 * Answers the conversation if an active agent should: the customer spoke last, no person
 * holds the conversation, nobody else answers it (Meta's AI, or the owner from the phone), it
 * is neither pending (with a human) nor closed, and the window is open. Someone may answer
 * while the model thinks: the answer is then dropped (`overtaken`).
 * Throws ModelError when the model failed, so the hub can retry.
 */
export async function replyToConversation(
  deps: StoreDeps,
  organizationId: string,
  conversationId: string,
): Promise<ReplyOutcome> {
  const { orgDb, env } = deps;
  const conversation = await orgDb.query.conversations.findFirst({
    where: and(
      eq(conversations.id, conversationId),
      eq(conversations.organizationId, organizationId),
    ),
  });
  if (!conversation?.agentId || !isAiConfigured(env)) return "skipped";
  if (conversation.status === "pending" || conversation.status === "closed") return "skipped";
  // A person holds it, or someone answers from the phone or Meta's AI does: the AI never
  // answers over them.
  if (conversation.assigneeId || aiHeldElsewhere(conversation)) return "skipped";
  if (!isWindowOpen(conversation)) return "skipped";
  const agent = await orgDb.query.agents.findFirst({
    where: and(eq(agents.id, conversation.agentId), eq(agents.organizationId, organizationId)),
  });
  if (!agent?.isActive || agent.mode === "off") return "skipped";
  if (!(await checkAiBudget(deps, organizationId))) return "skipped";

  const recent = await recentMessages(orgDb, conversation.id);
  const newest = recent[0];
  if (!newest || newest.direction !== "inbound") return "skipped"; // Someone already answered.

  if (await transcribingElsewhere(deps, organizationId, recent)) return "later";

  const { organization } = await deps.facts();
  const history = await buildHistory(deps, organizationId, recent);
  if ("handoff" in history) {
    await handOff(deps, organizationId, conversation.id, history.handoff);
    return "handoff";
  }

  if (!(await takeConversationAiCall(orgDb, organizationId, conversation.id))) {
    await handOff(deps, organizationId, conversation.id, CONVERSATION_AI_LIMIT_REACHED);
    return "handoff";
  }

  if (agent.mode === "auto") await showTyping(deps, organizationId, newest.wamid);
  const log = aiCallLog(orgDb, {
    organizationId,
    agentId: agent.id,
    conversationId: conversation.id,
    model: agent.model,
  });

  const knowledge = await knowledgeForAgent(orgDb, agent, history.turns);
  let answer;
  const sentMessageIds: string[] = [];
  try {
    // It acts only when it answers by itself: a draft's words are a person's to send.
    answer = await askAgent(env, agent, organization!, history.turns, knowledge, {
      deps,
      organizationId,
      agentId: agent.id,
      conversationId: conversation.id,
      mayAct: agent.mode === "auto",
      sentMessageIds,
    });
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    await log.failed(error.message);
    await setAiError(deps, conversation.id, organizationId, error.message);
    throw error;
  }
  await log.answered(answer.handoff ? "handoff" : "replied", answer);

  // The lead first: a reply that fails to send does not undo what the customer showed.
  if (answer.lead) await markLeadByAgent(deps, conversation, answer.lead.reason);
  if (await overtaken(deps, conversation.id, newest, sentMessageIds)) return "skipped";
  if (answer.reply && agent.mode === "draft") {
    await saveDraft(deps, conversation, agent.id, { ...answer, reply: answer.reply });
  } else if (answer.reply) {
    try {
      await sendText(deps, conversation, {
        content: answer.reply,
        senderType: "bot",
        aiSources: answer.sources,
      });
    } catch (error) {
      if (!(error instanceof AppError)) throw error; // window closed meanwhile: stay silent
    }
  }
  if (answer.handoff) {
    await handOff(deps, organizationId, conversation.id, answer.handoff.reason);
    return "handoff";
  }
  await setAiError(deps, conversation.id, organizationId, null);
  if (!answer.reply) return "skipped";
  return agent.mode === "draft" ? "drafted" : "replied";
}

/**
 * Someone answered while the model was thinking (the race of contract section 16): the owner
 * from the phone (the AI is paused), Meta's AI took the thread, a person took the
 * conversation, or any newer outbound message but those its own tools sent (`sentByTools`). The
 * answer is then neither sent nor drafted.
 */
async function overtaken(
  deps: StoreDeps,
  conversationId: string,
  answering: MessageRow,
  sentByTools: string[],
) {
  const now = await deps.orgDb.query.conversations.findFirst({
    where: eq(conversations.id, conversationId),
  });
  if (!now || now.assigneeId || aiHeldElsewhere(now)) return true;
  const newer = await deps.orgDb.query.messages.findFirst({
    where: and(
      eq(messages.conversationId, conversationId),
      eq(messages.direction, "outbound"),
      or(
        gt(messages.createdAt, answering.createdAt),
        and(eq(messages.createdAt, answering.createdAt), gt(messages.id, answering.id)),
      ),
      sentByTools.length ? notInArray(messages.id, sentByTools) : undefined,
    ),
    columns: { id: true },
  });
  return newer !== undefined;
}

/**
 * The conversation goes to the team: pending, priority at least high, AI silent there. The
 * thread says so in an internal note, and round robin (when chosen) gives it to a person.
 * Pending first: it is what makes a try after a failure here skip the conversation, rather than
 * ask the model again and write a second note.
 */
async function handOff(
  deps: StoreDeps,
  organizationId: string,
  conversationId: string,
  reason: string,
) {
  const [updated] = await deps.orgDb
    .update(conversations)
    .set({
      status: "pending",
      priority: sql`CASE WHEN ${conversations.priority} = 'urgent' THEN 'urgent' ELSE 'high' END`,
      aiError: null,
      updatedAt: new Date().toISOString(),
    })
    .where(eq(conversations.id, conversationId))
    .returning();
  await systemNote(
    deps,
    organizationId,
    conversationId,
    `La IA pasó la conversación al equipo: ${reason}`,
  );
  await deps.publish({
    type: "conversation_update",
    data: { conversation: toConversation(updated!), handoff: { reason } },
  });
  await autoAssign(deps, organizationId, conversationId);
}

/** What the conversation shows when a reply failed every try for a reason not the model's. */
export const REPLY_FAILED = "Error interno al preparar la respuesta.";

/** A reply given up after its last try: the conversation says so (`ai_error`). */
export const replyAbandoned = (deps: StoreDeps, organizationId: string, conversationId: string) =>
  setAiError(deps, conversationId, organizationId, REPLY_FAILED);

async function setAiError(
  deps: StoreDeps,
  conversationId: string,
  organizationId: string,
  error: string | null,
) {
  const [row] = await deps.orgDb
    .update(conversations)
    .set({ aiError: error })
    .where(eq(conversations.id, conversationId))
    .returning();
  if (row && error) {
    await deps.publish(conversationUpdate(row));
  }
}

/** WhatsApp's typing indicator while the agent prepares its answer (best effort). */
async function showTyping(deps: StoreDeps, organizationId: string, wamid: string | null) {
  if (!wamid) return;
  try {
    const sender = await connectedSender(deps, organizationId);
    await sender?.graph.markRead(sender.connection.phoneNumberId, wamid, true);
  } catch (error) {
    console.warn("typing indicator failed", error);
  }
}
