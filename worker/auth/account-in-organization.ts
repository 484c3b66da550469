/**
 * What signing in, an account's export and its deletion do in one organization's data: the
 * usual sign-in addresses, pages of the person's rows the export holds, and forgetting them. Each
 * runs in that organization's store (worker/stores/organization-parts.ts); what reads the audit
 * trail is written once for both trails, the account's in D1 and the organization's.
 */
import {
  and,
  asc,
  eq,
  getTableColumns,
  gt,
  inArray,
  isNotNull,
  or,
  sql,
  type SQL,
} from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { orgBatch, type AnyDb, type OrganizationDb } from "../db/client";
import type { accountAuditEvents } from "../db/global-schema";
import {
  auditEvents,
  broadcasts,
  followUps,
  conversations,
  knowledgeEntries,
  mentions,
  messages,
} from "../../durable-objects/schema";

/** Rows read per query while exporting: one page is all of a list the export holds at once. */
export const EXPORT_PAGE_SIZE = 500;

/** Who an account is, as its organizations' data names them. */
export interface Person {
  id: string;
  email: string;
}

/** A row of a list the export holds, as drizzle reads it. */
export type ExportRow = Record<string, unknown>;

/** An audit trail: an account's own (D1) or an organization's (its store), of the same columns. */
export type AuditTrail = typeof auditEvents | typeof accountAuditEvents;

/** One page of `table`'s rows matching `scope` after the id `after`, in id order. */
export function pageOfRows(
  db: AnyDb,
  table: SQLiteTable & { id: SQLiteColumn },
  scope: SQL,
  /** Which columns, by their name in the document (`id` among them: it is the cursor). */
  columns: Record<string, SQLiteColumn> = getTableColumns(table),
  after = "",
): Promise<ExportRow[]> {
  return db
    .select(columns)
    .from(table)
    .where(and(scope, gt(table.id, after)))
    .orderBy(asc(table.id))
    .limit(EXPORT_PAGE_SIZE);
}

/** An account's sign-in entries among `entries` since `since` (their addresses are kept). */
export const usualAddressesAmong = (
  trail: AuditTrail,
  entries: SQL,
  userId: SQLiteColumn | string,
  since: string,
) =>
  and(
    entries,
    eq(trail.userId, userId),
    inArray(trail.action, ["auth.login", "auth.register"]),
    isNotNull(trail.ip),
    gt(trail.createdAt, since),
  );

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

/** A list of the export held in an organization's data: the person's rows there. */
export interface ExportList {
  name: "audit_events" | "mentions" | "notes";
  userId: string;
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

/** The audit entries among `entries` naming the person, stripped of their e-mail and address. */
export function forgetInTrail(db: AnyDb, trail: AuditTrail, entries: SQL, person: Person) {
  return [
    db
      .update(trail)
      .set({ ip: null, metadata: sql`json_remove(${trail.metadata}, '$.email')` })
      .where(
        and(
          entries,
          or(
            eq(trail.userId, person.id),
            sql`json_extract(${trail.metadata}, '$.email') = ${person.email}`,
          ),
        ),
      ),
    db
      .update(trail)
      .set({ target: null })
      .where(and(entries, eq(trail.target, person.email))),
  ] as const;
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
