// The AI's replies, run from the organization's hub without waiting for its alarm.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import type { OrganizationStoreCalls } from "../../worker/stores/store-calls";
import { orgSql } from "./org-data";

/** Runs the hub's due replies now, as if the coalescing delay had passed. */
export async function runDueReplies(hub: DurableObjectStub<OrganizationStoreCalls>) {
  await runInDurableObject(hub, async (_instance, state) => {
    for (const [key, value] of await state.storage.list<{ dueAt: number }>({ prefix: "reply:" })) {
      await state.storage.put(key, { ...value, dueAt: Date.now() - 1 });
    }
  });
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
