/**
 * The privacy policy's rights as endpoints: a copy of everything stored about the caller
 * (portability), and deleting the account (erasure), which revokes every token at once and
 * removes the person's e-mail and addresses from what the account leaves behind.
 */
import { and, eq, isNull, ne, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import { accountAuditStatement, type AuditEntry } from "../audit/trail";
import type { Db } from "../db/client";
import {
  accountAuditEvents,
  deletedOrganizations,
  invitations,
  memberships,
  metaConnections,
  organizations,
  rateLimits,
  sessions,
  users,
  whatsappConnections,
} from "../db/global-schema";
import type { Caller } from "../http/context";
import type { Deps } from "../http/deps";
import { AppError, unauthorized } from "../http/errors";
import { takeHits, type Limit } from "../http/rate-limit";
import { closeSockets } from "../realtime/close-sockets";
import { forgetPersonAmongPeople, organizationsOf } from "../organizations/people";
import { verifyPassword } from "./passwords";
import {
  EXPORT_PAGE_SIZE,
  forgetInTrail,
  pageOfRows,
  type ExportList,
  type ExportRow,
  type Person,
} from "./account-in-organization";
import { auditAccount, auditIn, inOrganizationData } from "../stores/organization-parts";
import { organizationStore, storeRefused } from "../stores/registry";
import { STORE_TABLE_NAMES, keyOf, type StoreTable } from "../stores/store-tables";

export { EXPORT_PAGE_SIZE };

/** Password confirmations of an account deletion, per account (a stolen token guessing it). */
const DELETION_ATTEMPTS_PER_USER: Limit = { max: 5, windowSeconds: 15 * 60 };

/** A row as read; every list is paged by its `id`. */
type Row = ExportRow;

/** A list of the document, read page by page in key order (keyset) while it is written. */
class PagedList {
  constructor(
    readonly pageAfter: (cursor: string) => Promise<Row[]>,
    /** What of a row goes in the document (the id may only be the cursor). */
    readonly shape: (row: Row) => unknown = (row) => row,
    /** The cursor after a row: its id, or its table's key (a table keyed otherwise). */
    readonly cursorOf: (row: Row) => string = (row) => row.id as string,
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
      after = value.cursorOf(page.at(-1)!);
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

/** Every row of a global `table` matching `scope`, as a paged list in id order. */
function rowsOf(
  db: Db,
  table: SQLiteTable & { id: SQLiteColumn },
  scope: SQL,
  columns?: Record<string, SQLiteColumn>,
  shape?: PagedList["shape"],
) {
  return new PagedList((after) => pageOfRows(db, table, scope, columns, after), shape);
}

/** The person's rows of a list in one organization's data, read where that data is. */
const personalList = (deps: Deps, organizationId: string, list: ExportList) =>
  new PagedList((after) =>
    inOrganizationData(deps, organizationId, { kind: "export-page", list, after }),
  );

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

/**
 * The organizations whose data may name the person: those that have had them (as a member, or
 * by inviting them), and the one they belong to now, however its membership was made.
 */
async function organizationsNaming(
  db: Db,
  person: Person,
  membership?: { organizationId: string },
) {
  const known = await organizationsOf(db, person);
  return [...new Set([...known, ...(membership ? [membership.organizationId] : [])])];
}

/**
 * The organization's tables an owner's export leaves out: the bookkeeping of syncs and of work
 * under way, and the security trail (each person's own entries are in their own export; the
 * other members' addresses are not the owner's to take).
 */
const NOT_EXPORTED = new Set<StoreTable>([
  "ad_spend_syncs",
  "message_cost_syncs",
  "history_pages",
  "held_statuses",
  "audit_events",
  // Single-use keys to book, not the customer's data.
  "flow_tokens",
  // Button presses waiting for the store's job: work under way (decision 0123).
  "booking_reminder_answers",
]);

/** The organization's part of an owner's export: its row, its lists, its connections. */
async function organizationSection({ db, env }: Deps, orgId: string) {
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
  // Each table read from the store, a page a call.
  const store = await organizationStore(env, orgId);
  const ofOrganization = (table: StoreTable) =>
    new PagedList(
      (after) =>
        store
          .page(orgId, table, after, EXPORT_PAGE_SIZE)
          .then((rows) => rows ?? Promise.reject(storeRefused(orgId, "the export"))),
      (row) => row,
      (row) => keyOf(table, row),
    );
  return new JsonObject({
    ...organization[0],
    members: rowsOf(
      db,
      memberships,
      eq(memberships.organizationId, orgId),
      { id: memberships.id, user_id: memberships.userId, role: memberships.role },
      ({ id: _, ...member }) => member,
    ),
    ...Object.fromEntries(
      STORE_TABLE_NAMES.filter((table) => !NOT_EXPORTED.has(table)).map((table) => [
        table,
        ofOrganization(table),
      ]),
    ),
    whatsapp_connection: whatsapp[0] ?? null,
    pixel_connection: pixel[0] ?? null,
  });
}

/**
 * Everything about the caller; with the organization's data when the caller owns it. The
 * document is streamed as it is read, a page of rows at a time, so its size is bounded by
 * nothing the tenant stored. The person's entries and mentions are read in D1 and in each
 * organization whose data may name them (`organizationsNaming`), in its store.
 */
export async function exportAccount(deps: Deps, caller: Caller) {
  const { db } = deps;
  const user = await db.query.users.findFirst({ where: eq(users.id, caller.userId) });
  if (!user) throw unauthorized();
  const membership = await db.query.memberships.findFirst({
    where: eq(memberships.userId, caller.userId),
  });
  const naming = await organizationsNaming(db, user, membership);
  const everywhere = (name: ExportList["name"]) =>
    naming.map((organizationId) =>
      personalList(deps, organizationId, { name, userId: caller.userId }),
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
        accountAuditEvents,
        and(
          isNull(accountAuditEvents.organizationId),
          eq(accountAuditEvents.userId, caller.userId),
        )!,
      ),
      ...everywhere("audit_events"),
    ]),
    // What they wrote and were told in the team inbox: their notes in their organization
    // (found by its index, not by a walk of every organization's messages) and their mentions.
    notes: membership
      ? personalList(deps, membership.organizationId, { name: "notes", userId: caller.userId })
      : [],
    mentions: merged(everywhere("mentions")),
    ...(membership?.role === "owner"
      ? { organization: await organizationSection(deps, membership.organizationId) }
      : {}),
  });
  // A member's export is their organization's entry; an account's without one stays global.
  await auditAccount(deps, membership?.organizationId ?? null, {
    action: "account.export",
    userId: caller.userId,
    ip: caller.ip,
  });
  return streamOf(jsonPieces(new JsonObject({ data: document })));
}

/** A rate-limit key naming `value` as one of its `:`-separated parts. */
const keyNames = (value: string) =>
  sql`instr(':' || ${rateLimits.key} || ':', ${`:${value}:`}) > 0`;

/**
 * What the account leaves behind in D1, stripped of the person (the privacy policy: deleting
 * the account removes your personal data). Their audit entries, and sign-in attempts on their
 * e-mail, keep what happened but lose the address it came from and the e-mail; invitations to
 * their e-mail go, and so do the rows saying which organizations had them; rate-limit windows
 * naming their e-mail or id go. Invitations they sent and their entries' user id lose them by
 * the schema (`set null`). Each organization's data is done by `forgetPersonIn`, where it is.
 */
function forgetPerson(db: Db, person: Person) {
  return [
    ...forgetInTrail(db, accountAuditEvents, isNull(accountAuditEvents.organizationId), person),
    db.delete(invitations).where(eq(invitations.email, person.email)),
    forgetPersonAmongPeople(db, person),
    db.delete(rateLimits).where(or(keyNames(person.email), keyNames(person.id))),
  ] as const;
}

/**
 * Deletes the account after checking the password. When the caller is the organization's
 * only owner, the organization goes too, with all its data (cascading deletes in D1, its store
 * erased). The person's open sockets are closed once the deletion is stored.
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
  const person: Person = { id: user.id, email: user.email };
  const membership = await db.query.memberships.findFirst({
    where: eq(memberships.userId, caller.userId),
  });
  // Their organization goes with its only owner.
  const deleted =
    membership?.role === "owner" && !(await anotherOwner(db, membership.organizationId, user.id))
      ? membership.organizationId
      : null;
  const organizationDeleted = deleted !== null;
  // Found before the registry's row goes with the organization.
  const storeToErase = deleted === null ? null : await organizationStore(deps.env, deleted);
  const stays = organizationDeleted ? null : (membership?.organizationId ?? null);
  // What they held goes back to the team like a removed member's, audited and announced,
  // before anything below clears `assignee_id` silently. A deleted organization takes what it
  // holds with it, with nothing to release or announce.
  if (stays !== null) {
    await inOrganizationData(deps, stays, {
      kind: "release",
      leaving: { userId: user.id, how: "account_deleted", by: null, ip: null },
    });
  }
  // Then every organization that had them (one that invited them, or that they left, may name
  // them), in its store, before the account goes: after that, nothing says which
  // organizations to visit. A failure here leaves the account, whose deletion can be asked
  // again.
  for (const organizationId of await organizationsNaming(db, person, membership)) {
    if (organizationId === deleted) continue;
    await inOrganizationData(deps, organizationId, { kind: "forget", person });
  }
  // Without the address: it would be the person's, kept after they asked to be forgotten.
  const deletion = {
    action: "account.delete",
    metadata: { organization_deleted: organizationDeleted },
  } satisfies AuditEntry;
  await db.batch([
    ...forgetPerson(db, person),
    ...(deleted === null
      ? []
      : [
          db.delete(organizations).where(eq(organizations.id, deleted)),
          // The evidence its store needs to erase itself should the erase below fail.
          db
            .insert(deletedOrganizations)
            .values({ organizationId: deleted, deletedAt: new Date().toISOString() })
            .onConflictDoNothing(),
        ]),
    // Sessions go with the user (cascade): every token of the account stops working now.
    db.delete(users).where(eq(users.id, user.id)),
    // An account's entry goes with its deletion; an organization's is written after it.
    ...(stays === null ? [accountAuditStatement(db, deletion)] : []),
  ]);
  // Once deleted: a failure between leaves a deletion without its entry, never an entry for
  // an account still there.
  if (stays !== null) await auditIn(deps, stays, deletion);
  if (storeToErase) {
    // After D1's batch: erased first, a failed batch would leave a live organization with an
    // erased store. Erased, the store refuses every later call; should the erase fail, the
    // store erases itself when its alarm next finds the organization gone (0067).
    await storeToErase.erase(deleted!).catch((error: unknown) => {
      console.error("erasing a deleted organization's store failed", deleted, error);
    });
  } else if (membership) {
    await closeSockets(deps.env, membership.organizationId, { userId: user.id });
  }
  return { organization_deleted: organizationDeleted };
}

/** Another owner of the organization than this user, if any. */
const anotherOwner = (db: Db, organizationId: string, userId: string) =>
  db.query.memberships.findFirst({
    where: and(
      eq(memberships.organizationId, organizationId),
      eq(memberships.role, "owner"),
      ne(memberships.userId, userId),
    ),
    columns: { id: true },
  });
