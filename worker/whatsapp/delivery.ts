/**
 * A verified webhook delivery, split by organization and taken where each organization's data
 * is (contract section 15): its store in one call once all of it is there, held by its store
 * while it moves, the Worker over D1 until then. Meta is answered once every part has landed;
 * a part that failed fails the delivery (500), and Meta's retry finds what landed by wamid.
 */
import { eq } from "drizzle-orm";
import { scheduleReplies } from "../agents/auto-reply";
import { scheduleTranscripts } from "../ai/transcribe";
import type { Db } from "../db/client";
import { organizations, whatsappConnections } from "../db/schema";
import type { Deps } from "../http/deps";
import { readDetectedEvents } from "../sales/service";
import { allDataInStore, storeAt, storeRoute } from "../stores/registry";
import {
  ingestDeliveryPart,
  type ChangeValue,
  type Connection,
  type DeliveryPart,
  type WebhookPayload,
} from "./ingest";
import type { TemplateStatusUpdate } from "./templates-service";

/** Answers how many customer messages the delivery stored (none for a part held). */
export async function ingestDelivery(deps: Deps, payload: WebhookPayload): Promise<number> {
  const parts = await partsOf(deps.db, payload);
  const landed = await Promise.allSettled(
    [...parts].map(([organizationId, part]) => deliverPart(deps, organizationId, part)),
  );
  // Every part has been tried before Meta is answered, so a retry repeats as little as it can.
  const failed = landed.find((result) => result.status === "rejected");
  if (failed) throw failed.reason;
  return landed.reduce(
    (sum, result) => sum + (result.status === "fulfilled" ? result.value : 0),
    0,
  );
}

/**
 * Each organization's part of the delivery. Messages and statuses are gathered per connected
 * number across the whole delivery (Meta may put a burst in many entries or in one change); an
 * account's changes go to every organization connected to that account.
 */
async function partsOf(db: Db, payload: WebhookPayload) {
  const parts = new Map<string, DeliveryPart>();
  const partOf = (organizationId: string) => {
    let part = parts.get(organizationId);
    if (!part) parts.set(organizationId, (part = { accountChanges: [], number: null }));
    return part;
  };
  const connections = new Map<string, Connection | null>();
  const accounts = new Map<string, string[]>();
  const accountOrganizations = async (wabaId: string) => {
    if (!accounts.has(wabaId)) accounts.set(wabaId, await organizationsOfAccount(db, wabaId));
    return accounts.get(wabaId)!;
  };

  for (const entry of payload.entry ?? []) {
    for (const change of entry.changes ?? []) {
      const wabaId = entry.id;
      const value: ChangeValue | undefined = change.value;
      if (!value) continue;
      if (change.field === "message_template_status_update" && wabaId) {
        const update = value as TemplateStatusUpdate;
        for (const organizationId of await accountOrganizations(wabaId)) {
          partOf(organizationId).accountChanges.push({ field: change.field, update });
        }
        continue;
      }
      if (change.field === "automatic_events" && wabaId) {
        // Read once (each odd event logged once), whatever the organizations sharing the account.
        const events = readDetectedEvents(wabaId, value.automatic_events);
        if (events.length === 0) continue;
        for (const organizationId of await accountOrganizations(wabaId)) {
          partOf(organizationId).accountChanges.push({ field: change.field, events });
        }
        continue;
      }
      if (change.field !== "messages") continue;
      const phoneNumberId = value.metadata?.phone_number_id;
      if (!phoneNumberId) continue;
      if (!connections.has(phoneNumberId)) {
        connections.set(phoneNumberId, await findConnection(db, phoneNumberId));
      }
      const connection = connections.get(phoneNumberId);
      if (!connection) continue; // A number no organization has connected: acknowledged, ignored.
      const part = partOf(connection.organizationId);
      const number = (part.number ??= { connection, messages: [], statuses: [] });
      const contacts = Array.isArray(value.contacts) ? value.contacts : [];
      for (const message of value.messages ?? []) number.messages.push({ message, contacts });
      number.statuses.push(...(value.statuses ?? []));
    }
  }
  return parts;
}

/**
 * One organization's part, where its data is; answers the messages it stored. A store refusing
 * the call (a registry pointing at another organization's store) fails the delivery.
 */
async function deliverPart(deps: Deps, organizationId: string, part: DeliveryPart) {
  const route = await storeRoute(deps.env, organizationId);
  if (route.state === "switching" || allDataInStore(route)) {
    const store = storeAt(deps.env, route);
    const landed =
      route.state === "switching"
        ? await store.hold(organizationId, part)
        : await store.deliver(organizationId, part);
    if (!landed) throw new Error(`the store of ${organizationId} refused its delivery`);
    return landed.stored;
  }
  const outcome = await ingestDeliveryPart(deps, organizationId, part);
  // Scheduled before Meta is answered (work left to `waitUntil` can be cut off, and the
  // delivery would not come again), after the consoles have the notes: a transcript never
  // reaches a console before its message. The store's alarm transcribes and replies.
  if (outcome.voiceNotes.length > 0) {
    await scheduleTranscripts(deps.env, organizationId, outcome.voiceNotes);
  }
  await scheduleReplies(
    deps.env,
    outcome.conversationsToAnswer.map((conversationId) => ({ organizationId, conversationId })),
  );
  return outcome.storedMessages;
}

const findConnection = async (db: Db, phoneNumberId: string): Promise<Connection | null> =>
  (await db
    .select({
      organizationId: whatsappConnections.organizationId,
      defaultAgentId: whatsappConnections.defaultAgentId,
      autoAssign: organizations.autoAssign,
    })
    .from(whatsappConnections)
    .innerJoin(organizations, eq(organizations.id, whatsappConnections.organizationId))
    .where(eq(whatsappConnections.phoneNumberId, phoneNumberId))
    .get()) ?? null;

/** The organizations connected to a WhatsApp Business account (agencies share one). */
const organizationsOfAccount = async (db: Db, wabaId: string) =>
  (
    await db
      .select({ organizationId: whatsappConnections.organizationId })
      .from(whatsappConnections)
      .where(eq(whatsappConnections.businessAccountId, wabaId))
  ).map((row) => row.organizationId);
