/**
 * Labels: managers define them (unique name per organization), every member puts them on
 * conversations. A conversation shows its labels from a JSON copy kept beside
 * `conversation_labels` (what the list filters on), so every copy of a conversation the
 * console receives, whatever event brought it, carries them.
 */
import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod/mini";
import { recordAudit } from "../audit/service";
import { orgBatch, type OrganizationDb } from "../db";
import { uuidv7 } from "../../worker/db/ids";
import { conversationLabels, conversations, labels } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError, conflict, notFound } from "../../worker/http/errors";
import { conversationNotFound, findConversation } from "../conversations/find";
import { conversationUpdate, toConversation } from "../conversations/mappers";
import {
  LABELS_MAX,
  LABELS_TOO_MANY,
  type Label,
  type conversationLabelsInput,
  type labelInput,
  type labelUpdateInput,
} from "../../contracts/team-inbox";

const labelNotFound = () => notFound("Etiqueta no encontrada.");
const nameTaken = () => conflict("Ya existe una etiqueta con ese nombre.");
const tooMany = () => new AppError(422, "label_limit", LABELS_TOO_MANY);

/** How many labels the organization has, as a guard inside the statement that writes. */
const labelsOf = (organizationId: string) =>
  sql`(SELECT count(*) FROM ${labels} WHERE ${labels.organizationId} = ${organizationId})`;

const toLabel = (row: typeof labels.$inferSelect): Label => ({
  id: row.id,
  name: row.name,
  color: row.color,
  created_at: row.createdAt,
});

/** The JSON copy of a conversation's labels, made again from the join (ordered by name). */
const labelsOfConversation = sql`(
  SELECT json_group_array(json_object('id', l.id, 'name', l.name, 'color', l.color))
  FROM (SELECT l.id, l.name, l.color FROM ${conversationLabels} AS cl
        JOIN ${labels} AS l ON l.id = cl.label_id
        WHERE cl.conversation_id = ${conversations.id} ORDER BY l.name) AS l)`;

/**
 * Every label at once: the console's filters and pickers need them all, and the cap keeps the
 * list one bounded answer, so it is not paged (the limit only restates the cap).
 */
export async function listLabels({ orgDb }: StoreDeps, member: Member) {
  const rows = await orgDb
    .select()
    .from(labels)
    .where(eq(labels.organizationId, member.organizationId))
    .orderBy(asc(labels.name))
    .limit(LABELS_MAX);
  return rows.map(toLabel);
}

/**
 * A new label, within the organization's cap. The count is read by the insert itself (one
 * statement; D1 runs one writer at a time), so two managers creating the last one at once get
 * one 201 and one 422, never a label past the cap.
 */
export async function createLabel(
  { orgDb }: StoreDeps,
  member: Member,
  input: z.output<typeof labelInput>,
) {
  const { organizationId } = member;
  const now = new Date().toISOString();
  // Every column of `labels` in the table's order; none past the cap. (The WHERE also keeps
  // SQLite from reading the ON CONFLICT that follows as part of the SELECT.)
  const [row] = await orgDb
    .insert(labels)
    .select(
      sql`SELECT ${uuidv7()}, ${organizationId}, ${input.name}, ${input.color}, ${now}, ${now}
        WHERE ${labelsOf(organizationId)} < ${LABELS_MAX}`,
    )
    .onConflictDoNothing()
    .returning();
  if (!row) throw (await atCap(orgDb, organizationId)) ? tooMany() : nameTaken();
  await recordAudit(orgDb, {
    action: "label.create",
    organizationId: member.organizationId,
    userId: member.userId,
    target: row.id,
    metadata: { name: row.name },
    ip: member.ip,
  });
  return toLabel(row);
}

/** Renaming or recolouring reaches every conversation wearing the label, and every console. */
export async function updateLabel(
  deps: StoreDeps,
  member: Member,
  { id, changes }: { id: string; changes: z.output<typeof labelUpdateInput> },
) {
  const { orgDb } = deps;
  await findLabel(deps, member, id);
  // A name another label holds is refused in the statement that writes, so two renames to
  // the same name at once get one 409 rather than the unique index's error (a 500).
  const nameFree = changes.name
    ? sql`NOT EXISTS (SELECT 1 FROM ${labels} AS other
        WHERE other.organization_id = ${member.organizationId}
          AND other.name = ${changes.name} AND other.id <> ${id})`
    : undefined;
  const [[row]] = await orgBatch(orgDb, [
    orgDb
      .update(labels)
      .set({ name: changes.name, color: changes.color, updatedAt: new Date().toISOString() })
      .where(and(eq(labels.id, id), nameFree))
      .returning(),
    refreshWearers(deps, id),
  ]);
  if (!row) throw nameTaken();
  await recordAudit(orgDb, {
    action: "label.update",
    organizationId: member.organizationId,
    userId: member.userId,
    target: id,
    metadata: { name: row!.name, color: row!.color },
    ip: member.ip,
  });
  await announceWearers(deps, member.organizationId, id);
  return toLabel(row!);
}

/**
 * Deleting a label takes it off every conversation. The consoles hear of the conversations the
 * batch itself changed: one labelled after a read before it would be missed, its chip kept.
 */
export async function deleteLabel(deps: StoreDeps, member: Member, { id }: { id: string }) {
  const { orgDb } = deps;
  const current = await findLabel(deps, member, id);
  const [wearers] = await orgBatch(orgDb, [
    // The copies lose the label first; then the label goes, and the join rows with it.
    orgDb
      .update(conversations)
      .set({
        labels: sql`(SELECT json_group_array(json(value)) FROM json_each(${conversations.labels})
          WHERE value ->> 'id' <> ${id})`,
      })
      .where(wornBy(id))
      .returning({ id: conversations.id }),
    orgDb.delete(labels).where(eq(labels.id, id)),
  ]);
  await recordAudit(orgDb, {
    action: "label.delete",
    organizationId: member.organizationId,
    userId: member.userId,
    target: id,
    metadata: { name: current.name },
    ip: member.ip,
  });
  await announce(
    deps,
    member.organizationId,
    wearers.map((w) => w.id),
  );
}

/** `PUT /conversations/{id}/labels`: the conversation wears exactly these labels. */
export async function setConversationLabels(
  deps: StoreDeps,
  member: Member,
  { id, label_ids }: { id: string } & z.output<typeof conversationLabelsInput>,
) {
  const { orgDb } = deps;
  const conversation = await findConversation(orgDb, member.organizationId, id);
  const wanted = [...new Set(label_ids)];
  if (wanted.length > 0) {
    const own = await orgDb
      .select({ id: labels.id })
      .from(labels)
      .where(and(eq(labels.organizationId, member.organizationId), inArray(labels.id, wanted)));
    if (own.length !== wanted.length) throw labelNotFound();
  }
  // Only what still exists is written: a label (or the conversation) deleted since the checks
  // above is left out, as if deleted just after, instead of failing a foreign key (a 500).
  const [, , [row]] = await orgBatch(orgDb, [
    orgDb.delete(conversationLabels).where(eq(conversationLabels.conversationId, conversation.id)),
    orgDb.insert(conversationLabels).select((qb) =>
      qb
        .select({
          conversationId: conversations.id,
          labelId: labels.id,
          organizationId: labels.organizationId,
        })
        .from(labels)
        .innerJoin(conversations, eq(conversations.id, conversation.id))
        .where(and(eq(labels.organizationId, member.organizationId), inArray(labels.id, wanted))),
    ),
    orgDb
      .update(conversations)
      .set({ labels: labelsOfConversation, updatedAt: new Date().toISOString() })
      .where(eq(conversations.id, conversation.id))
      .returning(),
  ]);
  if (!row) throw conversationNotFound();
  const updated = toConversation(row);
  await deps.publish({
    type: "conversation_update",
    data: { conversation: updated },
  });
  return updated;
}

/** Whether a refused label met the cap (else its name was taken). */
async function atCap(db: OrganizationDb, organizationId: string) {
  const [row] = await db
    .select({ n: count() })
    .from(labels)
    .where(eq(labels.organizationId, organizationId));
  return (row?.n ?? 0) >= LABELS_MAX;
}

async function findLabel({ orgDb }: StoreDeps, member: Member, id: string) {
  const row = await orgDb.query.labels.findFirst({
    where: and(eq(labels.id, id), eq(labels.organizationId, member.organizationId)),
  });
  if (!row) throw labelNotFound();
  return row;
}

const wornBy = (labelId: string) =>
  sql`${conversations.id} IN (SELECT conversation_id FROM ${conversationLabels} WHERE label_id = ${labelId})`;

/** Makes the JSON copy again on every conversation wearing the label. */
const refreshWearers = ({ orgDb }: StoreDeps, labelId: string) =>
  orgDb.update(conversations).set({ labels: labelsOfConversation }).where(wornBy(labelId));

async function announceWearers(deps: StoreDeps, organizationId: string, labelId: string) {
  const wearers = await deps.orgDb
    .select({ id: conversationLabels.conversationId })
    .from(conversationLabels)
    .where(eq(conversationLabels.labelId, labelId));
  await announce(
    deps,
    organizationId,
    wearers.map((w) => w.id),
  );
}

/** D1 binds at most 100 parameters a statement: ids go in smaller chunks. */
const CHUNK = 90;

/** Tells the consoles about conversations whose labels changed. */
async function announce(deps: StoreDeps, organizationId: string, ids: string[]) {
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await deps.orgDb
      .select()
      .from(conversations)
      .where(
        and(
          eq(conversations.organizationId, organizationId),
          inArray(conversations.id, ids.slice(i, i + CHUNK)),
        ),
      );
    await deps.publish(...rows.map(conversationUpdate));
  }
}
