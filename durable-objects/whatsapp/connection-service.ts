import { and, eq } from "drizzle-orm";
import { recordAudit } from "../audit/service";
import type { Db } from "../../worker/db/client";
import type { OrganizationDb } from "../db";
import { whatsappConnections } from "../../worker/db/global-schema";
import { agents } from "../schema";
import type { Member } from "../../worker/http/context";
import type { Deps, StoreDeps } from "../../worker/http/deps";
import { AppError, conflict, notFound } from "../../worker/http/errors";
import type { HistoryImport, WhatsappConfig, WhatsappTestResult } from "../../contracts/whatsapp";
import { historyImportOf } from "./history-import";
import type { whatsappConfigInput, whatsappConfigUpdateInput } from "../../contracts/whatsapp";
import { metaGraph } from "../meta/graph";
import { GraphError, metaFailure } from "../meta/errors";
import { registerAfterConnecting } from "../flows/registration";
import { decryptSecret, encryptSecret } from "../meta/secrets";
import type { z } from "zod/mini";

type ConnectionRow = typeof whatsappConnections.$inferSelect;

const toConfig = (row: ConnectionRow, historyImport: HistoryImport | null): WhatsappConfig => ({
  id: row.id,
  phone_number: row.phoneNumber,
  phone_number_id: row.phoneNumberId,
  business_account_id: row.businessAccountId,
  status: row.status,
  default_agent_id: row.defaultAgentId,
  webhook_token: row.webhookToken,
  connected_at: row.connectedAt,
  coexistence: row.coexistence,
  disconnected_reason: row.disconnectedReason,
  history_import: historyImport,
});

/**
 * The connection as the console sees it: a number shared with the WhatsApp Business app says
 * where the import of its history stands (in the organization's data, where `orgDb` is).
 */
async function configOf({ orgDb }: StoreDeps, row: ConnectionRow): Promise<WhatsappConfig> {
  const historyImport = row.coexistence ? await historyImportOf(orgDb, row.organizationId) : null;
  return toConfig(row, historyImport);
}

const notConnected = () =>
  new AppError(404, "not_found", "WhatsApp no está conectado en esta organización.");

export function findConnection(db: Db, organizationId: string) {
  return db.query.whatsappConnections.findFirst({
    where: eq(whatsappConnections.organizationId, organizationId),
  });
}

/**
 * The Graph client acting for an organization's number, or null when none is connected: from
 * the facts its store keeps (decision 0136), so a send reads D1 only after they changed.
 */
export async function connectedSender(deps: StoreDeps, organizationId: string) {
  const row = (await deps.facts()).connection;
  if (!row || row.organizationId !== organizationId || row.status === "disconnected") return null;
  const token = await decryptSecret(row.accessTokenEncrypted, deps.env.ENCRYPTION_KEY);
  return { connection: row, graph: metaGraph(deps.env, token) };
}

async function assertAgentInOrganization(
  db: OrganizationDb,
  organizationId: string,
  agentId: string,
) {
  const agent = await db.query.agents.findFirst({
    where: and(eq(agents.id, agentId), eq(agents.organizationId, organizationId)),
  });
  if (!agent) throw notFound("Agente no encontrado.");
}

/**
 * Checks the number and token against Meta before anything is stored, and that the WhatsApp
 * Business Account typed holds the number: webhooks are routed by it (`account_update`, history),
 * so another business's account id must never be kept beside this number.
 */
async function verifyWithMeta(
  deps: Deps,
  input: { phoneNumberId: string; wabaId: string; token: string },
) {
  const graph = metaGraph(deps.env, input.token);
  const number = await refusedAt("access_token", graph.getPhoneNumber(input.phoneNumberId));
  const held = await refusedAt("business_account_id", graph.listPhoneNumbers(input.wabaId));
  if (!held.data.some((n) => n.id === input.phoneNumberId)) {
    const message =
      "Esa cuenta de WhatsApp Business no tiene este número: revisa su identificador.";
    throw new AppError(422, "meta_error", message, [{ path: "business_account_id", message }]);
  }
  return number;
}

/** Meta's refusal of a call, as a 422 on the field the person typed for it. */
async function refusedAt<T>(path: string, call: Promise<T>) {
  try {
    return await call;
  } catch (error) {
    throw metaFailure(error, { path });
  }
}

export async function getConfig(deps: StoreDeps, member: Member): Promise<WhatsappConfig> {
  const row = await findConnection(deps.db, member.organizationId);
  if (!row) throw notConnected();
  return configOf(deps, row);
}

export async function saveConfig(
  deps: StoreDeps,
  member: Member,
  input: z.output<typeof whatsappConfigInput>,
): Promise<WhatsappConfig> {
  const { db, orgDb, env } = deps;
  if (input.default_agent_id) {
    await assertAgentInOrganization(orgDb, member.organizationId, input.default_agent_id);
  }
  const number = await verifyWithMeta(deps, {
    phoneNumberId: input.phone_number_id,
    wabaId: input.business_account_id,
    token: input.access_token,
  });
  const taken = await db.query.whatsappConnections.findFirst({
    where: eq(whatsappConnections.phoneNumberId, input.phone_number_id),
  });
  if (taken && taken.organizationId !== member.organizationId) {
    throw conflict("Este número de WhatsApp ya está conectado a otra organización.");
  }
  const now = new Date().toISOString();
  const values = {
    organizationId: member.organizationId,
    phoneNumberId: input.phone_number_id,
    businessAccountId: input.business_account_id,
    phoneNumber: input.phone_number || number.display_phone_number,
    accessTokenEncrypted: await encryptSecret(input.access_token, env.ENCRYPTION_KEY),
    status: "connected" as const,
    defaultAgentId: input.default_agent_id ?? null,
    connectedAt: now,
    updatedAt: now,
  };
  const [row] = await db
    .insert(whatsappConnections)
    .values(values)
    .onConflictDoUpdate({ target: whatsappConnections.organizationId, set: values })
    .returning();
  await deps.factsChanged();
  await recordAudit(orgDb, {
    action: "whatsapp.connect",
    organizationId: member.organizationId,
    userId: member.userId,
    target: input.phone_number_id,
    ip: member.ip,
  });
  await registerAfterConnecting(deps, member.organizationId, {
    phoneNumberId: input.phone_number_id,
    wabaId: input.business_account_id,
    graph: metaGraph(env, input.access_token),
  });
  return configOf(deps, row!);
}

export async function updateConfig(
  deps: StoreDeps,
  member: Member,
  input: z.output<typeof whatsappConfigUpdateInput>,
): Promise<WhatsappConfig> {
  const current = await findConnection(deps.db, member.organizationId);
  if (!current) throw notConnected();
  const needsCheck = input.access_token || input.phone_number_id || input.business_account_id;
  if (needsCheck) {
    const token =
      input.access_token ??
      (await decryptSecret(current.accessTokenEncrypted, deps.env.ENCRYPTION_KEY));
    return saveConfig(deps, member, {
      phone_number_id: input.phone_number_id ?? current.phoneNumberId,
      business_account_id: input.business_account_id ?? current.businessAccountId,
      access_token: token,
      phone_number: input.phone_number ?? current.phoneNumber ?? undefined,
      default_agent_id:
        input.default_agent_id === undefined ? current.defaultAgentId : input.default_agent_id,
    });
  }
  if (input.default_agent_id) {
    await assertAgentInOrganization(deps.orgDb, member.organizationId, input.default_agent_id);
  }
  const [row] = await deps.db
    .update(whatsappConnections)
    .set({
      phoneNumber: input.phone_number,
      defaultAgentId: input.default_agent_id,
      updatedAt: new Date().toISOString(),
    })
    .where(eq(whatsappConnections.id, current.id))
    .returning();
  await deps.factsChanged();
  return configOf(deps, row!);
}

export async function deleteConfig({ db, orgDb, factsChanged }: StoreDeps, member: Member) {
  const deleted = await db
    .delete(whatsappConnections)
    .where(eq(whatsappConnections.organizationId, member.organizationId))
    .returning({ id: whatsappConnections.id, phoneNumberId: whatsappConnections.phoneNumberId });
  await factsChanged();
  if (deleted.length === 0) throw notConnected();
  await recordAudit(orgDb, {
    action: "whatsapp.disconnect",
    organizationId: member.organizationId,
    userId: member.userId,
    target: deleted[0]!.phoneNumberId,
    ip: member.ip,
  });
}

export async function testConfig(deps: StoreDeps, member: Member): Promise<WhatsappTestResult> {
  const sender = await connectedSender(deps, member.organizationId);
  if (!sender) return { success: false, error: "WhatsApp no está conectado." };
  try {
    const number = await sender.graph.getPhoneNumber(sender.connection.phoneNumberId);
    return { success: true, phone_number: number.display_phone_number };
  } catch (error) {
    if (error instanceof GraphError) return { success: false, error: error.message };
    throw error;
  }
}

/** Re-checks the stored number with Meta and marks the connection connected (or error). */
export async function reconnect(
  deps: StoreDeps,
  member: Member,
  { phoneNumber }: { phoneNumber: string | undefined },
) {
  const current = await findConnection(deps.db, member.organizationId);
  if (!current) throw notConnected();
  const token = await decryptSecret(current.accessTokenEncrypted, deps.env.ENCRYPTION_KEY);
  let status: ConnectionRow["status"] = "connected";
  let display = phoneNumber || current.phoneNumber;
  try {
    const number = await metaGraph(deps.env, token).getPhoneNumber(current.phoneNumberId);
    display = phoneNumber || number.display_phone_number;
  } catch (error) {
    if (!(error instanceof GraphError)) throw error;
    status = "error";
  }
  const [row] = await deps.db
    .update(whatsappConnections)
    .set({ status, phoneNumber: display, updatedAt: new Date().toISOString() })
    .where(eq(whatsappConnections.id, current.id))
    .returning();
  await deps.factsChanged();
  return configOf(deps, row!);
}

export async function businessInfo(deps: StoreDeps, member: Member) {
  const sender = await connectedSender(deps, member.organizationId);
  if (!sender) throw notConnected();
  const id = sender.connection.phoneNumberId;
  try {
    const [number, profile] = await Promise.all([
      sender.graph.getPhoneNumber(id),
      sender.graph.getBusinessProfile(id),
    ]);
    return { ...number, profile: profile.data[0] ?? null };
  } catch (error) {
    throw metaFailure(error);
  }
}

/** A per-organization token Meta can use in the webhook verification request. */
export async function generateWebhookToken({ db, factsChanged }: StoreDeps, member: Member) {
  const current = await findConnection(db, member.organizationId);
  if (!current) throw notConnected();
  const token = crypto.randomUUID().replaceAll("-", "");
  await db
    .update(whatsappConnections)
    .set({ webhookToken: token, updatedAt: new Date().toISOString() })
    .where(eq(whatsappConnections.id, current.id));
  await factsChanged();
  return { webhook_token: token };
}
