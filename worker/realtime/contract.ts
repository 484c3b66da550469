/** Events the organization's socket carries, as the console receives them. */
export type RealtimeEventType =
  "new_message" | "message_sent" | "message_status" | "conversation_update";

export interface RealtimeEvent<T = unknown> {
  type: RealtimeEventType;
  data: T;
}
