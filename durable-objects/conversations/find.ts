/**
 * Finding one conversation of the organization, which every domain that acts on a conversation
 * does first: a module of its own, so that they need not import the conversations' service
 * (which itself uses sales and the team inbox).
 */
import { and, eq } from "drizzle-orm";
import type { OrganizationDb } from "../db";
import { conversations } from "../schema";
import { notFound } from "../../worker/http/errors";

export const conversationNotFound = () => notFound("Conversación no encontrada.");

/** A conversation of the member's organization, or 404 (also for another organization's). */
export async function findConversation(db: OrganizationDb, organizationId: string, id: string) {
  const row = await db.query.conversations.findFirst({
    where: and(eq(conversations.id, id), eq(conversations.organizationId, organizationId)),
  });
  if (!row) throw conversationNotFound();
  return row;
}
