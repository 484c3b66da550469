/**
 * The organization's knowledge entries: every member reads them, owners and admins write them
 * (routes.ts). Every query is scoped to the member's organization.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { recordAudit } from "../audit/service";
import type { Db } from "../db/client";
import { agents, knowledgeEntries } from "../db/schema";
import type { Member } from "../http/context";
import type { Deps } from "../http/deps";
import { AppError, notFound } from "../http/errors";
import {
  KNOWLEDGE_EXCERPT_CHARS,
  type KnowledgeEntry,
  type KnowledgeSummary,
  type knowledgeCreateInput,
  type knowledgeUpdateInput,
} from "./contract";
import { readKnowledgeFile } from "./extract";

type Row = typeof knowledgeEntries.$inferSelect;

/** What the API shows of every entry, listed or whole. */
const entryFields = (row: Pick<Row, "id" | "title" | "fileName" | "createdAt" | "updatedAt">) => ({
  id: row.id,
  title: row.title,
  file_name: row.fileName,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

const toKnowledgeEntry = (row: Row): KnowledgeEntry => ({
  ...entryFields(row),
  content: row.content,
});

const entryNotFound = () => notFound("Entrada de conocimiento no encontrada.");
const scoped = (member: Member, id: string) =>
  and(eq(knowledgeEntries.id, id), eq(knowledgeEntries.organizationId, member.organizationId));

/** The organization's entries, the most recently changed first: each one's beginning and size. */
export async function listKnowledge({ db }: Deps, member: Member): Promise<KnowledgeSummary[]> {
  const rows = await db
    .select({
      id: knowledgeEntries.id,
      title: knowledgeEntries.title,
      excerpt: sql<string>`substr(${knowledgeEntries.content}, 1, ${KNOWLEDGE_EXCERPT_CHARS})`,
      characters: sql<number>`length(${knowledgeEntries.content})`,
      fileName: knowledgeEntries.fileName,
      createdAt: knowledgeEntries.createdAt,
      updatedAt: knowledgeEntries.updatedAt,
    })
    .from(knowledgeEntries)
    .where(eq(knowledgeEntries.organizationId, member.organizationId))
    .orderBy(desc(knowledgeEntries.updatedAt), desc(knowledgeEntries.id));
  return rows.map((row) => ({
    ...entryFields(row),
    excerpt: row.excerpt,
    characters: row.characters,
  }));
}

/** One entry with its whole text (to edit it). */
export async function getKnowledge({ db }: Deps, member: Member, { id }: { id: string }) {
  const row = await db.query.knowledgeEntries.findFirst({ where: scoped(member, id) });
  if (!row) throw entryNotFound();
  return toKnowledgeEntry(row);
}

async function insertEntry(
  db: Db,
  member: Member,
  values: { title: string; content: string; fileName?: string | null },
) {
  const [row] = await db
    .insert(knowledgeEntries)
    .values({ organizationId: member.organizationId, createdBy: member.userId, ...values })
    .returning();
  await recordAudit(db, {
    action: "knowledge.create",
    organizationId: member.organizationId,
    userId: member.userId,
    target: row!.title,
    metadata: values.fileName ? { file_name: values.fileName } : undefined,
    ip: member.ip,
  });
  return toKnowledgeEntry(row!);
}

export function createKnowledge(
  { db }: Deps,
  member: Member,
  input: z.output<typeof knowledgeCreateInput>,
) {
  return insertEntry(db, member, input);
}

/** An imported file becomes one entry, titled after the file (extract.ts says what is read). */
export async function importKnowledge({ db }: Deps, member: Member, { file }: { file: File }) {
  return insertEntry(db, member, await readKnowledgeFile(file));
}

export async function updateKnowledge(
  { db }: Deps,
  member: Member,
  { id, changes }: { id: string; changes: z.output<typeof knowledgeUpdateInput> },
) {
  const [row] = await db
    .update(knowledgeEntries)
    .set({ title: changes.title, content: changes.content, updatedAt: new Date().toISOString() })
    .where(scoped(member, id))
    .returning();
  if (!row) throw entryNotFound();
  await recordAudit(db, {
    action: "knowledge.update",
    organizationId: member.organizationId,
    userId: member.userId,
    target: row.title,
    ip: member.ip,
  });
  return toKnowledgeEntry(row);
}

/**
 * Deletes the entry and takes it out of the lists of the agents limited to it, in one batch,
 * so no agent keeps an id that no longer exists (docs/decisions/0025).
 */
export async function deleteKnowledge({ db }: Deps, member: Member, { id }: { id: string }) {
  const [deleted] = await db.batch([
    db.delete(knowledgeEntries).where(scoped(member, id)).returning(),
    db
      .update(agents)
      .set({
        knowledgeIds: sql`(SELECT json_group_array(value) FROM json_each(${agents.knowledgeIds}) WHERE value <> ${id})`,
      })
      .where(
        and(
          eq(agents.organizationId, member.organizationId),
          sql`EXISTS (SELECT 1 FROM json_each(${agents.knowledgeIds}) WHERE value = ${id})`,
        ),
      ),
  ]);
  const entry = deleted[0];
  if (!entry) throw entryNotFound();
  await recordAudit(db, {
    action: "knowledge.delete",
    organizationId: member.organizationId,
    userId: member.userId,
    target: entry.title,
    ip: member.ip,
  });
}

/**
 * An agent's `knowledge_ids` as stored: null (all entries) or the given ids, each one of the
 * organization's entries (422 naming the field otherwise), without repeats.
 */
export async function checkedKnowledgeIds(
  db: Db,
  organizationId: string,
  ids: string[] | null | undefined,
) {
  if (ids === undefined || ids === null) return ids;
  const unique = [...new Set(ids)];
  if (unique.length === 0) return unique;
  const found = await db
    .select({ id: knowledgeEntries.id })
    .from(knowledgeEntries)
    .where(
      and(
        eq(knowledgeEntries.organizationId, organizationId),
        // One bound parameter however many ids (D1 allows 100 per statement).
        sql`${knowledgeEntries.id} IN (SELECT value FROM json_each(${JSON.stringify(unique)}))`,
      ),
    );
  if (found.length !== unique.length) {
    throw new AppError(
      422,
      "validation_error",
      "Datos inválidos. Verifica la información ingresada.",
      [{ path: "knowledge_ids", message: "Alguna entrada de conocimiento no existe" }],
    );
  }
  return unique;
}
