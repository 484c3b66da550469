/**
 * The privacy policy's rights as endpoints: a copy of everything stored about the caller
 * (portability), and deleting the account (erasure), which revokes every token at once and
 * removes the person's e-mail and addresses from what the account leaves behind.
 */
import { and, asc, eq, getTableColumns, gt, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { auditStatement, recordAudit, type AuditEntry } from "../audit/service";
import { orgBatch, type Db, type OrganizationDb } from "../db/client";
import {
  agents,
  aiCalls,
  auditEvents,
  conversations,
  conversions,
  invitations,
  labels,
  memberships,
  mentions,
  messages,
  metaConnections,
  organizations,
  rateLimits,
  sessions,
  trackingSessions,
  users,
  whatsappConnections,
} from "../db/schema";
import type { Caller } from "../http/context";
import type { Deps } from "../http/deps";
import { AppError, unauthorized } from "../http/errors";
import { takeHits, type Limit } from "../http/rate-limit";
import { closeSockets } from "../realtime/close-sockets";
import { releaseOnLeaving } from "../team-inbox/assignment";
import { verifyPassword } from "./passwords";
import { organizationStore, storeAt, storeRoute, tableIsInStore } from "../stores/registry";
import { STORE_TABLES, type StoreTable } from "../stores/store-tables";

/** Rows read per query while exporting: one page is all of a list the export holds at once. */
export const EXPORT_PAGE_SIZE = 500;

/** Password confirmations of an account deletion, per account (a stolen token guessing it). */
const DELETION_ATTEMPTS_PER_USER: Limit = { max: 5, windowSeconds: 15 * 60 };

/** A row as read; every list is paged by its `id`. */
type Row = Record<string, unknown>;

/** A list of the document, read page by page in id order (keyset) while it is written. */
class PagedList {
  constructor(
    readonly pageAfter: (id: string) => Promise<Row[]>,
    /** What of a row goes in the document (the id may only be the cursor). */
    readonly shape: (row: Row) => unknown = (row) => row,
  ) {}
}

/** An object of the document whose fields may be paged lists. */
class JsonObject {
  constructor(readonly fields: Record<string, unknown>) {}
}

/** The JSON text of a value, in pieces: a paged list costs one page of memory at a time. */
async function* jsonPieces(value: unknown): AsyncGenerator<string> {
  if (value instanceof PagedList) {
    yield "[";
    let after = "";
    for (let first = true; ; first = false) {
      const page = await value.pageAfter(after);
      if (page.length > 0) {
        yield (first ? "" : ",") + page.map((row) => JSON.stringify(value.shape(row))).join(",");
      }
      if (page.length < EXPORT_PAGE_SIZE) break;
      after = page.at(-1)!.id as string;
    }
    yield "]";
  } else if (value instanceof JsonObject) {
    let separator = "{";
    for (const [key, field] of Object.entries(value.fields)) {
      yield `${separator}${JSON.stringify(key)}:`;
      separator = ",";
      yield* jsonPieces(field);
    }
    yield separator === "{" ? "{}" : "}";
  } else {
    yield JSON.stringify(value ?? null);
  }
}

/** A byte stream pulling the pieces one by one: nothing is read before the client wants it. */
function streamOf(pieces: AsyncGenerator<string>): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    async pull(controller) {
      try {
        const { value, done } = await pieces.next();
        if (done) controller.close();
        else controller.enqueue(encoder.encode(value));
      } catch (error) {
        // The 200 is already sent: the client sees a cut download, never a partial "success".
        console.error("export stream failed", error);
        controller.error(error);
      }
    },
    async cancel() {
      await pieces.return(undefined);
    },
  });
}

/** Every row of `table` matching `scope`, as a paged list in id order. */
function rowsOf(
  db: OrganizationDb,
  table: SQLiteTable & { id: SQLiteColumn },
  scope: SQL,
  /** Which columns, by their name in the document (`id` among them: it is the cursor). */
  columns: Record<string, SQLiteColumn> = getTableColumns(table),
  shape?: PagedList["shape"],
) {
  return new PagedList(
    (after) =>
      db
        .select(columns)
        .from(table)
        .where(and(scope, gt(table.id, after)))
        .orderBy(asc(table.id))
        .limit(EXPORT_PAGE_SIZE),
    shape,
  );
}

/**
 * Lists of the same rows from several places (D1, each organization's data), read as one in id
 * order: each page is the first of what each place has after the cursor.
 */
function merged(lists: PagedList[]) {
  return new PagedList(async (after) => {
    const pages = await Promise.all(lists.map((list) => list.pageAfter(after)));
    return pages
      .flat()
      .sort((a, b) => ((a.id as string) < (b.id as string) ? -1 : 1))
      .slice(0, EXPORT_PAGE_SIZE);
  }, lists[0]?.shape);
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

/**
 * The organizations whose data names the person: entries they made or that name their e-mail,
 * mentions of them. An organization they left, or that only invited them, may be among them.
 * One statement finds them among the organizations whose data is in D1 (`orgDb`): visiting
 * every organization would cost a statement or more each (docs/decisions/0053).
 */
async function organizationsNaming(orgDb: OrganizationDb, user: { id: string; email: string }) {
  const rows = await orgDb.all<{ organization_id: string }>(sql`
    SELECT organization_id FROM audit_events
    WHERE organization_id IS NOT NULL AND (user_id = ${user.id} OR target = ${user.email}
      OR json_extract(metadata, '$.email') = ${user.email})
    UNION SELECT organization_id FROM mentions WHERE user_id = ${user.id}`);
  return rows.map((row) => row.organization_id);
}

/** The person's rows in one organization's data: the entries they made, their mentions. */
function personIn(orgDb: OrganizationDb, organizationId: string, userId: string) {
  return {
    auditEvents: rowsOf(
      orgDb,
      auditEvents,
      and(eq(auditEvents.organizationId, organizationId), eq(auditEvents.userId, userId))!,
    ),
    mentions: rowsOf(
      orgDb,
      mentions,
      and(eq(mentions.organizationId, organizationId), eq(mentions.userId, userId))!,
      MENTION_COLUMNS,
    ),
  };
}

/** The organization's part of an owner's export: its row, its lists, its connections. */
async function organizationSection({ db, orgDb, env }: Deps, orgId: string) {
  const [organization, whatsapp, pixel] = await db.batch([
    db.select().from(organizations).where(eq(organizations.id, orgId)),
    // Connections without their secrets.
    db
      .select({
        phone_number: whatsappConnections.phoneNumber,
        phone_number_id: whatsappConnections.phoneNumberId,
        business_account_id: whatsappConnections.businessAccountId,
        status: whatsappConnections.status,
        connected_at: whatsappConnections.connectedAt,
      })
      .from(whatsappConnections)
      .where(eq(whatsappConnections.organizationId, orgId)),
    db
      .select({
        pixel_id: metaConnections.pixelId,
        status: metaConnections.status,
        created_at: metaConnections.createdAt,
      })
      .from(metaConnections)
      .where(eq(metaConnections.organizationId, orgId)),
  ]);
  const ofOrganization = (
    table: SQLiteTable & { id: SQLiteColumn; organizationId: SQLiteColumn },
  ) => rowsOf(orgDb, table, eq(table.organizationId, orgId));
  // What the store holds once the organization has moved there is read from the store.
  const route = await storeRoute(env, orgId);
  const ofOrganizationData = (table: StoreTable) =>
    tableIsInStore(route, table)
      ? new PagedList((after) => storeAt(env, route).page(orgId, table, after, EXPORT_PAGE_SIZE))
      : ofOrganization(STORE_TABLES[table].table);
  return new JsonObject({
    ...organization[0],
    members: rowsOf(
      db,
      memberships,
      eq(memberships.organizationId, orgId),
      { id: memberships.id, user_id: memberships.userId, role: memberships.role },
      ({ id: _, ...member }) => member,
    ),
    agents: ofOrganization(agents),
    conversations: ofOrganization(conversations),
    messages: ofOrganization(messages),
    tracking_sessions: ofOrganization(trackingSessions),
    conversions: ofOrganization(conversions),
    quick_replies: ofOrganizationData("quick_replies"),
    labels: ofOrganization(labels),
    mentions: ofOrganization(mentions),
    ai_calls: ofOrganization(aiCalls),
    whatsapp_connection: whatsapp[0] ?? null,
    pixel_connection: pixel[0] ?? null,
  });
}

/**
 * Everything about the caller; with the organization's data when the caller owns it. The
 * document is streamed as it is read, a page of rows at a time, so its size is bounded by
 * nothing the tenant stored. The person's entries and mentions are read in D1 and in each
 * organization whose data names them (`organizationsNaming`).
 */
export async function exportAccount(deps: Deps, caller: Caller) {
  const { db, orgDb } = deps;
  const user = await db.query.users.findFirst({ where: eq(users.id, caller.userId) });
  if (!user) throw unauthorized();
  const membership = await db.query.memberships.findFirst({
    where: eq(memberships.userId, caller.userId),
  });
  const everywhere = (await organizationsNaming(orgDb, user)).map((organizationId) =>
    personIn(orgDb, organizationId, caller.userId),
  );
  const document = new JsonObject({
    exported_at: new Date().toISOString(),
    user: { id: user.id, email: user.email, full_name: user.fullName, created_at: user.createdAt },
    membership: membership
      ? {
          organization_id: membership.organizationId,
          role: membership.role,
          available: membership.available,
          max_open: membership.maxOpen,
          joined_at: membership.createdAt,
        }
      : null,
    sessions: rowsOf(
      db,
      sessions,
      eq(sessions.userId, caller.userId),
      {
        id: sessions.id,
        created_at: sessions.createdAt,
        expires_at: sessions.expiresAt,
        revoked_at: sessions.revokedAt,
        user_agent: sessions.userAgent,
      },
      // A session's id is what its token carries: the export names it by its dates.
      ({ id: _, ...session }) => session,
    ),
    audit_events: merged([
      rowsOf(
        db,
        auditEvents,
        and(isNull(auditEvents.organizationId), eq(auditEvents.userId, caller.userId))!,
      ),
      ...everywhere.map((person) => person.auditEvents),
    ]),
    // What they wrote and were told in the team inbox: their notes in their organization
    // (found by its index, not by a walk of every organization's messages) and their mentions.
    notes: membership
      ? rowsOf(
          orgDb,
          messages,
          and(
            eq(messages.organizationId, membership.organizationId),
            eq(messages.senderUserId, caller.userId),
            eq(messages.direction, "internal"),
          )!,
          {
            id: messages.id,
            conversation_id: messages.conversationId,
            content: messages.content,
            mentions: messages.mentions,
            created_at: messages.createdAt,
          },
        )
      : [],
    mentions: merged(everywhere.map((person) => person.mentions)),
    ...(membership?.role === "owner"
      ? { organization: await organizationSection(deps, membership.organizationId) }
      : {}),
  });
  // A member's export is their organization's entry; an account's without one stays global.
  await recordAudit(membership ? orgDb : db, {
    action: "account.export",
    userId: caller.userId,
    organizationId: membership?.organizationId,
    ip: caller.ip,
  });
  return streamOf(jsonPieces(new JsonObject({ data: document })));
}

/** A rate-limit key naming `value` as one of its `:`-separated parts. */
const keyNames = (value: string) =>
  sql`instr(':' || ${rateLimits.key} || ':', ${`:${value}:`}) > 0`;

/**
 * What the account leaves behind elsewhere, stripped of the person (the privacy policy:
 * deleting the account removes your personal data). Their audit entries, and sign-in
 * attempts on their e-mail, keep what happened but lose the address it came from and the
 * e-mail; invitations to their e-mail go; rate-limit windows naming their e-mail or id go.
 * Invitations they sent and their entries' user id lose them by the schema (`set null`).
 * These are D1's statements; `forgetPersonIn` does each organization's trail.
 */
function forgetPerson(db: Db, user: { id: string; email: string }) {
  return [
    ...forgetInTrail(db, isNull(auditEvents.organizationId), user),
    db.delete(invitations).where(eq(invitations.email, user.email)),
    db.delete(rateLimits).where(or(keyNames(user.email), keyNames(user.id))),
  ];
}

/** The audit entries among `entries` naming the person, stripped of their e-mail and address. */
function forgetInTrail(db: OrganizationDb, entries: SQL, user: { id: string; email: string }) {
  return [
    db
      .update(auditEvents)
      .set({ ip: null, metadata: sql`json_remove(${auditEvents.metadata}, '$.email')` })
      .where(
        and(
          entries,
          or(
            eq(auditEvents.userId, user.id),
            sql`json_extract(${auditEvents.metadata}, '$.email') = ${user.email}`,
          ),
        ),
      ),
    db
      .update(auditEvents)
      .set({ target: null })
      .where(and(entries, eq(auditEvents.target, user.email))),
  ] as const;
}

/** One organization's trail stripped of the person, all or nothing. */
async function forgetPersonIn(
  orgDb: OrganizationDb,
  organizationId: string,
  user: { id: string; email: string },
) {
  await orgBatch(orgDb, forgetInTrail(orgDb, eq(auditEvents.organizationId, organizationId), user));
}

/**
 * Deletes the account after checking the password. When the caller is the organization's
 * only owner, the organization goes too, with all its data (cascading deletes). The
 * person's open sockets are closed once the deletion is stored.
 */
export async function deleteAccount(
  deps: Deps,
  caller: Caller,
  { password }: { password: string },
) {
  const { db } = deps;
  const user = await db.query.users.findFirst({ where: eq(users.id, caller.userId) });
  if (!user) throw unauthorized();
  await takeHits(db, [
    { key: `account-delete:user:${user.id}`, limit: DELETION_ATTEMPTS_PER_USER },
  ]);
  if (!(await verifyPassword(password, user.passwordHash))) {
    throw new AppError(422, "validation_error", "La contraseña no es correcta.", [
      { path: "password", message: "La contraseña no es correcta." },
    ]);
  }
  const membership = await db.query.memberships.findFirst({
    where: eq(memberships.userId, caller.userId),
  });
  let organizationDeleted = false;
  if (membership?.role === "owner") {
    const otherOwner = await db.query.memberships.findFirst({
      where: and(
        eq(memberships.organizationId, membership.organizationId),
        eq(memberships.role, "owner"),
        ne(memberships.userId, caller.userId),
      ),
    });
    organizationDeleted = !otherOwner;
  }
  // Found before the registry's row goes with the organization.
  const storeToErase = organizationDeleted
    ? await organizationStore(deps.env, membership!.organizationId)
    : null;
  // Every organization's trail first (one that invited them, or that they left, may name them):
  // the user's deletion sets their entries' user id to null, after which they could not be
  // found; a failure here leaves the account, whose deletion can be asked again.
  for (const organizationId of await organizationsNaming(deps.orgDb, user)) {
    await forgetPersonIn(deps.orgDb, organizationId, user);
  }
  const stays = organizationDeleted ? null : (membership?.organizationId ?? null);
  // Without the address: it would be the person's, kept after they asked to be forgotten.
  const deletion: AuditEntry = {
    action: "account.delete",
    organizationId: stays,
    metadata: { organization_deleted: organizationDeleted },
  };
  // What they held goes back to the team like a removed member's, before they are deleted
  // (the user's deletion would otherwise clear `assignee_id` unaudited and unannounced).
  await releaseOnLeaving(
    deps,
    {
      userId: user.id,
      how: "account_deleted",
      // A deleted organization takes what it holds with it, with nothing to release or announce.
      organizationId: stays,
      by: null,
      ip: null,
    },
    [
      ...(organizationDeleted
        ? [db.delete(organizations).where(eq(organizations.id, membership!.organizationId))]
        : []),
      ...forgetPerson(db, user),
      // Sessions go with the user (cascade): every token of the account stops working now.
      db.delete(users).where(eq(users.id, user.id)),
      // An account's entry goes with its deletion; an organization's is written after it.
      ...(stays === null ? [auditStatement(db, deletion)] : []),
    ],
  );
  // Once deleted: a failure between leaves a deletion without its entry, never an entry for
  // an account still there.
  if (stays !== null) await recordAudit(deps.orgDb, deletion);
  if (storeToErase) await eraseStore(storeToErase, membership!.organizationId);
  else if (membership) {
    await closeSockets(deps.env, membership.organizationId, { userId: user.id });
  }
  return { organization_deleted: organizationDeleted };
}

/** A deleted organization's store: its sockets closed, its storage gone (logged if it fails). */
async function eraseStore(
  store: Awaited<ReturnType<typeof organizationStore>>,
  organizationId: string,
) {
  try {
    await store.erase(organizationId);
  } catch (error) {
    console.error("erasing a deleted organization's store failed", organizationId, error);
  }
}
