import { and, count, desc, eq, lt, or } from "drizzle-orm";
import type { Db } from "../db/client";
import { conversations, messages } from "../db/schema";
import type { Member } from "../http/context";
import type { Deps } from "../http/deps";
import { notFound } from "../http/errors";
import { publish } from "../realtime/publish";
import { connectedSender } from "../whatsapp/connection-service";
import { sendText } from "../whatsapp/sender";
import type { z } from "zod";
import type { MessagePage, messagesQuery, sendMessageInput } from "./contract";
import { toConversation, toMessage } from "./mappers";
import { findConversation } from "./service";

/** One page of messages, oldest first; `before` pages back from a message of the conversation. */
export async function listMessages(
  db: Db,
  member: Member,
  conversationId: string,
  query: z.output<typeof messagesQuery>,
): Promise<MessagePage> {
  const conversation = await findConversation(db, member.organizationId, conversationId);
  const inConversation = eq(messages.conversationId, conversation.id);
  let where = inConversation;
  if (query.before) {
    const anchor = await db.query.messages.findFirst({
      where: and(eq(messages.id, query.before), inConversation),
      columns: { id: true, createdAt: true },
    });
    if (!anchor) throw notFound("Mensaje no encontrado.");
    where = and(
      inConversation,
      or(
        lt(messages.createdAt, anchor.createdAt),
        and(eq(messages.createdAt, anchor.createdAt), lt(messages.id, anchor.id)),
      ),
    )!;
  }
  const [rows, [total]] = await db.batch([
    db
      .select()
      .from(messages)
      .where(where)
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(query.limit + 1),
    db.select({ n: count() }).from(messages).where(inConversation),
  ]);
  const hasMore = rows.length > query.limit;
  return {
    messages: rows.slice(0, query.limit).reverse().map(toMessage),
    has_more: hasMore,
    total: total?.n ?? 0,
  };
}

/** A team member's reply. */
export async function sendMessage(
  deps: Deps,
  member: Member,
  input: z.output<typeof sendMessageInput>,
) {
  const conversation = await findConversation(
    deps.db,
    member.organizationId,
    input.conversation_id,
  );
  return sendText(deps, conversation, {
    content: input.content,
    senderType: "agent",
    senderUserId: member.userId,
  });
}

/**
 * Marks the conversation read: unread count to 0, the customer's messages read, and a read
 * receipt to WhatsApp for the newest one (after the answer; a failure there is only logged).
 */
export async function markRead(deps: Deps, member: Member, conversationId: string) {
  const { db } = deps;
  const conversation = await findConversation(db, member.organizationId, conversationId);
  const [[updated]] = await db.batch([
    db
      .update(conversations)
      .set({ unreadCount: 0 })
      .where(eq(conversations.id, conversation.id))
      .returning(),
    db
      .update(messages)
      .set({ status: "read" })
      .where(
        and(
          eq(messages.conversationId, conversation.id),
          eq(messages.direction, "inbound"),
          eq(messages.status, "delivered"),
        ),
      ),
  ]);
  const result = toConversation(updated!);
  if (conversation.unreadCount > 0) {
    await publish(deps.env, member.organizationId, {
      type: "conversation_update",
      data: { conversation: result },
    });
    deps.defer(sendReadReceipt(deps, member.organizationId, conversation.id));
  }
  return result;
}

async function sendReadReceipt(deps: Deps, organizationId: string, conversationId: string) {
  try {
    const newest = await deps.db.query.messages.findFirst({
      where: and(eq(messages.conversationId, conversationId), eq(messages.direction, "inbound")),
      orderBy: [desc(messages.createdAt)],
    });
    if (!newest?.wamid) return;
    const sender = await connectedSender(deps, organizationId);
    await sender?.graph.markRead(sender.connection.phoneNumberId, newest.wamid);
  } catch (error) {
    console.warn("read receipt failed", error);
  }
}
