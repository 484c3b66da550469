/**
 * What a conversation's messages cost under Meta's per-message pricing: the billable
 * messages by category (from the `pricing` their statuses carried), and the 72-hour free
 * entry point window a click-to-WhatsApp conversation earns when the business answers within
 * 24 hours of the ad click (messages in it are not billed).
 */
import { and, asc, desc, eq, gte, isNotNull, ne, sql } from "drizzle-orm";
import type { OrganizationDb } from "../db";
import { messages } from "../schema";
import type { ConversationBilling } from "../../contracts/conversations";
import type { ConversationRow } from "./mappers";

const HOUR_MS = 60 * 60 * 1000;

const ofConversation = (row: Pick<ConversationRow, "id" | "organizationId">) =>
  and(eq(messages.organizationId, row.organizationId), eq(messages.conversationId, row.id));

export async function conversationBilling(
  db: OrganizationDb,
  row: Pick<ConversationRow, "id" | "organizationId" | "ctwaClid">,
): Promise<ConversationBilling> {
  const inConversation = ofConversation(row);
  const [byCategory, freeUntil] = await Promise.all([
    db
      .select({ category: messages.pricingCategory, n: sql<number>`count(*)` })
      .from(messages)
      .where(and(inConversation, eq(messages.billable, true)))
      .groupBy(messages.pricingCategory),
    freeEntryPointUntil(db, row),
  ]);
  const by_category: Record<string, number> = {};
  for (const { category, n } of byCategory) by_category[category ?? "unknown"] = n;
  return {
    billable_messages: byCategory.reduce((sum, { n }) => sum + n, 0),
    by_category,
    free_entry_point_until: freeUntil,
  };
}

/**
 * The end of the conversation's free entry point window: 72 h from the first answer, when it
 * came within 24 h of the latest ad click; null when it has none.
 */
export async function freeEntryPointUntil(
  db: OrganizationDb,
  row: Pick<ConversationRow, "id" | "organizationId" | "ctwaClid">,
) {
  if (!row.ctwaClid) return null;
  const inConversation = ofConversation(row);
  const click = await db
    .select({ at: messages.sentAt })
    .from(messages)
    .where(
      and(
        inConversation,
        eq(messages.direction, "inbound"),
        isNotNull(sql`${messages.referral} ->> 'ctwa_clid'`),
      ),
    )
    .orderBy(desc(messages.sentAt))
    .limit(1)
    .get();
  if (!click?.at) return null;
  const answer = await db
    .select({ at: messages.createdAt })
    .from(messages)
    .where(
      and(
        inConversation,
        eq(messages.direction, "outbound"),
        ne(messages.status, "failed"),
        gte(messages.createdAt, click.at),
      ),
    )
    .orderBy(asc(messages.createdAt))
    .limit(1)
    .get();
  if (!answer || Date.parse(answer.at) - Date.parse(click.at) >= 24 * HOUR_MS) return null;
  return new Date(Date.parse(answer.at) + 72 * HOUR_MS).toISOString();
}
