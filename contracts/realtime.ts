/** Events the organization's socket carries, as the console receives them. */
export type RealtimeEventType =
  | "new_message"
  | "message_sent"
  | "message_status"
  | "conversation_update"
  /** An agent in draft mode (or "Sugerir respuesta") prepared an answer: `{conversation_id, draft}`. */
  | "draft_ready"
  /** The organization spent its monthly AI budget: `{month, tokens_used, budget}`. */
  | "ai_budget_exhausted"
  /** An internal note in a conversation: `{note, conversation_id, message}`. */
  | "note_created"
  /** To the mentioned member only: `{mention}`. */
  | "mention"
  /** The WhatsApp Business app's history import moved on: `{history_import}`. */
  | "import_progress"
  /** Meta disconnected or reconnected the number (`account_update`): `{status, disconnected_reason}`. */
  | "whatsapp_status"
  /** A broadcast's status or results changed: `{broadcast}` (contract section 17). */
  | "broadcast_update"
  /** A booking was made, moved, cancelled or marked: `{booking}` (contract section 18). */
  | "booking_update"
  /** A payment link was sent, paid, expired, failed or refunded: `{payment}` (contract section 18). */
  | "payment_update"
  /**
   * The socket's session is over (`{reason}`), sent just before the 4001 close: a proxy that
   * drops the close frame (the dev server's) still carries it.
   */
  | "session_ended";

export interface RealtimeEvent<T = unknown> {
  type: RealtimeEventType;
  data: T;
}

/**
 * Close code of a socket whose session was revoked (logout, refresh, removal from the
 * organization, a role change, account deletion): reconnecting with the same token is refused.
 */
export const SESSION_REVOKED_CLOSE_CODE = 4001;
export const SESSION_REVOKED_REASON = "Sesión revocada";
/** A socket whose session ran out is closed with the same code: the console signs in again. */
export const SESSION_EXPIRED_REASON = "Sesión caducada";

/** Whose sockets to close in one organization: these sessions, and/or every socket of a user. */
export interface SocketOwners {
  sessionIds?: string[];
  userId?: string;
}
