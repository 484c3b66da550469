/**
 * Who answers a conversation on a number shared with the WhatsApp Business app or Meta's own
 * AI (contract section 16): "Reanudar IA" after a reply from the phone, and "Devolver a la IA
 * de Meta". Taking a thread from Meta's AI needs no action: a person's message does it
 * (durable-objects/whatsapp/sender.ts).
 */
import { and, eq } from "drizzle-orm";
import { conversations } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError } from "../../worker/http/errors";
import { metaFailure } from "../meta/errors";
import { requireSender } from "../whatsapp/sender";
import type { Conversation } from "../../contracts/conversations";
import { conversationUpdate, toConversation, type ConversationRow } from "./mappers";
import { findConversation } from "./find";

/** Writes a change of who answers, and tells every console of the organization. */
async function changeHolder(
  deps: StoreDeps,
  row: ConversationRow,
  change: Pick<Partial<ConversationRow>, "aiPausedUntil" | "controlledBy">,
): Promise<Conversation> {
  const [updated] = await deps.orgDb
    .update(conversations)
    .set({ ...change, updatedAt: new Date().toISOString() })
    .where(and(eq(conversations.id, row.id), eq(conversations.organizationId, row.organizationId)))
    .returning();
  await deps.publish(conversationUpdate(updated!));
  return toConversation(updated!);
}

/** `POST /conversations/{id}/resume-ai`: the AI may answer again before the pause ends. */
export async function resumeAi(deps: StoreDeps, member: Member, { id }: { id: string }) {
  const row = await findConversation(deps.orgDb, member.organizationId, id);
  return changeHolder(deps, row, { aiPausedUntil: null });
}

const NO_ADDRESS =
  "Esta conversación no tiene teléfono ni identificador de WhatsApp: no se puede devolver a la IA de Meta.";

/**
 * `POST /conversations/{id}/return-to-meta-ai`: Meta's Business API releases the thread to
 * Meta's AI; only once Meta agreed does the conversation say so. Meta's refusal is its Spanish
 * reason (422; 502 when Meta could not be reached or failed), and nothing changes.
 */
export async function returnToMetaAi(deps: StoreDeps, member: Member, { id }: { id: string }) {
  const row = await findConversation(deps.orgDb, member.organizationId, id);
  if (!row.phoneNumber && !row.waUserId) throw new AppError(422, "no_address", NO_ADDRESS);
  const { graph, connection } = await requireSender(deps, member.organizationId);
  try {
    await graph.releaseThread(deps.env.META_BUSINESS_API_URL, connection.phoneNumberId, row);
  } catch (error) {
    throw metaFailure(error);
  }
  return changeHolder(deps, row, { controlledBy: "meta_ai" });
}
