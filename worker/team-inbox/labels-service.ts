/**
 * Labels: managers define them (unique name per organization), every member puts them on
 * conversations. A conversation shows its labels from a JSON copy kept beside
 * `conversation_labels` (what the list filters on), so every copy of a conversation the
 * console receives, whatever event brought it, carries them.
 */
import { and, asc, eq, inArray, sql } from "drizzle-orm";
import type { z } from "zod";
import { recordAudit } from "../audit/service";
import { conversationLabels, conversations, labels } from "../db/schema";
import type { Member } from "../http/context";
import type { Deps } from "../http/deps";
import { conflict, notFound } from "../http/errors";
import { findConversation } from "../conversations/service";
import { conversationUpdate, toConversation } from "../conversations/mappers";
import { publish } from "../realtime/publish";
import type { Label, conversationLabelsInput, labelInput, labelUpdateInput } from "./contract";

const labelNotFound = () => notFound("Etiqueta no encontrada.");
const nameTaken = () => conflict("Ya existe una etiqueta con ese nombre.");

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

export async function listLabels({ db }: Deps, member: Member) {
  const rows = await db
    .select()
    .from(labels)
    .where(eq(labels.organizationId, member.organizationId))
    .orderBy(asc(labels.name));
  return rows.map(toLabel);
}

export async function createLabel(
  { db }: Deps,
  member: Member,
  input: z.output<typeof labelInput>,
) {
  const [row] = await db
    .insert(labels)
    .values({ organizationId: member.organizationId, name: input.name, color: input.color })
    .onConflictDoNothing()
    .returning();
  if (!row) throw nameTaken();
  await recordAudit(db, {
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
  deps: Deps,
  member: Member,
  { id, changes }: { id: string; changes: z.output<typeof labelUpdateInput> },
) {
  const { db } = deps;
  await findLabel(deps, member, id);
  // A name another label holds is refused in the statement that writes, so two renames to
  // the same name at once get one 409 rather than the unique index's error (a 500).
  const nameFree = changes.name
    ? sql`NOT EXISTS (SELECT 1 FROM ${labels} AS other
        WHERE other.organization_id = ${member.organizationId}
          AND other.name = ${changes.name} AND other.id <> ${id})`
    : undefined;
  const [[row]] = await db.batch([
    db
      .update(labels)
      .set({ name: changes.name, color: changes.color, updatedAt: new Date().toISOString() })
      .where(and(eq(labels.id, id), nameFree))
      .returning(),
    refreshWearers(deps, id),
  ]);
  if (!row) throw nameTaken();
  await recordAudit(db, {
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

/** Deleting a label takes it off every conversation. */
export async function deleteLabel(deps: Deps, member: Member, { id }: { id: string }) {
  const { db } = deps;
  const current = await findLabel(deps, member, id);
  const wearers = await db
    .select({ id: conversationLabels.conversationId })
    .from(conversationLabels)
    .where(eq(conversationLabels.labelId, id));
  await db.batch([
    // The copies lose the label first; then the label goes, and the join rows with it.
    db
      .update(conversations)
      .set({
        labels: sql`(SELECT json_group_array(json(value)) FROM json_each(${conversations.labels})
          WHERE value ->> 'id' <> ${id})`,
      })
      .where(wornBy(id)),
    db.delete(labels).where(eq(labels.id, id)),
  ]);
  await recordAudit(db, {
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
  deps: Deps,
  member: Member,
  { id, label_ids }: { id: string } & z.output<typeof conversationLabelsInput>,
) {
  const { db } = deps;
  const conversation = await findConversation(db, member.organizationId, id);
  const wanted = [...new Set(label_ids)];
  if (wanted.length > 0) {
    const own = await db
      .select({ id: labels.id })
      .from(labels)
      .where(and(eq(labels.organizationId, member.organizationId), inArray(labels.id, wanted)));
    if (own.length !== wanted.length) throw labelNotFound();
  }
  const [, , [row]] = await db.batch([
    db.delete(conversationLabels).where(eq(conversationLabels.conversationId, conversation.id)),
    wanted.length > 0
      ? db.insert(conversationLabels).values(
          wanted.map((labelId) => ({
            conversationId: conversation.id,
            labelId,
            organizationId: member.organizationId,
          })),
        )
      : db
          .select({ id: labels.id })
          .from(labels)
          .where(sql`false`),
    db
      .update(conversations)
      .set({ labels: labelsOfConversation, updatedAt: new Date().toISOString() })
      .where(eq(conversations.id, conversation.id))
      .returning(),
  ]);
  const updated = toConversation(row!);
  await publish(deps.env, member.organizationId, {
    type: "conversation_update",
    data: { conversation: updated },
  });
  return updated;
}

async function findLabel({ db }: Deps, member: Member, id: string) {
  const row = await db.query.labels.findFirst({
    where: and(eq(labels.id, id), eq(labels.organizationId, member.organizationId)),
  });
  if (!row) throw labelNotFound();
  return row;
}

const wornBy = (labelId: string) =>
  sql`${conversations.id} IN (SELECT conversation_id FROM ${conversationLabels} WHERE label_id = ${labelId})`;

/** Makes the JSON copy again on every conversation wearing the label. */
const refreshWearers = ({ db }: Deps, labelId: string) =>
  db.update(conversations).set({ labels: labelsOfConversation }).where(wornBy(labelId));

async function announceWearers(deps: Deps, organizationId: string, labelId: string) {
  const wearers = await deps.db
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
async function announce(deps: Deps, organizationId: string, ids: string[]) {
  for (let i = 0; i < ids.length; i += CHUNK) {
    const rows = await deps.db
      .select()
      .from(conversations)
      .where(
        and(
          eq(conversations.organizationId, organizationId),
          inArray(conversations.id, ids.slice(i, i + CHUNK)),
        ),
      );
    await publish(deps.env, organizationId, ...rows.map(conversationUpdate));
  }
}
