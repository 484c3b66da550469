// The AI's replies, run from the organization's hub without waiting for its alarm.
import { runDurableObjectAlarm } from "cloudflare:test";
import type { OrganizationStoreCalls } from "../../worker/stores/store-calls";
import { orgSql } from "./org-data";
import { makeDue } from "./scheduled-work";

/** Runs the hub's due replies now, as if the coalescing delay had passed. */
export async function runDueReplies(hub: DurableObjectStub<OrganizationStoreCalls>) {
  await makeDue(hub, "reply:");
  await runDurableObjectAlarm(hub);
}

/** The bot's messages to the customer in a conversation (not its internal notes), oldest first. */
export function botMessages(organizationId: string, conversationId: string) {
  return orgSql<{
    id: string;
    content: string;
    status: string;
    error: string | null;
    wamid: string | null;
  }>(
    organizationId,
    "SELECT id, content, status, error, wamid FROM messages WHERE conversation_id = ? AND sender_type = 'bot' AND direction = 'outbound' ORDER BY created_at, id",
    conversationId,
  );
}
