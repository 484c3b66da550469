import { and, eq } from "drizzle-orm";
import { conversations, messages } from "../db/schema";
import type { Deps } from "../http/deps";
import { AppError } from "../http/errors";
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
import { GraphError, type GraphClient } from "./graph";

type Sender = NonNullable<Awaited<ReturnType<typeof connectedSender>>>;

/** A message from the business to the customer. */
export interface Outbound {
  /** WhatsApp's message type: text, template, image, document, audio, video. */
  type: string;
  /** What the team sees in the conversation (the caption or a placeholder for media). */
  content: string;
  senderType: "agent" | "bot";
  senderUserId?: string | null;
  mediaMimeType?: string | null;
  /** Templates may be sent whatever the window; everything else needs it open. */
  anyTime?: boolean;
  /** The call(s) to WhatsApp, made once the message is stored; answers the wamid and media id. */
  deliver: (
    graph: GraphClient,
    phoneNumberId: string,
  ) => Promise<{
    wamid: string | null;
    mediaId?: string;
  }>;
}

const NOT_CONNECTED =
  "WhatsApp no está conectado. Conéctalo en Configuración > Meta Business para enviar mensajes.";

/**
 * Sends a message to the customer. Free-form messages are refused (422, nothing stored)
 * outside the 24-hour window. Otherwise the message is stored first, so it is never lost,
 * then handed to WhatsApp; its status ends `sent` (with the wamid) or `failed` (with Meta's
 * reason).
 */
export async function sendOutbound(deps: Deps, conversation: ConversationRow, outbound: Outbound) {
  if (!outbound.anyTime && !isWindowOpen(conversation)) throw windowClosed();
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
        type: outbound.type,
        direction: "outbound",
        senderType: outbound.senderType,
        senderUserId: outbound.senderUserId ?? null,
        mediaMimeType: outbound.mediaMimeType ?? null,
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

  const result = await deliverWith(await connectedSender(deps, organizationId), outbound);
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

async function deliverWith(sender: Sender | null, outbound: Outbound) {
  if (!sender)
    return { status: "failed" as const, error: NOT_CONNECTED, errorCode: "not_connected" };
  try {
    const { wamid, mediaId } = await outbound.deliver(
      sender.graph,
      sender.connection.phoneNumberId,
    );
    return { status: "sent" as const, wamid, ...(mediaId && { mediaId }) };
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    return {
      status: "failed" as const,
      error: error.message,
      errorCode: String(error.code ?? error.status),
    };
  }
}

/** A free-form text: a team member's reply or the AI's. */
export function sendText(
  deps: Deps,
  conversation: ConversationRow,
  text: { content: string; senderType: "agent" | "bot"; senderUserId?: string | null },
) {
  return sendOutbound(deps, conversation, {
    ...text,
    type: "text",
    deliver: async (graph, phoneNumberId) => {
      const answer = await graph.sendText(phoneNumberId, conversation.phoneNumber, text.content);
      return { wamid: answer.messages[0]?.id ?? null };
    },
  });
}

/** Meta's connected sender of the organization, for calls that are not messages. */
export async function requireSender(deps: Deps, organizationId: string) {
  const sender = await connectedSender(deps, organizationId);
  if (!sender) throw new AppError(422, "not_connected", NOT_CONNECTED);
  return sender;
}
