/**
 * Message templates: the only messages WhatsApp accepts outside the 24-hour window. Meta owns
 * them; we keep the account's list as Meta last told (the list call, then status webhooks).
 */
import { and, eq, sql } from "drizzle-orm";
import type { OrganizationDb } from "../db";
import { whatsappTemplates } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError } from "../../worker/http/errors";
import { connectedSender } from "./connection-service";
import { metaFailure } from "../meta/errors";
import type { TemplateStatusUpdate } from "../../worker/whatsapp/webhook-payloads";
import {
  fillTemplate,
  templateParameterCount,
  type TemplateComponent,
  type WhatsappTemplate,
} from "../../contracts/whatsapp";

const notConnected = () =>
  new AppError(422, "not_connected", "Conecta WhatsApp para usar las plantillas de mensaje.");

type Sender = NonNullable<Awaited<ReturnType<typeof connectedSender>>>;

/** Asks Meta for the account's templates and stores them (unless told not to); answers the fresh list. */
async function refreshTemplates(
  deps: StoreDeps,
  organizationId: string,
  sender: Sender,
): Promise<WhatsappTemplate[]> {
  let answer;
  try {
    answer = await sender.graph.listTemplates(sender.connection.businessAccountId);
  } catch (error) {
    throw metaFailure(error);
  }
  const now = new Date().toISOString();
  const rows = answer.data.map((t) => ({
    organizationId,
    metaTemplateId: t.id,
    name: t.name,
    language: t.language,
    category: t.category,
    status: t.status,
    components: t.components as TemplateComponent[],
    updatedAt: now,
  }));
  if (rows.length > 0) {
    await deps.orgDb
      .insert(whatsappTemplates)
      .values(rows)
      .onConflictDoUpdate({
        target: [
          whatsappTemplates.organizationId,
          whatsappTemplates.name,
          whatsappTemplates.language,
        ],
        set: {
          metaTemplateId: sql`excluded.meta_template_id`,
          category: sql`excluded.category`,
          status: sql`excluded.status`,
          components: sql`excluded.components`,
          updatedAt: now,
        },
      });
  }
  return rows.map(({ name, language, category, status, components }) => ({
    name,
    language,
    category,
    status,
    components,
  }));
}

/** `GET /whatsapp-config/templates`: always Meta's current list, kept. */
export async function listTemplates(deps: StoreDeps, member: Member) {
  const sender = await connectedSender(deps, member.organizationId);
  if (!sender) throw notConnected();
  return { templates: await refreshTemplates(deps, member.organizationId, sender) };
}

/**
 * Reads templates of the account's list as we keep it (`read`: undefined when none is there);
 * when there is none, Meta's list is asked for and kept, and read again: a template created at
 * Meta since the list was last read is found wherever it is named (a single send, a broadcast,
 * a follow-up). Without a connected number there is no list to ask for.
 */
export async function readTemplates<T>(
  deps: StoreDeps,
  organizationId: string,
  read: () => Promise<T | undefined>,
): Promise<T | undefined> {
  const stored = await read();
  if (stored !== undefined) return stored;
  const sender = await connectedSender(deps, organizationId);
  if (!sender) return undefined;
  await refreshTemplates(deps, organizationId, sender);
  return read();
}

function findStored(db: OrganizationDb, organizationId: string, name: string, language: string) {
  return db.query.whatsappTemplates.findFirst({
    where: and(
      eq(whatsappTemplates.organizationId, organizationId),
      eq(whatsappTemplates.name, name),
      eq(whatsappTemplates.language, language),
    ),
  });
}

/**
 * The template ready to send: approved, with as many parameters as its body asks, and the
 * text the customer will read. A template we have not seen yet is looked up at Meta.
 */
export async function prepareTemplate(
  deps: StoreDeps,
  organizationId: string,
  input: { name: string; language: string; parameters: string[] },
) {
  const row = await readTemplates(deps, organizationId, () =>
    findStored(deps.orgDb, organizationId, input.name, input.language),
  );
  if (!row) {
    throw new AppError(
      422,
      "template_not_found",
      "La plantilla no existe en tu cuenta de WhatsApp.",
    );
  }
  if (row.status !== "APPROVED") {
    throw new AppError(
      422,
      "template_not_approved",
      "Solo se pueden enviar plantillas aprobadas por Meta.",
    );
  }
  const expected = templateParameterCount(row);
  if (input.parameters.length !== expected) {
    throw new AppError(
      422,
      "template_parameters",
      `La plantilla necesita ${expected} ${expected === 1 ? "parámetro" : "parámetros"}.`,
    );
  }
  return {
    content: fillTemplate(row, input.parameters),
    part: {
      name: row.name,
      language: { code: row.language },
      components:
        expected === 0
          ? []
          : [
              {
                type: "body",
                parameters: input.parameters.map((text) => ({ type: "text", text })),
              },
            ],
    },
  };
}

/**
 * The `message_template_status_update` webhook, for one organization connected to the account
 * (`entry[].id`, which several may share: agencies): its own copy of the template.
 */
export async function applyTemplateStatus(
  { orgDb }: StoreDeps,
  organizationId: string,
  update: TemplateStatusUpdate,
) {
  const status = update.event;
  if (status) await updateTemplateStatus(orgDb, organizationId, status, update);
}

/** One organization's copy of a template takes the status Meta reported. */
async function updateTemplateStatus(
  db: OrganizationDb,
  organizationId: string,
  status: string,
  update: TemplateStatusUpdate,
) {
  const byId =
    update.message_template_id !== undefined
      ? eq(whatsappTemplates.metaTemplateId, String(update.message_template_id))
      : undefined;
  const byName =
    update.message_template_name && update.message_template_language
      ? and(
          eq(whatsappTemplates.name, update.message_template_name),
          eq(whatsappTemplates.language, update.message_template_language),
        )
      : undefined;
  const which = byId ?? byName;
  if (!which) return;
  await db
    .update(whatsappTemplates)
    .set({ status, updatedAt: new Date().toISOString() })
    .where(and(eq(whatsappTemplates.organizationId, organizationId), which));
}
