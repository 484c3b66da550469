/**
 * The organization's knowledge entries: every member reads them, owners and admins write them
 * (routes.ts). Every query is scoped to the member's organization.
 */
import { and, count, desc, eq, sql } from "drizzle-orm";
import type { z } from "zod/mini";
import { recordAudit } from "../audit/service";
import { orgBatch, type OrganizationDb } from "../db";
import { uuidv7 } from "../../worker/db/ids";
import { agents, knowledgeEntries } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError, notFound } from "../../worker/http/errors";
import {
  KNOWLEDGE_EXCERPT_CHARS,
  KNOWLEDGE_MAX_CHARACTERS,
  KNOWLEDGE_MAX_ENTRIES,
  KNOWLEDGE_TOO_MANY_CHARACTERS,
  KNOWLEDGE_TOO_MANY_ENTRIES,
  type KnowledgeEntry,
  type KnowledgeList,
  type knowledgeCreateInput,
  type knowledgeListQuery,
  type knowledgeUpdateInput,
} from "../../contracts/knowledge";
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
const overCaps = (entries: boolean) =>
  new AppError(
    422,
    "knowledge_limit",
    entries ? KNOWLEDGE_TOO_MANY_ENTRIES : KNOWLEDGE_TOO_MANY_CHARACTERS,
  );

/** Whether the organization is past its number of entries (else it was its characters). */
async function tooManyEntries(orgDb: OrganizationDb, organizationId: string) {
  const [row] = await orgDb
    .select({ n: count() })
    .from(knowledgeEntries)
    .where(eq(knowledgeEntries.organizationId, organizationId));
  return (row?.n ?? 0) >= KNOWLEDGE_MAX_ENTRIES;
}
const scoped = (member: Member, id: string) =>
  and(eq(knowledgeEntries.id, id), eq(knowledgeEntries.organizationId, member.organizationId));

/** The organization's entries, the most recently changed first, a page at a time. */
export async function listKnowledge(
  { orgDb }: StoreDeps,
  member: Member,
  { page, limit }: z.output<typeof knowledgeListQuery>,
): Promise<KnowledgeList> {
  const mine = eq(knowledgeEntries.organizationId, member.organizationId);
  const [rows, [usage]] = await orgBatch(orgDb, [
    orgDb
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
      .where(mine)
      .orderBy(desc(knowledgeEntries.updatedAt), desc(knowledgeEntries.id))
      .limit(limit)
      .offset((page - 1) * limit),
    orgDb
      .select({
        entries: count(),
        characters: sql<number>`coalesce(sum(length(${knowledgeEntries.content})), 0)`,
      })
      .from(knowledgeEntries)
      .where(mine),
  ]);
  const entries = usage?.entries ?? 0;
  return {
    entries: rows.map((row) => ({
      ...entryFields(row),
      excerpt: row.excerpt,
      characters: row.characters,
    })),
    total: entries,
    page,
    limit,
    usage: {
      entries,
      characters: usage?.characters ?? 0,
      max_entries: KNOWLEDGE_MAX_ENTRIES,
      max_characters: KNOWLEDGE_MAX_CHARACTERS,
    },
  };
}

/** The organization's entries and characters, as a guard in the statement that writes. */
const entriesOf = (organizationId: string) =>
  sql`(SELECT count(*) FROM ${knowledgeEntries} WHERE ${knowledgeEntries.organizationId} = ${organizationId})`;
const charactersOf = (organizationId: string, except?: string) =>
  sql`(SELECT coalesce(sum(length(${knowledgeEntries.content})), 0) FROM ${knowledgeEntries}
    WHERE ${knowledgeEntries.organizationId} = ${organizationId}
    ${except ? sql`AND ${knowledgeEntries.id} <> ${except}` : sql``})`;

/** One entry with its whole text (to edit it). */
export async function getKnowledge({ orgDb }: StoreDeps, member: Member, { id }: { id: string }) {
  const row = await orgDb.query.knowledgeEntries.findFirst({ where: scoped(member, id) });
  if (!row) throw entryNotFound();
  return toKnowledgeEntry(row);
}

/**
 * Adds the entry within the organization's caps. The insert and the check after it go in one
 * batch (a transaction, and D1 runs one writer at a time): of two entries that would both pass
 * the last place, the second is taken out again by its own check, so the caps hold under any
 * concurrency without a read before the write.
 */
async function insertEntry(
  orgDb: OrganizationDb,
  member: Member,
  values: { title: string; content: string; fileName?: string | null },
) {
  const { organizationId } = member;
  const id = uuidv7();
  const [[row], refused] = await orgBatch(orgDb, [
    orgDb
      .insert(knowledgeEntries)
      .values({ id, organizationId, createdBy: member.userId, ...values })
      .returning(),
    orgDb
      .delete(knowledgeEntries)
      .where(
        and(
          eq(knowledgeEntries.id, id),
          sql`(${entriesOf(organizationId)} > ${KNOWLEDGE_MAX_ENTRIES}
            OR ${charactersOf(organizationId)} > ${KNOWLEDGE_MAX_CHARACTERS})`,
        ),
      )
      .returning({ id: knowledgeEntries.id }),
  ]);
  if (refused.length > 0) throw overCaps(await tooManyEntries(orgDb, organizationId));
  await recordAudit(orgDb, {
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
  { orgDb }: StoreDeps,
  member: Member,
  input: z.output<typeof knowledgeCreateInput>,
) {
  return insertEntry(orgDb, member, input);
}

/**
 * An imported file becomes one entry, titled after the file (extract.ts says what is read). A
 * full organization is told so before the file is read: reading a PDF is the costly part.
 */
export async function importKnowledge(
  { orgDb }: StoreDeps,
  member: Member,
  { file }: { file: File },
) {
  const [room] = await orgDb
    .select({
      entries: sql<number>`${entriesOf(member.organizationId)}`,
      characters: sql<number>`${charactersOf(member.organizationId)}`,
    })
    .from(sql`(SELECT 1)`);
  if (room!.entries >= KNOWLEDGE_MAX_ENTRIES) throw overCaps(true);
  if (room!.characters >= KNOWLEDGE_MAX_CHARACTERS) throw overCaps(false);
  return insertEntry(orgDb, member, await readKnowledgeFile(file));
}

export async function updateKnowledge(
  { orgDb }: StoreDeps,
  member: Member,
  { id, changes }: { id: string; changes: z.output<typeof knowledgeUpdateInput> },
) {
  // A longer text is written only while the organization's characters stay within the cap; one
  // that does not grow always is, so an organization past it (from before it) can shorten back.
  const fits =
    changes.content === undefined
      ? undefined
      : sql`(length(${changes.content}) <= length(${knowledgeEntries.content})
          OR ${charactersOf(member.organizationId, id)} + length(${changes.content}) <= ${KNOWLEDGE_MAX_CHARACTERS})`;
  const [row] = await orgDb
    .update(knowledgeEntries)
    .set({ title: changes.title, content: changes.content, updatedAt: new Date().toISOString() })
    .where(and(scoped(member, id), fits))
    .returning();
  if (!row) {
    const exists = await orgDb.query.knowledgeEntries.findFirst({
      where: scoped(member, id),
      columns: { id: true },
    });
    throw exists ? overCaps(false) : entryNotFound();
  }
  await recordAudit(orgDb, {
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
export async function deleteKnowledge(
  { orgDb }: StoreDeps,
  member: Member,
  { id }: { id: string },
) {
  const [deleted] = await orgBatch(orgDb, [
    orgDb.delete(knowledgeEntries).where(scoped(member, id)).returning(),
    orgDb
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
  await recordAudit(orgDb, {
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
  orgDb: OrganizationDb,
  organizationId: string,
  ids: string[] | null | undefined,
) {
  if (ids === undefined || ids === null) return ids;
  const unique = [...new Set(ids)];
  if (unique.length === 0) return unique;
  const found = await orgDb
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
