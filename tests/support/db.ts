import { env } from "cloudflare:workers";
import { createDb } from "../../worker/db/client";
import { whatsappConnections } from "../../worker/db/global-schema";
import { messages } from "../../durable-objects/schema";
import { encryptSecret } from "../../durable-objects/meta/secrets";
import { AI_CALLS_PER_CONVERSATION_HOUR } from "../../durable-objects/ai/budget";
import { orgSql, withOrgDb } from "./org-data";

/** D1, for the global tables (an organization's data: ./org-data). */
export const db = createDb(env.DB);

/** Stores a message as if it had arrived (or been sent) at `at`. */
export async function seedMessage(
  organizationId: string,
  conversationId: string,
  values: Partial<typeof messages.$inferInsert> & { at?: string } = {},
) {
  const { at = new Date().toISOString(), ...rest } = values;
  const [row] = await withOrgDb(organizationId, (orgDb) =>
    orgDb
      .insert(messages)
      .values({
        organizationId,
        conversationId,
        content: "Hola",
        direction: "inbound",
        senderType: "customer",
        status: "delivered",
        createdAt: at,
        ...rest,
      })
      .returning(),
  );
  return row!;
}

/** Opens the 24-hour window as if the customer had just written. */
export async function openWindow(
  organizationId: string,
  conversationId: string,
  at = new Date().toISOString(),
) {
  await orgSql(
    organizationId,
    "UPDATE conversations SET last_inbound_at = ? WHERE id = ?",
    at,
    conversationId,
  );
}

export async function connectWhatsapp(
  organizationId: string,
  values: { phoneNumberId?: string; businessAccountId?: string; defaultAgentId?: string } = {},
) {
  const [row] = await db
    .insert(whatsappConnections)
    .values({
      organizationId,
      phoneNumberId: values.phoneNumberId ?? `pn-${crypto.randomUUID().slice(0, 8)}`,
      businessAccountId: values.businessAccountId ?? "waba-test",
      phoneNumber: "+34 600 000 000",
      accessTokenEncrypted: await encryptSecret("test-access-token", env.ENCRYPTION_KEY),
      defaultAgentId: values.defaultAgentId ?? null,
      connectedAt: new Date().toISOString(),
    })
    .returning();
  return row!;
}

/** The conversation's model calls for this hour, all spent (`AI_CALLS_PER_CONVERSATION_HOUR`). */
export async function spendConversationAiCalls(organizationId: string, conversationId: string) {
  await orgSql(
    organizationId,
    "INSERT OR REPLACE INTO conversation_ai_calls (conversation_id, organization_id, count, reset_at) VALUES (?, ?, ?, ?)",
    conversationId,
    organizationId,
    AI_CALLS_PER_CONVERSATION_HOUR,
    Date.now() + 3_600_000,
  );
}
