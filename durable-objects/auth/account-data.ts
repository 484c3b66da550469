/**
 * What signing in, an account's export and its deletion do in one organization's data, run in
 * its store as the edge's parts (durable-objects/parts.ts): the usual sign-in addresses, pages of
 * the person's rows the export holds, and forgetting them. What is written once for both trails
 * (the account's in D1, the organization's) is worker/auth/account-in-organization.ts.
 */
import { and, eq } from "drizzle-orm";
import type { SQLiteColumn } from "drizzle-orm/sqlite-core";
import { orgBatch, type OrganizationDb } from "../db";
import {
  auditEvents,
  broadcasts,
  followUps,
  conversations,
  knowledgeEntries,
  mentions,
  messages,
} from "../schema";

import {
  forgetInTrail,
  pageOfRows,
  type ExportList,
  type Person,
  usualAddressesAmong,
} from "../../worker/auth/account-in-organization";

/** The addresses a member signed in from, as their organization's trail recorded them. */
export async function usualAddressesIn(
  orgDb: OrganizationDb,
  organizationId: string,
  userId: string,
  since: string,
) {
  const rows = await orgDb
    .selectDistinct({ ip: auditEvents.ip })
    .from(auditEvents)
    .where(
      usualAddressesAmong(
        auditEvents,
        eq(auditEvents.organizationId, organizationId),
        userId,
        since,
      ),
    );
  return rows.map((row) => row.ip!);
}

/** What the export shows of a mention addressed to the person. */
const MENTION_COLUMNS = {
  id: mentions.id,
  conversation_id: mentions.conversationId,
  note_id: mentions.noteId,
  author_id: mentions.authorId,
  read_at: mentions.readAt,
  created_at: mentions.createdAt,
};

/** What the export shows of a note the person wrote. */
const NOTE_COLUMNS = {
  id: messages.id,
  conversation_id: messages.conversationId,
  content: messages.content,
  mentions: messages.mentions,
  created_at: messages.createdAt,
};

/** One page of a list of the export, of the organization's rows only. */
export function exportPage(
  orgDb: OrganizationDb,
  organizationId: string,
  { name, userId }: ExportList,
  after: string,
) {
  switch (name) {
    case "audit_events":
      return pageOfRows(
        orgDb,
        auditEvents,
        and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.userId, userId))!,
        undefined,
        after,
      );
    case "mentions":
      return pageOfRows(
        orgDb,
        mentions,
        and(eq(mentions.organizationId, organizationId), eq(mentions.userId, userId))!,
        MENTION_COLUMNS,
        after,
      );
    case "notes":
      // What they wrote in the team inbox, never a customer's message.
      return pageOfRows(
        orgDb,
        messages,
        and(
          eq(messages.organizationId, organizationId),
          eq(messages.senderUserId, userId),
          eq(messages.direction, "internal"),
        )!,
        NOTE_COLUMNS,
        after,
      );
  }
}

/**
 * The person gone from one organization's data, all or nothing: its trail keeps what happened
 * without their e-mail and addresses, and what D1's foreign keys to `users` did there (a store
 * has none) is done here, the same in both: their user id leaves the entries, the conversations
 * they held, the messages, knowledge, broadcasts and follow-ups they wrote and the mentions they made; the mentions of
 * them go. Their entries are stripped before their id leaves them, after which they could not
 * be found.
 */
export async function forgetPersonIn(
  orgDb: OrganizationDb,
  organizationId: string,
  person: Person,
) {
  const ofOrganization = (table: { organizationId: SQLiteColumn }) =>
    eq(table.organizationId, organizationId);
  const naming = (table: { organizationId: SQLiteColumn }, column: SQLiteColumn) =>
    and(ofOrganization(table), eq(column, person.id));
  await orgBatch(orgDb, [
    ...forgetInTrail(orgDb, auditEvents, ofOrganization(auditEvents), person),
    orgDb.update(auditEvents).set({ userId: null }).where(naming(auditEvents, auditEvents.userId)),
    orgDb
      .update(conversations)
      .set({ assigneeId: null })
      .where(naming(conversations, conversations.assigneeId)),
    orgDb
      .update(messages)
      .set({ senderUserId: null })
      .where(naming(messages, messages.senderUserId)),
    orgDb
      .update(knowledgeEntries)
      .set({ createdBy: null })
      .where(naming(knowledgeEntries, knowledgeEntries.createdBy)),
    orgDb
      .update(broadcasts)
      .set({ createdBy: null })
      .where(naming(broadcasts, broadcasts.createdBy)),
    orgDb.update(followUps).set({ createdBy: null }).where(naming(followUps, followUps.createdBy)),
    orgDb.update(mentions).set({ authorId: null }).where(naming(mentions, mentions.authorId)),
    orgDb.delete(mentions).where(naming(mentions, mentions.userId)),
  ]);
}
