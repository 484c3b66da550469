/**
 * Broadcasts ("Difusiones", contract section 17): managers create, edit and delete them while
 * they are `draft` or `scheduled`; every member reads them and their preview. Each one names an
 * approved MARKETING or UTILITY template of the organization's account and keeps its audience
 * as criteria, evaluated when asked (./audience.ts).
 */
import { and, asc, desc, eq, gt, inArray, lt, sql } from "drizzle-orm";
import type { OrganizationDb } from "../db";
import { broadcastRecipients, broadcasts, conversations, whatsappTemplates } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError, conflict, notFound } from "../../worker/http/errors";
import { templateParameterCount } from "../../contracts/whatsapp";
import { readTemplates } from "../whatsapp/templates-service";
import { checkOwnLabels, previewAudience } from "./audience";
import { toRecipient, withResults, type BroadcastRow } from "./mappers";
import {
  BROADCAST_CATEGORIES,
  EDITABLE_STATUSES,
  type BroadcastCategory,
  type BroadcastInput,
  type BroadcastUpdate,
  type broadcastListQuery,
  type recipientListQuery,
} from "../../contracts/broadcasts";
import type { z } from "zod/mini";

const broadcastNotFound = () => notFound("Difusión no encontrada.");
const notEditable = () =>
  conflict("Solo se puede cambiar o borrar una difusión en borrador o programada.");
const templateRefused = (code: string, message: string) => new AppError(422, code, message);

const scoped = (member: Member, id: string) =>
  and(eq(broadcasts.id, id), eq(broadcasts.organizationId, member.organizationId));

// ---------------------------------------------------------------------------------------------
// What a broadcast may use.

/**
 * The template as the account's list holds it, looked up at Meta when the list has none of that
 * name (as a single send does): approved, MARKETING or UTILITY, in that language, with as many
 * parameters as its body asks. Answers its category. `user` names what uses it in the refusal
 * ("Un seguimiento").
 */
export async function usableTemplate(
  deps: StoreDeps,
  organizationId: string,
  template: BroadcastInput["template"],
  user = "Una difusión",
): Promise<BroadcastCategory> {
  const sameName = await readTemplates(deps, organizationId, async () => {
    const rows = await deps.orgDb
      .select()
      .from(whatsappTemplates)
      .where(
        and(
          eq(whatsappTemplates.organizationId, organizationId),
          eq(whatsappTemplates.name, template.name),
        ),
      );
    return rows.length > 0 ? rows : undefined;
  });
  if (!sameName) {
    throw templateRefused("template_not_found", "La plantilla no existe en tu cuenta de WhatsApp.");
  }
  const row = sameName.find((t) => t.language === template.language);
  if (!row) {
    const languages = sameName.map((t) => t.language).join(", ");
    throw templateRefused(
      "template_language",
      `La plantilla no está en el idioma ${template.language} (está en: ${languages}).`,
    );
  }
  if (row.status !== "APPROVED") {
    throw templateRefused(
      "template_not_approved",
      "Solo se pueden usar plantillas aprobadas por Meta.",
    );
  }
  const category = (BROADCAST_CATEGORIES as readonly string[]).includes(row.category)
    ? (row.category as BroadcastCategory)
    : null;
  if (!category) {
    throw templateRefused(
      "template_category",
      `${user} solo puede usar plantillas de marketing o de utilidad.`,
    );
  }
  const expected = templateParameterCount(row);
  if (template.parameters.length !== expected) {
    throw templateRefused(
      "template_parameters",
      `La plantilla necesita ${expected} ${expected === 1 ? "parámetro" : "parámetros"}.`,
    );
  }
  return category;
}

/** A send time in the past (or now) is a mistake, not "send at once". */
function checkSendAt(sendAt: string | null | undefined, now = Date.now()) {
  if (sendAt && Date.parse(sendAt) <= now) {
    throw new AppError(422, "send_at_past", "La fecha de envío debe ser futura.");
  }
}

// ---------------------------------------------------------------------------------------------
// Reading.

/** The organization's broadcasts, newest first, a page at a time (`before`: the last one seen). */
export async function listBroadcasts(
  deps: StoreDeps,
  member: Member,
  query: z.output<typeof broadcastListQuery>,
) {
  const rows = await deps.orgDb
    .select()
    .from(broadcasts)
    .where(
      and(
        eq(broadcasts.organizationId, member.organizationId),
        query.before ? lt(broadcasts.id, query.before) : undefined,
      ),
    )
    .orderBy(desc(broadcasts.id))
    .limit(query.limit + 1);
  return {
    broadcasts: await withResults(deps, member.organizationId, rows.slice(0, query.limit)),
    has_more: rows.length > query.limit,
  };
}

/** The organization's broadcast, or 404 (another organization's is not found either). */
export async function findBroadcast(db: OrganizationDb, member: Member, id: string) {
  const [row] = await db.select().from(broadcasts).where(scoped(member, id));
  if (!row) throw broadcastNotFound();
  return row;
}

export async function getBroadcast(deps: StoreDeps, member: Member, id: string) {
  return shaped(deps, member, await findBroadcast(deps.orgDb, member, id));
}

const shaped = async (deps: StoreDeps, member: Member, row: BroadcastRow) =>
  (await withResults(deps, member.organizationId, [row]))[0]!;

/** Its recipients by state, a page at a time in conversation order (`after`: the last one). */
export async function listRecipients(
  deps: StoreDeps,
  member: Member,
  { id, query }: { id: string; query: z.output<typeof recipientListQuery> },
) {
  const { orgDb } = deps;
  await findBroadcast(orgDb, member, id);
  const rows = await orgDb
    .select({
      recipient: broadcastRecipients,
      name: conversations.contactName,
      phoneNumber: conversations.phoneNumber,
    })
    .from(broadcastRecipients)
    .innerJoin(conversations, eq(conversations.id, broadcastRecipients.conversationId))
    .where(
      and(
        eq(broadcastRecipients.broadcastId, id),
        eq(broadcastRecipients.organizationId, member.organizationId),
        query.state ? eq(broadcastRecipients.state, query.state) : undefined,
        query.after ? gt(broadcastRecipients.conversationId, query.after) : undefined,
      ),
    )
    .orderBy(asc(broadcastRecipients.conversationId))
    .limit(query.limit + 1);
  return {
    recipients: rows.slice(0, query.limit).map((row) => toRecipient(row.recipient, row)),
    has_more: rows.length > query.limit,
  };
}

/** Who would receive it now, who is left out and why, and the estimated cost. */
export async function previewBroadcast(deps: StoreDeps, member: Member, id: string) {
  const row = await findBroadcast(deps.orgDb, member, id);
  return previewAudience(deps, member.organizationId, {
    audience: row.audience,
    category: row.templateCategory,
  });
}

// ---------------------------------------------------------------------------------------------
// Writing (managers).

export async function createBroadcast(deps: StoreDeps, member: Member, input: BroadcastInput) {
  const db = deps.orgDb;
  const { organizationId } = member;
  checkSendAt(input.send_at);
  const category = await usableTemplate(deps, organizationId, input.template);
  await checkOwnLabels(db, organizationId, input.audience.label_ids, "de la audiencia");
  const [row] = await db
    .insert(broadcasts)
    .values({
      organizationId,
      name: input.name,
      templateName: input.template.name,
      templateLanguage: input.template.language,
      templateCategory: category,
      templateParameters: input.template.parameters,
      audience: input.audience,
      sendAt: input.send_at ?? null,
      createdBy: member.userId,
    })
    .returning();
  return shaped(deps, member, row!);
}

/**
 * Changes a broadcast still `draft` or `scheduled`. The status is checked by the update itself,
 * so a broadcast that started sending meanwhile is refused (409), never changed.
 */
export async function updateBroadcast(
  deps: StoreDeps,
  member: Member,
  { id, changes }: { id: string; changes: BroadcastUpdate },
) {
  const { organizationId } = member;
  const db = deps.orgDb;
  checkSendAt(changes.send_at);
  const category =
    changes.template && (await usableTemplate(deps, organizationId, changes.template));
  if (changes.audience) {
    await checkOwnLabels(db, organizationId, changes.audience.label_ids, "de la audiencia");
  }
  const [row] = await db
    .update(broadcasts)
    .set({
      name: changes.name,
      ...(changes.template && {
        templateName: changes.template.name,
        templateLanguage: changes.template.language,
        templateCategory: category,
        templateParameters: changes.template.parameters,
      }),
      audience: changes.audience,
      sendAt: changes.send_at,
      // A scheduled broadcast without a time any more waits as a draft for "Enviar".
      ...(changes.send_at === null && {
        status: sql<
          BroadcastRow["status"]
        >`CASE WHEN status = 'scheduled' THEN 'draft' ELSE status END`,
      }),
      updatedAt: new Date().toISOString(),
    })
    .where(and(scoped(member, id), inArray(broadcasts.status, [...EDITABLE_STATUSES])))
    .returning();
  if (row?.status === "scheduled" && changes.send_at) {
    await deps.schedule("broadcasts", Date.parse(changes.send_at));
  }
  if (row) return shaped(deps, member, row);
  await findBroadcast(db, member, id); // 404 when it is not the organization's
  throw notEditable();
}

/** Deletes a broadcast still `draft` or `scheduled` (checked by the delete itself). */
export async function deleteBroadcast({ orgDb: db }: StoreDeps, member: Member, id: string) {
  const deleted = await db
    .delete(broadcasts)
    .where(and(scoped(member, id), inArray(broadcasts.status, [...EDITABLE_STATUSES])))
    .returning({ id: broadcasts.id });
  if (deleted.length > 0) return;
  await findBroadcast(db, member, id);
  throw notEditable();
}
