import type { conversations, messages } from "../schema";
import { AppError } from "../../worker/http/errors";
import type { Conversation, Message } from "../../contracts/conversations";

export type ConversationRow = typeof conversations.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;

/** The customer-service window: 24 h after the customer's last message. */
export const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;

export function windowExpiresAt(row: Pick<ConversationRow, "lastInboundAt">): string | null {
  if (!row.lastInboundAt) return null;
  return new Date(Date.parse(row.lastInboundAt) + SERVICE_WINDOW_MS).toISOString();
}

export function isWindowOpen(row: Pick<ConversationRow, "lastInboundAt">, now = Date.now()) {
  const expires = windowExpiresAt(row);
  return expires !== null && Date.parse(expires) > now;
}

/** Outside the window WhatsApp takes only an approved template: free text is refused (422). */
export function assertWindowOpen(row: Pick<ConversationRow, "lastInboundAt">) {
  if (!isWindowOpen(row)) {
    throw new AppError(
      422,
      "window_closed",
      "Han pasado más de 24 horas desde el último mensaje del cliente. WhatsApp solo permite responder con una plantilla aprobada.",
    );
  }
}

export const toConversation = (row: ConversationRow): Conversation => ({
  id: row.id,
  contact: {
    name: row.contactName,
    phone_number: row.phoneNumber,
    username: row.username,
    user_id: row.waUserId,
  },
  phone_number: row.phoneNumber,
  contact_name: row.contactName,
  platform: "whatsapp",
  status: row.status,
  priority: row.priority,
  stage: row.stage,
  unread_count: row.unreadCount,
  agent_id: row.agentId,
  assignee_id: row.assigneeId,
  labels: row.labels ?? [],
  last_message_at: row.lastMessageAt,
  last_message: row.lastMessagePreview,
  fbclid: row.fbclid,
  ctwa_clid: row.ctwaClid,
  ad_id: row.adId,
  ad_headline: row.adHeadline,
  window_expires_at: windowExpiresAt(row),
  ai_error: row.aiError,
  ai_draft: row.aiDraft ?? null,
  ai_paused_until: row.aiPausedUntil,
  controlled_by: row.controlledBy,
  marketing_opt_out:
    row.marketingOptedOutAt && row.marketingOptOutSource
      ? { at: row.marketingOptedOutAt, source: row.marketingOptOutSource }
      : null,
  marketing_limited_until: row.marketingLimitedUntil,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

/** The realtime event that tells the consoles a conversation as it now is. */
export const conversationUpdate = (row: ConversationRow) => ({
  type: "conversation_update" as const,
  data: { conversation: toConversation(row) },
});

export const toMessage = (row: MessageRow): Message => ({
  id: row.id,
  conversation_id: row.conversationId,
  content: row.content,
  type: row.type,
  direction: row.direction,
  sender_type: row.senderType,
  status: row.status,
  error: row.error,
  error_code: row.errorCode,
  media: row.mediaId ? { id: row.mediaId, mime_type: row.mediaMimeType } : null,
  reactions: row.reactions ?? [],
  transcript: row.transcript,
  transcript_status: row.transcriptStatus,
  transcript_error: row.transcriptError,
  ai_sources: row.aiSources ?? [],
  suggested_by_ai: row.suggestedByAi,
  author_id: row.senderUserId,
  mentions: row.mentions ?? [],
  edited: row.editedAt !== null,
  deleted: row.deletedAt !== null,
  imported: row.imported,
  created_at: row.createdAt,
});

/** The list's one-line preview of a message. */
export const preview = (content: string) => content.slice(0, 200);
