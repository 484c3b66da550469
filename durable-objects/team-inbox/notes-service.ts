/**
 * Internal notes: team messages in the thread ("Nota interna"), stored as messages with
 * direction `internal` so that the thread, paging, the export and retention carry them as
 * they carry every message; never sent to WhatsApp, never in the AI's history or drafts.
 * `@name` mentions tell the named members at once and wait under "Menciones" until read.
 */
import { and, desc, eq, isNull } from "drizzle-orm";
import type { z } from "zod/mini";
import type { Db } from "../../worker/db/client";
import { memberships, users } from "../../worker/db/global-schema";
import { mentions, messages } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { notFound } from "../../worker/http/errors";
import { findConversation } from "../conversations/find";
import { toMessage, type MessageRow } from "../conversations/mappers";
import {
  mentionHandles,
  type Mention,
  type Note,
  type mentionsQuery,
  type noteInput,
} from "../../contracts/team-inbox";
import { foldText } from "../../contracts/text";

const toNote = (row: MessageRow): Note => ({
  id: row.id,
  conversation_id: row.conversationId,
  content: row.content,
  author_id: row.senderUserId,
  mentions: row.mentions ?? [],
  created_at: row.createdAt,
});

/**
 * The members a note names: `@` followed by a handle only they answer to (contract.ts says
 * which, and in what order). Each handle found is taken out of the text wherever it occurs, so
 * what it covers is never read again as a shorter name. The author is not told.
 */
export async function resolveMentions(db: Db, member: Member, content: string) {
  if (!content.includes("@")) return [];
  const team = await db
    .select({ id: users.id, name: users.fullName, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(eq(memberships.organizationId, member.organizationId));
  let text = foldText(content);
  const named: string[] = [];
  for (const { handle, ids } of mentionHandles(team)) {
    const at = new RegExp(
      `@${handle.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\p{L}\\p{N}])`,
      "gu",
    );
    const rest = text.replace(at, " ");
    if (rest === text) continue;
    text = rest;
    const only = ids.length === 1 ? ids[0]! : null;
    if (only && only !== member.userId && !named.includes(only)) named.push(only);
  }
  return named;
}

/** `POST /conversations/{id}/notes`: stored, shown to the team, mentions told. */
export async function createNote(
  deps: StoreDeps,
  member: Member,
  { id, content }: { id: string } & z.output<typeof noteInput>,
) {
  const { db, orgDb } = deps;
  const conversation = await findConversation(orgDb, member.organizationId, id);
  const named = await resolveMentions(db, member, content);
  const now = new Date().toISOString();
  const [stored] = await orgDb
    .insert(messages)
    .values({
      organizationId: member.organizationId,
      conversationId: conversation.id,
      content,
      type: "note",
      direction: "internal",
      senderType: "agent",
      senderUserId: member.userId,
      status: "sent",
      mentions: named,
      createdAt: now,
    })
    .returning();
  const note = toNote(stored!);
  const message = toMessage(stored!);
  if (named.length > 0) {
    const rows = await orgDb
      .insert(mentions)
      .values(
        named.map((userId) => ({
          organizationId: member.organizationId,
          userId,
          conversationId: conversation.id,
          noteId: note.id,
          authorId: member.userId,
          createdAt: now,
        })),
      )
      .returning();
    for (const row of rows) {
      await deps.publishTo(row.userId, {
        type: "mention",
        data: { mention: toMention(row, note.content) },
      });
    }
  }
  await deps.publish({
    type: "note_created",
    data: { note, conversation_id: conversation.id, message },
  });
  return { note, message };
}

/** A note written by the system (the AI's handoff, round robin): no author, no mentions. */
export async function systemNote(
  deps: StoreDeps,
  organizationId: string,
  conversationId: string,
  content: string,
) {
  const [stored] = await deps.orgDb
    .insert(messages)
    .values({
      organizationId,
      conversationId,
      content,
      type: "note",
      direction: "internal",
      senderType: "bot",
      status: "sent",
      mentions: [],
    })
    .returning();
  await deps.publish({
    type: "note_created",
    data: { note: toNote(stored!), conversation_id: conversationId, message: toMessage(stored!) },
  });
}

const EXCERPT_LENGTH = 160;

const toMention = (row: typeof mentions.$inferSelect, content: string): Mention => ({
  id: row.id,
  conversation_id: row.conversationId,
  note_id: row.noteId,
  author_id: row.authorId,
  excerpt: content.slice(0, EXCERPT_LENGTH),
  read_at: row.readAt,
  created_at: row.createdAt,
});

/** `GET /mentions?unread=true`: the caller's mentions, newest first (at most 100). */
export async function listMentions(
  { orgDb }: StoreDeps,
  member: Member,
  query: z.output<typeof mentionsQuery>,
) {
  const rows = await orgDb
    .select({ mention: mentions, content: messages.content })
    .from(mentions)
    .innerJoin(messages, eq(messages.id, mentions.noteId))
    .where(
      and(
        eq(mentions.organizationId, member.organizationId),
        eq(mentions.userId, member.userId),
        query.unread === "true" ? isNull(mentions.readAt) : undefined,
      ),
    )
    .orderBy(desc(mentions.createdAt))
    .limit(100);
  return rows.map(({ mention, content }) => toMention(mention, content));
}

/** `PATCH /mentions/{id}/read`: only the mentioned person's own. */
export async function readMention({ orgDb }: StoreDeps, member: Member, { id }: { id: string }) {
  const [row] = await orgDb
    .update(mentions)
    .set({ readAt: new Date().toISOString() })
    .where(
      and(
        eq(mentions.id, id),
        eq(mentions.organizationId, member.organizationId),
        eq(mentions.userId, member.userId),
      ),
    )
    .returning();
  if (!row) throw notFound("Mención no encontrada.");
  const note = await orgDb.query.messages.findFirst({
    where: eq(messages.id, row.noteId),
    columns: { content: true },
  });
  return toMention(row, note?.content ?? "");
}
