import { and, desc, eq, inArray, lt, or, sql, type SQL } from "drizzle-orm";
import type { SQLiteColumn, SQLiteTable } from "drizzle-orm/sqlite-core";
import type { Db } from "../../worker/db/client";
import type { OrganizationDb } from "../db";
import { uuidv7Sql } from "../../worker/db/ids";
import { users } from "../../worker/db/global-schema";
import { auditEvents } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { notFound } from "../../worker/http/errors";
import { auditRow, type AuditEntry } from "../../worker/audit/trail";
import type { z } from "zod/mini";
import type { AuditAction, AuditLogPage, auditLogQuery } from "../../contracts/audit";

/** The statement recording an organization's entry, for a batch that must store it with the change. */
export const auditStatement = (db: OrganizationDb, entry: AuditEntry) =>
  db.insert(auditEvents).values(auditRow(entry));

/**
 * One entry per row `rows` selects, written by one INSERT ... SELECT: however many rows, the
 * statement binds the same few parameters (D1 allows 100), and it can run in the batch that
 * changes those rows (before the change, while the selection still finds them). Each entry's
 * organization and target come from its row; each id is a UUIDv7 made by SQL.
 */
export function auditEachRow(
  db: OrganizationDb,
  entry: Omit<AuditEntry, "organizationId" | "target">,
  rows: {
    from: SQLiteTable;
    organizationId: SQLiteColumn;
    target: SQLiteColumn;
    where: SQL | undefined;
  },
) {
  const now = new Date();
  // Named: drizzle takes a computed column into INSERT ... SELECT only with an alias.
  const value = (v: unknown, name: string) => sql`${v}`.as(name);
  return db.insert(auditEvents).select(
    db
      .select({
        id: uuidv7Sql(now.getTime()).as("id"),
        organizationId: rows.organizationId,
        userId: value(entry.userId ?? null, "user_id"),
        action: value(entry.action, "action"),
        target: rows.target,
        metadata: value(
          entry.metadata === undefined ? null : JSON.stringify(entry.metadata),
          "metadata",
        ),
        ip: value(entry.ip ?? null, "ip"),
        createdAt: value(now.toISOString(), "created_at"),
      })
      .from(rows.from)
      .where(rows.where),
  );
}

/** Records an organization's security-relevant event. Never put secrets in `metadata`. */
export async function recordAudit(db: OrganizationDb, entry: AuditEntry) {
  await auditStatement(db, entry);
}

/**
 * One page of the member's organization's audit trail, newest first: the entries from the
 * organization's data, then the people they name from the global users, one query a page.
 */
export async function listAuditLog(
  { db, orgDb }: StoreDeps,
  member: Member,
  query: z.output<typeof auditLogQuery>,
): Promise<AuditLogPage> {
  const inOrganization = eq(auditEvents.organizationId, member.organizationId);
  let where = inOrganization;
  if (query.before) {
    // The anchor must be this organization's: another's id is simply not found.
    const anchor = await orgDb.query.auditEvents.findFirst({
      where: and(eq(auditEvents.id, query.before), inOrganization),
      columns: { id: true, createdAt: true },
    });
    if (!anchor) throw notFound("Entrada del registro no encontrada.");
    where = and(
      inOrganization,
      or(
        lt(auditEvents.createdAt, anchor.createdAt),
        and(eq(auditEvents.createdAt, anchor.createdAt), lt(auditEvents.id, anchor.id)),
      ),
    )!;
  }
  const rows = await orgDb
    .select()
    .from(auditEvents)
    .where(where)
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(query.limit + 1);
  const page = rows.slice(0, query.limit);
  const memberTarget = (event: (typeof page)[number]) =>
    MEMBER_TARGET_ACTIONS.has(event.action) ? event.target : null;
  const people = await usersNamed(db, [
    ...page.map((event) => event.userId),
    ...page.map(memberTarget),
  ]);
  return {
    entries: page.map((event) => {
      const actor = event.userId === null ? undefined : people.get(event.userId);
      const target = memberTarget(event);
      return {
        id: event.id,
        action: event.action as AuditAction,
        actor: actor ? { name: actor.fullName, email: actor.email } : null,
        target: target === null ? event.target : (people.get(target)?.email ?? target),
        details: event.metadata ?? null,
        ip: event.ip,
        created_at: event.createdAt,
      };
    }),
    has_more: rows.length > query.limit,
  };
}

/**
 * Actions whose target is a member's user id, stored only after the server found that
 * member in the entry's organization. Other targets are free text an admin chose (an
 * agent's name, a phone number id) and are shown as stored: resolving them as user ids
 * would let an agent named after another organization's user id reveal that user's e-mail.
 */
const MEMBER_TARGET_ACTIONS: ReadonlySet<string> = new Set<AuditAction>([
  "member.role_change",
  "member.remove",
]);

/**
 * The people a page names, by id: its actors, and its member targets, which the log names by
 * e-mail (the organization's admins saw it in the team list anyway). One query for the page;
 * an account deleted since is simply not found.
 */
async function usersNamed(db: Db, ids: (string | null)[]) {
  const unique = [...new Set(ids.filter((id): id is string => id !== null))];
  if (unique.length === 0) return new Map<string, { fullName: string; email: string }>();
  const rows = await db
    .select({ id: users.id, fullName: users.fullName, email: users.email })
    .from(users)
    .where(inArray(users.id, unique));
  return new Map(rows.map(({ id, ...person }) => [id, person]));
}
