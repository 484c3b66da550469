/**
 * A number shared with the WhatsApp Business app and with Meta's own AI (contract section 16):
 * what the owner sends from the phone and what Meta's AI sends (echoes), who holds each
 * customer's thread (handovers), the customers' edits and deletions, the phone's address book,
 * and Meta disconnecting the number. Every effect is idempotent: Meta repeats and reorders.
 */
import { and, eq, isNull, ne } from "drizzle-orm";
import { recordAudit } from "../audit/service";
import {
  conversationUpdate,
  preview,
  toConversation,
  toMessage,
  type ConversationRow,
  type MessageRow,
} from "../conversations/mappers";
import { fromRows } from "../../worker/db/client";
import { orgStatements } from "../db";
import { uuidv7 } from "../../worker/db/ids";
import { whatsappConnections } from "../../worker/db/global-schema";
import { conversations, messages } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import type { RealtimeEvent } from "../../contracts/realtime";
import {
  CONVERSATION_OF_MESSAGE,
  conversationsOfCustomers,
  validBsuid,
  validWaId,
} from "./customer-identity";
import { isoFromSeconds, readableContent, type InboundMessage } from "./inbound-content";
import { applyHeldStatuses } from "./statuses";
import type {
  AccountUpdatePayload,
  ArrivedEcho,
  Connection,
  HandoverPayload,
  StateSyncPayload,
} from "../../worker/whatsapp/webhook-payloads";

/** How long a reply from the phone keeps the AI silent in its conversation. */
export const PHONE_PAUSE_MS = 24 * 60 * 60 * 1000;

/**
 * Someone else answers this customer: Meta's AI holds the thread, or a person answered from
 * the phone less than a day ago (until a member resumes the AI). The AI stays silent then.
 */
export const aiHeldElsewhere = (
  conversation: Pick<ConversationRow, "controlledBy" | "aiPausedUntil">,
  now = Date.now(),
) =>
  conversation.controlledBy === "meta_ai" ||
  (conversation.aiPausedUntil !== null && Date.parse(conversation.aiPausedUntil) > now);

// ---------------------------------------------------------------------------------------------
// account_update: Meta disconnects or reconnects a number shared with the app.

const RECONNECT = "Vuelve a conectarlo en Configuración > Meta Business.";

/** Why Meta disconnected the number, in words the owner can act on (`disconnection_info.reason`). */
const DISCONNECTION_REASONS: Record<string, string> = {
  PRIMARY_INACTIVITY: `Meta desconectó el número porque el móvil no abrió WhatsApp Business en 14 días. Abre la app en el móvil al menos cada 14 días. ${RECONNECT}`,
  COMPANION_INACTIVITY: `Meta desconectó el número porque un dispositivo vinculado estuvo unos 30 días sin usarse. Abre WhatsApp Business en el móvil. ${RECONNECT}`,
  ACCOUNT_DISCONNECTED: `El número se desconectó desde la app WhatsApp Business. ${RECONNECT}`,
  BUSINESS_DOWNGRADE: `El número dejó de ser una cuenta de WhatsApp Business (se pasó a WhatsApp normal). Vuelve a instalar WhatsApp Business en el móvil. ${RECONNECT}`,
  CHANGE_NUMBER:
    "El número se cambió en la app WhatsApp Business. Conecta el número nuevo en Configuración > Meta Business.",
  USER_RE_REGISTERED: `El número se volvió a registrar en WhatsApp en otro móvil. ${RECONNECT}`,
};
const OFFBOARDED = `Meta retiró el número de la plataforma (se cambió de móvil o se volvió a registrar en la app). ${RECONNECT}`;
const DISCONNECTED = `Meta desconectó el número de WhatsApp Business. ${RECONNECT}`;
const BANNED =
  "Meta inhabilitó la cuenta de WhatsApp Business por incumplir sus políticas. Revisa el aviso en el Administrador de WhatsApp de Meta.";
const DELETED =
  "La cuenta de WhatsApp Business se eliminó en Meta. Conecta otra en Configuración > Meta Business.";

/** The Spanish sentence for an `account_update` that disconnects the number. */
export function disconnectionReason(update: AccountUpdatePayload) {
  if (update.event === "ACCOUNT_OFFBOARDED") return OFFBOARDED;
  if (update.event === "DISABLED_UPDATE") return BANNED;
  if (update.event === "ACCOUNT_DELETED") return DELETED;
  const reason = update.disconnection_info?.reason;
  return (reason && DISCONNECTION_REASONS[reason]) || DISCONNECTED;
}

const digits = (phone: string | null | undefined) => phone?.replace(/\D/g, "") || null;

/**
 * Which numbers of the account an `account_update` concerns: every one for Meta's events about
 * the whole account (removed from the partner, which then names no number; banned; deleted),
 * the one it names for the others, and none when such an event names no number.
 */
function accountUpdateScope(update: AccountUpdatePayload): "account" | "number" | null {
  const named = digits(update.phone_number) !== null;
  const banState = [update.ban_info?.waba_ban_state ?? []].flat();
  if (update.event === "ACCOUNT_DELETED") return "account";
  if (update.event === "DISABLED_UPDATE") return banState.includes("DISABLE") ? "account" : null;
  if (update.event === "PARTNER_REMOVED" && !named) return "account";
  return named ? "number" : null;
}

/**
 * PARTNER_REMOVED, ACCOUNT_OFFBOARDED and the account's ban or deletion disconnect the
 * organization's number, with the reason in Spanish; ACCOUNT_RECONNECTED connects it again.
 * Only a real change is audited and announced (`whatsapp_status`): Meta repeats its events.
 */
export async function applyAccountUpdate(
  deps: StoreDeps,
  organizationId: string,
  update: AccountUpdatePayload,
): Promise<void> {
  const reconnected = update.event === "ACCOUNT_RECONNECTED";
  const status = reconnected ? "connected" : "disconnected";
  const reason = reconnected ? null : disconnectionReason(update);
  const [before] = await deps.db
    .select({
      status: whatsappConnections.status,
      reason: whatsappConnections.disconnectedReason,
      phoneNumber: whatsappConnections.phoneNumber,
    })
    .from(whatsappConnections)
    .where(eq(whatsappConnections.organizationId, organizationId));
  if (!before) return; // Disconnected by the organization meanwhile: nothing left to mark.
  const scope = accountUpdateScope(update);
  if (scope === null) return; // Names no number and is not about the whole account.
  // Another number of the account (or one whose number is not known here, so not named).
  if (scope === "number" && digits(update.phone_number) !== digits(before.phoneNumber)) return;
  // Only a number Meta disconnected comes back with ACCOUNT_RECONNECTED (not one in error).
  if (reconnected && before.status !== "disconnected") return;
  if (before.status === status && before.reason === reason) return;
  const [row] = await deps.db
    .update(whatsappConnections)
    .set({ status, disconnectedReason: reason, updatedAt: new Date().toISOString() })
    .where(eq(whatsappConnections.organizationId, organizationId))
    .returning({ phoneNumberId: whatsappConnections.phoneNumberId });
  await deps.factsChanged();
  if (!row) return;
  if (before.status !== status) {
    await recordAudit(deps.orgDb, {
      action: reconnected ? "whatsapp.connect" : "whatsapp.disconnect",
      organizationId,
      target: row.phoneNumberId,
      metadata: { by: "meta", event: update.event, reason: update.disconnection_info?.reason },
    });
  }
  await deps.publish({
    type: "whatsapp_status",
    data: { status, disconnected_reason: reason },
  });
}

// ---------------------------------------------------------------------------------------------
// smb_app_state_sync: the phone's address book names the business's customers.

interface PhoneContactChange {
  id: string;
  phone: string;
  fullName: string | null;
  firstName: string | null;
  changedAt: string;
  remove: boolean;
}

const cleanName = (value: unknown) =>
  typeof value === "string" && value.trim() ? value.trim().slice(0, 256) : null;

/** Each phone's latest change of the delivery (Meta may repeat one, or send several). */
function latestContactChanges(contacts: StateSyncPayload[]) {
  const byPhone = new Map<string, PhoneContactChange>();
  for (const item of contacts) {
    const phone = validWaId(item.contact?.phone_number?.replace(/^\+/, ""));
    const action = item.action;
    if (item.type !== "contact" || !phone || (action !== "add" && action !== "remove")) {
      console.warn("webhook: smb_app_state_sync item ignored", item.type, action);
      continue;
    }
    const change: PhoneContactChange = {
      id: uuidv7(),
      phone,
      fullName: cleanName(item.contact?.full_name),
      firstName: cleanName(item.contact?.first_name),
      changedAt: isoFromSeconds(item.metadata?.timestamp),
      remove: action === "remove",
    };
    const known = byPhone.get(phone);
    if (!known || known.changedAt <= change.changedAt) byPhone.set(phone, change);
  }
  return [...byPhone.values()];
}

/** `?1` organization, `?2` the additions as JSON, `?3` now. A change older than the row's loses. */
const UPSERT_PHONE_CONTACTS = `
  INSERT INTO phone_contacts (id, organization_id, phone_number, full_name, first_name,
    changed_at, created_at, updated_at)
  SELECT c.value ->> 'id', ?1, c.value ->> 'phone', c.value ->> 'fullName',
    c.value ->> 'firstName', c.value ->> 'changedAt', ?3, ?3
  FROM json_each(?2) AS c WHERE true
  ON CONFLICT (organization_id, phone_number) DO UPDATE SET
    full_name = excluded.full_name, first_name = excluded.first_name,
    changed_at = excluded.changed_at, updated_at = excluded.updated_at
  WHERE excluded.changed_at >= phone_contacts.changed_at
  RETURNING phone_number, coalesce(full_name, first_name) AS name`;

/** `?1` organization, `?2` the removals as JSON: a removal older than the row's change loses. */
const DELETE_PHONE_CONTACTS = `
  DELETE FROM phone_contacts
  WHERE organization_id = ?1 AND phone_number IN (SELECT value ->> 'phone' FROM json_each(?2))
    AND changed_at <= (SELECT value ->> 'changedAt' FROM json_each(?2)
      WHERE value ->> 'phone' = phone_contacts.phone_number)`;

/** `?1` organization, `?2` the names that changed (`{phone, name}`), `?3` now. */
const NAME_CONVERSATIONS = `
  WITH named AS MATERIALIZED (
    SELECT value ->> 'phone' AS phone, value ->> 'name' AS name FROM json_each(?2))
  UPDATE conversations SET contact_name = named.name, updated_at = ?3
  FROM named
  WHERE conversations.organization_id = ?1 AND conversations.phone_number = named.phone
    AND conversations.phone_number IN (SELECT phone FROM named)
    AND conversations.contact_name IS NOT named.name
  RETURNING *`;

/**
 * `add` keeps the business's name for a phone and names that customer's conversation with it
 * (the full name, else the first name); `remove` forgets the entry and the conversation keeps
 * its name. A contact alone creates no conversation.
 */
export async function applyPhoneContacts(
  deps: StoreDeps,
  organizationId: string,
  contacts: StateSyncPayload[],
): Promise<RealtimeEvent[]> {
  if (contacts.length === 0) return [];
  const changes = latestContactChanges(contacts);
  const additions = changes.filter((c) => !c.remove);
  const removals = changes.filter((c) => c.remove);
  const now = new Date().toISOString();
  const [upserted] = await orgStatements(deps.orgDb, [
    { sql: UPSERT_PHONE_CONTACTS, params: [organizationId, JSON.stringify(additions), now] },
    { sql: DELETE_PHONE_CONTACTS, params: [organizationId, JSON.stringify(removals)] },
  ]);
  const named = upserted!
    .map((row) => ({ phone: String(row.phone_number), name: row.name as string | null }))
    .filter((row) => row.name !== null);
  if (named.length === 0) return [];
  const [renamed] = await orgStatements(deps.orgDb, [
    { sql: NAME_CONVERSATIONS, params: [organizationId, JSON.stringify(named), now] },
  ]);
  return fromRows(conversations, renamed!).map(conversationUpdate);
}

// ---------------------------------------------------------------------------------------------
// Echoes: what the owner sent from the app (`smb_message_echoes`) or Meta's AI (`standby`).

/** An echo as it is written (bound as JSON). */
interface EchoRow {
  id: string;
  wamid: string;
  conversationId: string;
  type: string;
  content: string;
  preview: string;
  mediaId: string | null;
  mediaMimeType: string | null;
  senderType: ArrivedEcho["sender"];
  sentAt: string;
  /** A reply from the phone silences the AI in its conversation until then. */
  pauseUntil: string | null;
}

/** `?1` organization, `?2` the echoes as JSON. A wamid already stored is skipped. */
const INSERT_ECHOES = `
  INSERT INTO messages (id, organization_id, conversation_id, wamid, type, content, direction,
    sender_type, status, media_id, media_mime_type, sent_at, created_at)
  SELECT m.value ->> 'id', ?1, m.value ->> 'conversationId', m.value ->> 'wamid',
    m.value ->> 'type', m.value ->> 'content', 'outbound', m.value ->> 'senderType', 'sent',
    m.value ->> 'mediaId', m.value ->> 'mediaMimeType', m.value ->> 'sentAt', m.value ->> 'sentAt'
  FROM json_each(?2) AS m WHERE true
  ON CONFLICT (organization_id, wamid) DO NOTHING
  RETURNING *`;

/**
 * The echoes stored just now move their conversation's last message and preview when newer
 * (never the unread count or the service window: an echo opens none) and start a follow-up's
 * wait when the customer has not written since (the business spoke last); a reply from the phone
 * pauses the AI (never earlier than a pause already there), one of Meta's AI says it holds the
 * thread, and a waiting AI draft is stale either way. `?1` the echoes, `?2` now.
 */
const COUNT_ECHOES = `
  WITH fresh AS MATERIALIZED (
    SELECT stored.conversation_id, stored.sent_at, m.key AS seq, m.value ->> 'preview' AS preview,
      m.value ->> 'senderType' AS sender, m.value ->> 'pauseUntil' AS pause_until
    FROM json_each(?1) AS m CROSS JOIN messages AS stored ON stored.id = m.value ->> 'id'
  ), totals AS (
    SELECT f.conversation_id, max(f.sent_at) AS latest, max(f.pause_until) AS pause_until,
      max(f.sender = 'meta_ai') AS meta_ai,
      (SELECT p.preview FROM fresh AS p WHERE p.conversation_id = f.conversation_id
        ORDER BY p.sent_at DESC, p.seq DESC LIMIT 1) AS preview
    FROM fresh AS f GROUP BY f.conversation_id
  )
  UPDATE conversations SET
    last_message_preview = CASE WHEN last_message_at <= totals.latest
      THEN totals.preview ELSE last_message_preview END,
    last_message_at = max(last_message_at, totals.latest),
    ai_paused_until = CASE WHEN totals.pause_until IS NULL THEN ai_paused_until
      ELSE max(coalesce(ai_paused_until, ''), totals.pause_until) END,
    controlled_by = CASE WHEN totals.meta_ai THEN 'meta_ai' ELSE controlled_by END,
    follow_up_since = CASE WHEN totals.latest >= coalesce(last_inbound_at, '')
      THEN max(coalesce(follow_up_since, ''), totals.latest) ELSE follow_up_since END,
    ai_draft = NULL,
    updated_at = ?2
  FROM totals WHERE conversations.id = totals.conversation_id
  RETURNING *`;

/**
 * Each echo becomes an outbound message, already sent, in its customer's conversation (found
 * or created, counting nothing), once per wamid. An edit or deletion echoed from the phone
 * changes the message it names instead.
 */
export async function ingestEchoes(
  deps: StoreDeps,
  connection: Connection,
  echoes: ArrivedEcho[],
): Promise<RealtimeEvent[]> {
  if (echoes.length === 0) return [];
  const { organizationId } = connection;
  const events: RealtimeEvent[] = [];
  // An echoed edit or deletion names the customer it was sent to: only their messages change.
  const corrections = echoes.flatMap(({ echo }) =>
    isCorrection(echo)
      ? [
          {
            message: echo,
            customer: { userId: validBsuid(echo.to_user_id), phone: validWaId(echo.to) },
          },
        ]
      : [],
  );
  // The owner's reactions from the phone are not messages of their own: left (logged).
  const sent = echoes.filter(({ echo }) => {
    if (echo.type === "reaction") console.info(`webhook: echoed reaction ${echo.id} left`);
    return !CORRECTIONS.has(echo.type) && echo.type !== "reaction" && typeof echo.id === "string";
  });
  const addressed = sent.flatMap((arrived) => {
    const userId = validBsuid(arrived.echo.to_user_id);
    const phone = validWaId(arrived.echo.to);
    if (userId || phone) return [{ ...arrived, userId, phone }];
    console.warn(`webhook: echo ${arrived.echo.id} names no customer (no BSUID, no phone)`);
    return [];
  });
  if (addressed.length > 0) {
    const found = await conversationsOfCustomers(
      deps.orgDb,
      organizationId,
      connection.defaultAgentId,
      addressed.map(({ echo, userId, phone }) => ({
        userId,
        phone,
        sentAt: isoFromSeconds(echo.timestamp),
      })),
    );
    const rows = addressed.flatMap(({ echo, sender }, index) => {
      const conversation = found[index];
      return conversation ? [echoRow(echo, sender, conversation.id)] : [];
    });
    events.push(...(await storeEchoes(deps, organizationId, rows)));
  }
  events.push(...(await applyCorrections(deps, organizationId, corrections, "outbound")));
  return events;
}

function echoRow(echo: InboundMessage, sender: ArrivedEcho["sender"], conversationId: string) {
  const sentAt = isoFromSeconds(echo.timestamp);
  const { content, mediaId, mediaMimeType } = readableContent(echo);
  const row: EchoRow = {
    id: uuidv7(),
    wamid: echo.id,
    conversationId,
    type: echo.type,
    content,
    preview: preview(content),
    mediaId,
    mediaMimeType,
    senderType: sender,
    sentAt,
    pauseUntil:
      sender === "phone" ? new Date(Date.parse(sentAt) + PHONE_PAUSE_MS).toISOString() : null,
  };
  return row;
}

async function storeEchoes(deps: StoreDeps, organizationId: string, rows: EchoRow[]) {
  if (rows.length === 0) return [];
  const json = JSON.stringify(rows);
  const [stored, counted, held] = await orgStatements(deps.orgDb, [
    { sql: INSERT_ECHOES, params: [organizationId, json] },
    { sql: COUNT_ECHOES, params: [json, new Date().toISOString()] },
    { sql: HELD_STATUSES_OF_ECHOES, params: [organizationId, json] },
  ]);
  const byId = new Map(fromRows(messages, stored!).map((row) => [row.id, row]));
  const touched = new Map(fromRows(conversations, counted!).map((row) => [row.id, row]));
  // Outbound, as the console receives every outbound message (not a customer's: no alert).
  const events = rows.flatMap((row): RealtimeEvent[] => {
    const message = byId.get(row.id);
    const conversation = touched.get(row.conversationId);
    if (!message || !conversation) return [];
    const data = { message: toMessage(message), conversation: toConversation(conversation) };
    return [{ type: "message_sent", data }];
  });
  // Statuses of these messages that came before them, applied after their message_sent (to the
  // message already stored with that wamid, for an echo repeated or imported first).
  const inserted = new Map([...byId.values()].map((message) => [message.wamid, message]));
  for (const wamid of new Set(held!.map((status) => String(status.wamid)))) {
    const message =
      inserted.get(wamid) ??
      (await deps.orgDb.query.messages.findFirst({
        where: and(eq(messages.organizationId, organizationId), eq(messages.wamid, wamid)),
      }));
    const ofMessage = held!
      .filter((status) => status.wamid === wamid)
      .map((status) => ({
        payload: JSON.parse(String(status.payload)) as unknown,
        status: String(status.status),
      }));
    if (message) events.push(...(await applyHeldStatuses(deps, message, ofMessage)).events);
  }
  return events;
}

/** The statuses held for the echoes just stored (`?2`), read (whatsapp/statuses.ts). */
const HELD_STATUSES_OF_ECHOES = `
  SELECT wamid, status, payload FROM held_statuses WHERE organization_id = ?1
    AND wamid IN (SELECT m.value ->> 'wamid' FROM json_each(?2) AS m)`;

// ---------------------------------------------------------------------------------------------
// Edits and deletions (`type: "edit"` / `"revoke"`), from the customer or echoed from the app.

/** A message that changes another one: WhatsApp's edits and deletions for everyone. */
export interface CorrectionPayload extends InboundMessage {
  edit?: {
    original_message_id?: string;
    message?: Omit<InboundMessage, "id" | "timestamp">;
  };
  revoke?: { original_message_id?: string };
}

const CORRECTIONS = new Set(["edit", "revoke"]);

export const isCorrection = (message: InboundMessage): message is CorrectionPayload =>
  CORRECTIONS.has(message.type);

/** What the list shows of a deleted message. */
export const DELETED_PREVIEW = "Mensaje eliminado";

/** An edit or a deletion, with the customer whose conversation it may change. */
export interface Correction {
  message: CorrectionPayload;
  /** The customer who sent it (inbound), or the one the business's echo was sent to. */
  customer: { userId: string | null; phone: string | null };
}

/**
 * The message a correction names (`?2`: its wamid, direction and customer as JSON), only in
 * that customer's conversation, found as their messages find it: another customer's wamid is
 * never theirs to change.
 */
const ORIGINAL_OF_CORRECTION = `
  SELECT stored.* FROM json_each(?2) AS m
  CROSS JOIN messages AS stored ON stored.organization_id = ?1
    AND stored.wamid = m.value ->> 'wamid' AND stored.direction = m.value ->> 'direction'
    AND stored.conversation_id = ${CONVERSATION_OF_MESSAGE}`;

/**
 * Edits and deletions of messages of the organization, by their wamid, in Meta's time order:
 * an edit gives the message its new content (a newer edit wins), a deletion empties it (content,
 * media, transcript, reactions) for good: an edit after it changes nothing. `direction` is whose
 * messages the senders may change: the customer's own (inbound), or the business's (echoes),
 * and only in that customer's conversation. An unknown message is logged and left.
 */
export async function applyCorrections(
  deps: StoreDeps,
  organizationId: string,
  corrections: Correction[],
  direction: "inbound" | "outbound",
): Promise<RealtimeEvent[]> {
  const events: RealtimeEvent[] = [];
  const ordered = [...corrections].sort(
    (a, b) => Number(a.message.timestamp) - Number(b.message.timestamp),
  );
  for (const { message: correction, customer } of ordered) {
    const wamid = correction.edit?.original_message_id ?? correction.revoke?.original_message_id;
    const [rows] =
      typeof wamid === "string"
        ? await orgStatements(deps.orgDb, [
            {
              sql: ORIGINAL_OF_CORRECTION,
              params: [organizationId, JSON.stringify([{ wamid, direction, ...customer }])],
            },
          ])
        : [[]];
    const [original] = fromRows(messages, rows!);
    if (!original) {
      console.warn(`webhook: ${correction.type} ${correction.id} names no known message`);
      continue;
    }
    const changed =
      correction.type === "edit"
        ? await editMessage(deps, original, correction)
        : await revokeMessage(deps, original, correction);
    if (!changed) continue;
    events.push({ type: "message_status", data: { message: toMessage(changed) } });
    const conversation = await followPreview(deps, changed);
    if (conversation) events.push(conversationUpdate(conversation));
  }
  return events;
}

async function editMessage(deps: StoreDeps, original: MessageRow, edit: CorrectionPayload) {
  const at = isoFromSeconds(edit.timestamp);
  if (original.deletedAt || (original.editedAt && original.editedAt > at)) return null;
  const replacement = edit.edit?.message;
  if (!replacement?.type) return null;
  const { content, mediaId, mediaMimeType } = readableContent({
    ...replacement,
    id: edit.id,
    timestamp: edit.timestamp,
  });
  const [row] = await deps.orgDb
    .update(messages)
    .set({
      content,
      // An edited caption comes without its file: the file stays.
      ...(mediaId && { mediaId, mediaMimeType }),
      editedAt: at,
    })
    .where(and(eq(messages.id, original.id), isNull(messages.deletedAt)))
    .returning();
  return row ?? null;
}

async function revokeMessage(deps: StoreDeps, original: MessageRow, revoke: CorrectionPayload) {
  if (original.deletedAt) return null; // Repeated.
  const [row] = await deps.orgDb
    .update(messages)
    .set({
      content: "",
      mediaId: null,
      mediaMimeType: null,
      transcript: null,
      transcriptStatus: null,
      transcriptError: null,
      reactions: null,
      deletedAt: isoFromSeconds(revoke.timestamp),
    })
    .where(and(eq(messages.id, original.id), isNull(messages.deletedAt)))
    .returning();
  return row ?? null;
}

/** The list's preview follows a changed message when it is the conversation's latest. */
async function followPreview(deps: StoreDeps, changed: MessageRow) {
  const latest = await deps.orgDb.query.messages.findFirst({
    where: and(
      eq(messages.conversationId, changed.conversationId),
      ne(messages.direction, "internal"),
    ),
    orderBy: (m, { desc }) => [desc(m.createdAt), desc(m.id)],
    columns: { id: true },
  });
  if (latest?.id !== changed.id) return null;
  const [row] = await deps.orgDb
    .update(conversations)
    .set({ lastMessagePreview: changed.deletedAt ? DELETED_PREVIEW : preview(changed.content) })
    .where(eq(conversations.id, changed.conversationId))
    .returning();
  return row ?? null;
}

// ---------------------------------------------------------------------------------------------
// messaging_handovers: who holds a customer's thread, this app or Meta's AI.

/** `?1` organization, `?2` BSUID, `?3` phone, `?4` the holder, `?5` now. */
const SET_THREAD_HOLDER = `
  UPDATE conversations SET controlled_by = ?4, updated_at = ?5
  WHERE id = coalesce(
      (SELECT id FROM conversations WHERE organization_id = ?1 AND wa_user_id = ?2),
      (SELECT id FROM conversations WHERE organization_id = ?1 AND phone_number = ?3))
    AND controlled_by <> ?4
  RETURNING *`;

/**
 * Each customer's thread goes to the app Meta names: this app (`META_APP_ID`), else Meta's
 * AI. Within a delivery the latest handover of each customer (Meta's `timestamp`) wins; across
 * deliveries they apply as they arrive (no column keeps a handover's time). A customer
 * without a conversation is logged and left: a handover alone is not a conversation.
 */
export async function applyHandovers(
  deps: StoreDeps,
  organizationId: string,
  handovers: HandoverPayload[],
): Promise<RealtimeEvent[]> {
  if (handovers.length === 0) return [];
  const latest = new Map<
    string,
    { userId: string | null; phone: string | null; holder: string; at: number }
  >();
  for (const handover of handovers) {
    const change = handover.pass_thread_control ?? handover.take_thread_control;
    const newOwner = change?.new_owner_app_id;
    const userId = validBsuid(handover.from_user_id);
    const phone = validWaId(handover.from);
    if (!newOwner || !(userId || phone)) {
      console.warn("webhook: messaging_handovers item ignored (no owner or no customer)");
      continue;
    }
    const holder = String(newOwner) === deps.env.META_APP_ID ? "app" : "meta_ai";
    const at = Number(handover.timestamp) || 0;
    const key = userId ?? phone!;
    const known = latest.get(key);
    if (!known || known.at <= at) latest.set(key, { userId, phone, holder, at });
  }
  const now = new Date().toISOString();
  const items = [...latest.values()];
  const results = await orgStatements(
    deps.orgDb,
    items.map(({ userId, phone, holder }) => ({
      sql: SET_THREAD_HOLDER,
      params: [organizationId, userId, phone, holder, now],
    })),
  );
  const events: RealtimeEvent[] = [];
  for (const rows of results) {
    const [row] = fromRows(conversations, rows);
    // Nothing: already held so, or a customer without a conversation (no id logged: a phone).
    if (row) events.push(conversationUpdate(row));
    else console.info("webhook: a handover changed nothing (already so, or no conversation)");
  }
  return events;
}
