import { and, eq } from "drizzle-orm";
import { conversations, messages } from "../db/schema";
import type { Deps } from "../http/deps";
import {
  isWindowOpen,
  preview,
  toConversation,
  toMessage,
  type ConversationRow,
} from "../conversations/mappers";
import { windowClosed } from "../conversations/service";
import { publish } from "../realtime/publish";
import { connectedSender } from "./connection-service";
import { GraphError } from "./graph";

export interface OutboundText {
  content: string;
  senderType: "agent" | "bot";
  senderUserId?: string | null;
}

const NOT_CONNECTED =
  "WhatsApp no está conectado. Conéctalo en Configuración > Meta Business para enviar mensajes.";

/**
 * Sends a free-form text to the customer. Refused (422, nothing stored) outside the 24-hour
 * window. Otherwise the message is stored first, so it is never lost, then handed to
 * WhatsApp; its status ends `sent` (with the wamid) or `failed` (with Meta's reason).
 */
export async function sendText(deps: Deps, conversation: ConversationRow, outbound: OutboundText) {
  if (!isWindowOpen(conversation)) throw windowClosed();
  const { db } = deps;
  const organizationId = conversation.organizationId;
  const now = new Date().toISOString();
  const [[stored], [updatedConversation]] = await db.batch([
    db
      .insert(messages)
      .values({
        organizationId,
        conversationId: conversation.id,
        content: outbound.content,
        type: "text",
        direction: "outbound",
        senderType: outbound.senderType,
        senderUserId: outbound.senderUserId ?? null,
        status: "pending",
        createdAt: now,
      })
      .returning(),
    db
      .update(conversations)
      .set({ lastMessageAt: now, lastMessagePreview: preview(outbound.content), updatedAt: now })
      .where(eq(conversations.id, conversation.id))
      .returning(),
  ]);

  const result = await deliver(deps, organizationId, conversation.phoneNumber, outbound.content);
  const [message] = await db
    .update(messages)
    .set(result)
    .where(and(eq(messages.id, stored!.id), eq(messages.organizationId, organizationId)))
    .returning();

  const payload = {
    message: toMessage(message!),
    conversation: toConversation(updatedConversation!),
  };
  await publish(deps.env, organizationId, { type: "message_sent", data: payload });
  return payload.message;
}

async function deliver(deps: Deps, organizationId: string, to: string, body: string) {
  const sender = await connectedSender(deps, organizationId);
  if (!sender)
    return { status: "failed" as const, error: NOT_CONNECTED, errorCode: "not_connected" };
  try {
    const answer = await sender.graph.sendText(sender.connection.phoneNumberId, to, body);
    return { status: "sent" as const, wamid: answer.messages[0]?.id ?? null };
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    return {
      status: "failed" as const,
      error: error.message,
      errorCode: String(error.code ?? error.status),
    };
  }
}
