/**
 * Follow-ups (contract section 17): every member reads the organization's rules and what they
 * did; owners and admins create, change and delete them. The store's `follow_ups` job sends
 * them (./sending.ts).
 */
import { and, asc, count, eq, sql } from "drizzle-orm";
import type { OrganizationDb } from "../db";
import { followUpSends, followUps } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError, notFound, validationError } from "../../worker/http/errors";
import { recordAudit } from "../audit/service";
import type { AuditAction } from "../../contracts/audit";
import { checkOwnLabels } from "../broadcasts/audience";
import { usableTemplate } from "../broadcasts/service";
import { followUpsChanged } from "./waits";
import {
  MAX_FOLLOW_UPS,
  followUpInput,
  type FollowUp,
  type FollowUpInput,
  type FollowUpStats,
  type FollowUpUpdate,
} from "../../contracts/follow-ups";

export type FollowUpRow = typeof followUps.$inferSelect;

/** A reply within this long of a follow-up counts as its answer (as a broadcast's). */
const REPLY_WINDOW_HOURS = 72;

const followUpNotFound = () => notFound("Seguimiento no encontrado.");

const scoped = (member: Member, id: string) =>
  and(eq(followUps.id, id), eq(followUps.organizationId, member.organizationId));

const toFollowUp = (row: FollowUpRow, stats: FollowUpStats): FollowUp => ({
  id: row.id,
  name: row.name,
  enabled: row.enabled,
  trigger: {
    no_reply_minutes: row.noReplyMinutes,
    label_ids: row.labelIds,
    stages: row.stages,
  },
  template:
    row.templateName && row.templateLanguage && row.templateCategory
      ? {
          name: row.templateName,
          language: row.templateLanguage,
          category: row.templateCategory,
          parameters: row.templateParameters ?? [],
        }
      : null,
  text: row.text,
  max_per_conversation: row.maxPerConversation,
  stats,
  created_by: row.createdBy,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

const NO_STATS: FollowUpStats = { sent: 0, free: 0, replied: 0, failed: 0, skipped: 0 };

/**
 * What each rule did, in two grouped reads: its sends by state, and those the customer answered
 * within 72 h (a customer message of the conversation in that time; Meta's times are whole
 * seconds, so one in the send's own second counts).
 */
async function statsOf(db: OrganizationDb, organizationId: string, ids: string[]) {
  const byId = new Map(ids.map((id) => [id, { ...NO_STATS }]));
  if (ids.length === 0) return byId;
  const ofRules = and(
    eq(followUpSends.organizationId, organizationId),
    sql`${followUpSends.followUpId} IN (SELECT value FROM json_each(${JSON.stringify(ids)}))`,
  );
  const [byState, replied] = await Promise.all([
    db
      .select({
        id: followUpSends.followUpId,
        state: followUpSends.state,
        free: followUpSends.free,
        n: count(),
      })
      .from(followUpSends)
      .where(ofRules)
      .groupBy(followUpSends.followUpId, followUpSends.state, followUpSends.free),
    db
      .select({ id: followUpSends.followUpId, n: count() })
      .from(followUpSends)
      .where(
        and(
          ofRules,
          eq(followUpSends.state, "sent"),
          sql`EXISTS (SELECT 1 FROM messages AS m
            WHERE m.conversation_id = ${followUpSends.conversationId}
              AND m.direction = 'inbound'
              AND m.created_at >= strftime('%Y-%m-%dT%H:%M:%S.000Z', ${followUpSends.sentAt})
              AND m.created_at < strftime('%Y-%m-%dT%H:%M:%fZ', ${followUpSends.sentAt},
                '+${sql.raw(String(REPLY_WINDOW_HOURS))} hours'))`,
        ),
      )
      .groupBy(followUpSends.followUpId),
  ]);
  for (const { id, state, free, n } of byState) {
    // One being sent now is counted once Meta has answered.
    if (state === "sending") continue;
    const stats = byId.get(id)!;
    stats[state] += n;
    if (free && state === "sent") stats.free += n;
  }
  for (const { id, n } of replied) byId.get(id)!.replied = n;
  return byId;
}

async function shaped(deps: StoreDeps, organizationId: string, rows: FollowUpRow[]) {
  const stats = await statsOf(
    deps.orgDb,
    organizationId,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toFollowUp(row, stats.get(row.id)!));
}

// ---------------------------------------------------------------------------------------------
// Reading.

/** The organization's rules (at most `MAX_FOLLOW_UPS`), oldest first: the order they were set up in. */
export async function listFollowUps(deps: StoreDeps, member: Member) {
  const rows = await deps.orgDb
    .select()
    .from(followUps)
    .where(eq(followUps.organizationId, member.organizationId))
    .orderBy(asc(followUps.id));
  return shaped(deps, member.organizationId, rows);
}

async function findFollowUp(db: OrganizationDb, member: Member, id: string) {
  const [row] = await db.select().from(followUps).where(scoped(member, id));
  if (!row) throw followUpNotFound();
  return row;
}

export async function getFollowUp(deps: StoreDeps, member: Member, id: string) {
  const row = await findFollowUp(deps.orgDb, member, id);
  return (await shaped(deps, member.organizationId, [row]))[0]!;
}

// ---------------------------------------------------------------------------------------------
// Writing (managers).

/** The columns of a valid rule: its template checked against the account's list. */
async function ruleColumns(deps: StoreDeps, organizationId: string, rule: FollowUpInput) {
  const category =
    rule.template && (await usableTemplate(deps, organizationId, rule.template, "Un seguimiento"));
  await checkOwnLabels(deps.orgDb, organizationId, rule.trigger.label_ids, "de la regla");
  return {
    name: rule.name,
    enabled: rule.enabled,
    noReplyMinutes: rule.trigger.no_reply_minutes,
    labelIds: [...new Set(rule.trigger.label_ids ?? [])],
    stages: [...new Set(rule.trigger.stages ?? [])],
    templateName: rule.template?.name ?? null,
    templateLanguage: rule.template?.language ?? null,
    templateCategory: category || null,
    templateParameters: rule.template?.parameters ?? null,
    text: rule.text ?? null,
    maxPerConversation: rule.max_per_conversation,
  };
}

async function audit(deps: StoreDeps, member: Member, action: AuditAction, row: FollowUpRow) {
  await recordAudit(deps.orgDb, {
    action,
    organizationId: member.organizationId,
    userId: member.userId,
    metadata: { follow_up_id: row.id, name: row.name, enabled: row.enabled },
  });
}

export async function createFollowUp(deps: StoreDeps, member: Member, input: FollowUpInput) {
  const { organizationId } = member;
  const [existing] = await deps.orgDb
    .select({ n: count() })
    .from(followUps)
    .where(eq(followUps.organizationId, organizationId));
  if ((existing?.n ?? 0) >= MAX_FOLLOW_UPS) {
    throw new AppError(
      422,
      "too_many_follow_ups",
      `Como mucho ${MAX_FOLLOW_UPS} seguimientos por organización: borra o cambia uno.`,
    );
  }
  const now = new Date().toISOString();
  const [row] = await deps.orgDb
    .insert(followUps)
    .values({
      organizationId,
      ...(await ruleColumns(deps, organizationId, input)),
      activeSince: now,
      createdBy: member.userId,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  await audit(deps, member, "follow_up.create", row!);
  if (row!.enabled) await followUpsChanged(deps);
  return (await shaped(deps, organizationId, [row!]))[0]!;
}

/** The rule as the API writes it, to apply a change to and check whole. */
function asInput(row: FollowUpRow) {
  const { name, enabled, trigger, template, text, max_per_conversation } = toFollowUp(
    row,
    NO_STATS,
  );
  const written = template && {
    name: template.name,
    language: template.language,
    parameters: template.parameters,
  };
  return { name, enabled, trigger, template: written, text, max_per_conversation };
}

/**
 * Applies a change and checks the rule it makes as a new one would be. Enabling it, or changing
 * its wait, starts it afresh: waits already past the new delay are not written to at once.
 */
export async function updateFollowUp(
  deps: StoreDeps,
  member: Member,
  { id, changes }: { id: string; changes: FollowUpUpdate },
) {
  const { organizationId } = member;
  const current = await findFollowUp(deps.orgDb, member, id);
  const merged = { ...asInput(current), ...withoutUndefined(changes) };
  const checked = followUpInput.safeParse(merged);
  if (!checked.success) throw validationError(checked.error);
  const columns = await ruleColumns(deps, organizationId, checked.data);
  const restarts =
    (columns.enabled && !current.enabled) || columns.noReplyMinutes !== current.noReplyMinutes;
  const now = new Date().toISOString();
  const [row] = await deps.orgDb
    .update(followUps)
    .set({ ...columns, ...(restarts && { activeSince: now }), updatedAt: now })
    .where(scoped(member, id))
    .returning();
  if (!row) throw followUpNotFound();
  await audit(deps, member, "follow_up.update", row);
  if (row.enabled) await followUpsChanged(deps);
  return (await shaped(deps, organizationId, [row]))[0]!;
}

const withoutUndefined = <T extends object>(object: T) =>
  Object.fromEntries(Object.entries(object).filter(([, value]) => value !== undefined));

/** Deletes a rule and what it sent (the messages stay in their conversations). */
export async function deleteFollowUp(deps: StoreDeps, member: Member, id: string) {
  const [row] = await deps.orgDb.delete(followUps).where(scoped(member, id)).returning();
  if (!row) throw followUpNotFound();
  await audit(deps, member, "follow_up.delete", row);
}
