/**
 * A verified webhook delivery, split by organization, each part taken by that organization's
 * store in one call (contract section 15). Meta is answered once every part has landed; a part
 * that failed fails the delivery (500), and Meta's retry finds what landed by wamid.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { organizations, whatsappConnections } from "../db/global-schema";
import type { Deps } from "../http/deps";
import { detectedEventPayload, type DetectedEventPayload } from "../../contracts/sales";
import { servedByItsStore, storeAt, storeRefused, storeRoute } from "../stores/registry";
import type {
  ChangeValue,
  Connection,
  DeliveryPart,
  NumberChanges,
  WebhookPayload,
} from "./webhook-payloads";
import type { TemplateStatusUpdate } from "./webhook-payloads";

/** Answers how many customer messages the delivery stored. */
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
      if (change.field === "account_update" && wabaId) {
        // Only what a number shared with the app needs (contract section 16); the rest of
        // account_update (verification, limits) is acknowledged and left.
        if (!value.event || !ACCOUNT_EVENTS.has(value.event)) continue;
        const update = {
          event: value.event,
          disconnection_info: value.disconnection_info,
          phone_number: value.phone_number,
          ban_info: value.ban_info,
        };
        for (const organizationId of await accountOrganizations(wabaId)) {
          partOf(organizationId).accountChanges.push({ field: change.field, update });
        }
        continue;
      }
      if (!change.field || !NUMBER_FIELDS.has(change.field)) continue;
      const phoneNumberId = value.metadata?.phone_number_id;
      if (!phoneNumberId) continue;
      if (!connections.has(phoneNumberId)) {
        connections.set(phoneNumberId, await findConnection(db, phoneNumberId));
      }
      const connection = connections.get(phoneNumberId);
      if (!connection) continue; // A number no organization has connected: acknowledged, ignored.
      const part = partOf(connection.organizationId);
      const number = (part.number ??= { connection, messages: [], statuses: [] });
      addNumberChange(number, change.field, value);
    }
  }
  return parts;
}

/** The fields that concern one connected number, found by `metadata.phone_number_id`. */
const NUMBER_FIELDS = new Set([
  "messages",
  "standby",
  "smb_message_echoes",
  "smb_app_state_sync",
  "history",
  "messaging_handovers",
  "user_preferences",
]);

/**
 * The `account_update` events the product acts on: a number shared with the app disconnected
 * or reconnected, and the whole account removed from the partner, banned or deleted.
 */
const ACCOUNT_EVENTS = new Set([
  "PARTNER_REMOVED",
  "ACCOUNT_OFFBOARDED",
  "ACCOUNT_RECONNECTED",
  "DISABLED_UPDATE",
  "ACCOUNT_DELETED",
]);

/**
 * Gathers one change on a number. `standby` carries what `messages` carries while Meta's own AI
 * holds the thread, plus that AI's echoes; `smb_message_echoes` are the owner's, from the app.
 */
function addNumberChange(number: NumberChanges, field: string, value: ChangeValue) {
  const list = <T>(items: T[] | undefined) => (Array.isArray(items) ? items : []);
  const contacts = list(value.contacts);
  const standby = field === "standby";
  for (const message of list(value.messages)) {
    number.messages.push(standby ? { message, contacts, standby } : { message, contacts });
  }
  number.statuses.push(...list(value.statuses));
  const sender = standby ? "meta_ai" : field === "smb_message_echoes" ? "phone" : null;
  if (sender) {
    for (const echo of list(value.message_echoes)) (number.echoes ??= []).push({ echo, sender });
  }
  if (field === "smb_app_state_sync") (number.contacts ??= []).push(...list(value.state_sync));
  if (field === "history") (number.history ??= []).push(...list(value.history));
  if (field === "messaging_handovers") {
    (number.handovers ??= []).push(...list(value.messaging_handovers));
  }
  if (field === "user_preferences") {
    (number.preferences ??= []).push(...list(value.user_preferences));
  }
}

/**
 * One organization's part, by its store; answers the messages it stored. A store refusing the
 * call (a registry pointing at another organization's store) fails the delivery, and so does an
 * organization the upgrade stop left unmoved (Meta tries again for days: nothing is lost while
 * the operator moves it).
 */
async function deliverPart(deps: Deps, organizationId: string, part: DeliveryPart) {
  const route = await storeRoute(deps.env, organizationId);
  if (!servedByItsStore(route)) throw new Error(`organization ${organizationId} not in its store`);
  const landed = await storeAt(deps.env, route).deliver(organizationId, part);
  if (!landed) throw storeRefused(organizationId, "its delivery");
  return landed.stored;
}

const findConnection = async (db: Db, phoneNumberId: string): Promise<Connection | null> =>
  (await db
    .select({
      organizationId: whatsappConnections.organizationId,
      defaultAgentId: whatsappConnections.defaultAgentId,
      autoAssign: organizations.autoAssign,
      factsVersion: organizations.factsVersion,
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

/**
 * The events of one `automatic_events` change that are what Meta documents; each odd one (a
 * wrong type, an unknown event name) is logged and skipped, never failing the delivery.
 */
function readDetectedEvents(wabaId: string, events: unknown): DetectedEventPayload[] {
  if (!Array.isArray(events)) {
    if (events !== undefined) console.warn("automatic_events skipped: not a list", wabaId);
    return [];
  }
  return events.flatMap((event: unknown, index) => {
    const parsed = detectedEventPayload.safeParse(event);
    if (parsed.success) return [parsed.data];
    const problems = parsed.error.issues.map(
      (i) => `${i.path.join(".") || "(event)"}: ${i.message}`,
    );
    console.warn("automatic_events: event skipped", wabaId, index, problems.join("; "));
    return [];
  });
}
