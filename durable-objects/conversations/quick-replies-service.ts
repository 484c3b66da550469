import { and, asc, eq } from "drizzle-orm";
import type { OrganizationDb } from "../db";
import { quickReplies } from "../schema";
import type { Member } from "../../worker/http/context";
import { conflict, notFound } from "../../worker/http/errors";
import type { QuickReply } from "../../contracts/quick-replies";

type Row = typeof quickReplies.$inferSelect;

const toQuickReply = (row: Row): QuickReply => ({
  id: row.id,
  shortcut: row.shortcut,
  content: row.content,
  updated_at: row.updatedAt,
});

const taken = () => conflict("Ya existe una respuesta rápida con ese atajo.");
const scoped = (member: Member, id: string) =>
  and(eq(quickReplies.id, id), eq(quickReplies.organizationId, member.organizationId));

/** The team's quick replies, in the organization's store. */
export async function listQuickReplies(db: OrganizationDb, member: Member) {
  const rows = await db
    .select()
    .from(quickReplies)
    .where(eq(quickReplies.organizationId, member.organizationId))
    .orderBy(asc(quickReplies.shortcut));
  return rows.map(toQuickReply);
}

export async function createQuickReply(
  db: OrganizationDb,
  member: Member,
  input: { shortcut: string; content: string },
) {
  const [row] = await db
    .insert(quickReplies)
    .values({ organizationId: member.organizationId, ...input })
    .onConflictDoNothing()
    .returning();
  if (!row) throw taken();
  return toQuickReply(row);
}

export async function updateQuickReply(
  db: OrganizationDb,
  member: Member,
  { id, changes }: { id: string; changes: { shortcut?: string; content?: string } },
) {
  try {
    const [row] = await db
      .update(quickReplies)
      .set({ ...changes, updatedAt: new Date().toISOString() })
      .where(scoped(member, id))
      .returning();
    if (!row) throw notFound("Respuesta rápida no encontrada.");
    return toQuickReply(row);
  } catch (error) {
    if (String(error).includes("UNIQUE")) throw taken();
    throw error;
  }
}

export async function deleteQuickReply(db: OrganizationDb, member: Member, { id }: { id: string }) {
  const deleted = await db
    .delete(quickReplies)
    .where(scoped(member, id))
    .returning({ id: quickReplies.id });
  if (deleted.length === 0) throw notFound("Respuesta rápida no encontrada.");
}
