/**
 * Turns one organization's part of a verified webhook delivery into stored facts, in its store
 * (durable-objects/whatsapp/store-delivery.ts).
 * Every effect is idempotent: Meta retries for days and may deliver twice or out of order.
 */
import { applyBookingReplies, isBookingReply } from "../flows/replies";
import { reminderPress } from "../reminders/payloads";
import { recordReminderPresses } from "../reminders/presses";
import { claimAwayMessages } from "../bookings/away-message";
import { and, eq } from "drizzle-orm";
import { conversations, conversions, messages, trackingSessions } from "../schema";
import { autoAssign } from "../team-inbox/assignment";
import { isAiConfigured } from "../ai/client";
import type { Deps, StoreDeps } from "../../worker/http/deps";
import {
  conversationUpdate,
  preview,
  toConversation,
  toMessage,
  type ConversationRow,
} from "../conversations/mappers";
import { fromRows } from "../../worker/db/client";
import { orgBatch, orgStatements } from "../db";
import { uuidv7 } from "../../worker/db/ids";
import type { RealtimeEvent } from "../../contracts/realtime";
import { MARK_REPLIES, markResultsChanged } from "../broadcasts/results";
import { isoFromSeconds, readableContent, type InboundMessage } from "./inbound-content";
import { applyTemplateStatus } from "./templates-service";
import { storeDetectedEvents } from "../sales/service";
import {
  aiHeldElsewhere,
  applyAccountUpdate,
  applyCorrections,
  applyHandovers,
  applyPhoneContacts,
  ingestEchoes,
  isCorrection,
  type Correction,
} from "./coexistence";
import { holdHistory } from "./history-import";
import type {
  ArrivedMessage,
  Connection,
  DeliveryPart,
} from "../../worker/whatsapp/webhook-payloads";
import { ingestStatus, messageStatusEvent } from "./statuses";
import { applyConsentWords, applyUserPreferences, consentOf } from "./consent";
import {
  CONVERSATION_OF_MESSAGE,
  CREATE_NEW_CUSTOMERS,
  DeliveryCustomers,
  FOLLOW_IDENTITY_NOTICE,
  MATCH_BY_PHONE,
  MATCH_BY_USER_ID,
  RELEASE_RECYCLED_PHONES,
  identityOf,
  validBsuid,
  validWaId,
  type CustomerIdentity,
} from "./customer-identity";

/** Types an AI agent answers (not reactions, system notices or unsupported content). */
const ANSWERABLE = new Set([
  "text",
  "image",
  "audio",
  "video",
  "document",
  "sticker",
  "location",
  "contacts",
  "interactive",
  "button",
  "order",
]);

/**
 * Whether an AI agent could answer: one is assigned, no person holds the conversation, nobody
 * else answers it (Meta's AI, or the owner from the phone), it is not waiting for a person
 * (pending) or closed, and a model is configured. Scheduling is not free (a Durable Object
 * call and an alarm), so conversations nobody will answer are not scheduled at all; the hub
 * checks everything again when the reply is due.
 */
const mayBeAnswered = (deps: Deps, conversation: ConversationRow) =>
  conversation.agentId !== null &&
  conversation.assigneeId === null &&
  !aiHeldElsewhere(conversation) &&
  conversation.status !== "pending" &&
  conversation.status !== "closed" &&
  isAiConfigured(deps.env);

/** What an organization's part left to do after its writes, and what Meta is answered. */
export interface PartOutcome {
  storedMessages: number;
  /** Conversations that got a new customer message with content an agent can answer. */
  conversationsToAnswer: string[];
  /** Stored voice notes awaiting their transcript. */
  voiceNotes: string[];
  /** History pages were held: the store imports them in the background. */
  historyHeld: boolean;
  /** A broadcast's results changed (statuses, replies): its job tells the consoles shortly. */
  broadcastResultsChanged: boolean;
  /** The business wrote from the WhatsApp Business app (echoes): follow-ups' waits began. */
  followUpWaitStarted: boolean;
  /** Customers wrote while the business is closed: away messages were claimed for them. */
  awayMessagesOwed?: boolean;
}

/**
 * One organization's part of a delivery, over its store's `deps.orgDb`: stored, and its events
 * published. Scheduling the replies and transcripts is the caller's (the store queues its own). Every effect is idempotent by wamid.
 */
export async function ingestDeliveryPart(
  deps: StoreDeps,
  organizationId: string,
  part: DeliveryPart,
): Promise<PartOutcome> {
  for (const change of part.accountChanges) {
    if (change.field === "message_template_status_update") {
      await applyTemplateStatus(deps, organizationId, change.update);
    } else if (change.field === "automatic_events") {
      await storeDetectedEvents(deps, organizationId, change.events);
    } else await applyAccountUpdate(deps, organizationId, change.update);
  }
  const outcome: PartOutcome = {
    storedMessages: 0,
    conversationsToAnswer: [],
    voiceNotes: [],
    historyHeld: false,
    broadcastResultsChanged: false,
    followUpWaitStarted: false,
  };
  if (!part.number) return outcome;
  const { connection, messages: arrived, statuses } = part.number;
  // The phone's names first: a conversation this delivery creates takes the business's name.
  const events = await applyPhoneContacts(deps, organizationId, part.number.contacts ?? []);
  // Consent before messages only for order's sake: a conversation created after it inherits it.
  events.push(...(await applyUserPreferences(deps, organizationId, part.number.preferences ?? [])));
  events.push(...(await ingestMessages(deps, connection, arrived, outcome)));
  const echoed = await ingestEchoes(deps, connection, part.number.echoes ?? []);
  outcome.followUpWaitStarted = echoed.some((event) => event.type === "message_sent");
  events.push(...echoed);
  for (const status of statuses) {
    const applied = await ingestStatus(deps, organizationId, status);
    events.push(...applied.events);
    outcome.broadcastResultsChanged ||= applied.broadcastResultsChanged;
  }
  events.push(...(await applyHandovers(deps, organizationId, part.number.handovers ?? [])));
  if (part.number.history?.length) {
    outcome.historyHeld = await holdHistory(deps, organizationId, part.number.history);
  }
  // One call to the organization's hub for the whole delivery, however many messages.
  await deps.publish(...events);
  return outcome;
}

/** A customer message as it is written (bound as JSON, read with json_each). */
interface IncomingMessage {
  id: string;
  wamid: string;
  /** The customer's identifiers, which find the message's conversation. */
  userId: string | null;
  phone: string | null;
  type: string;
  content: string;
  preview: string;
  mediaId: string | null;
  mediaMimeType: string | null;
  /** "pending" for audio when a model is configured: the hub transcribes it after the answer. */
  transcriptStatus: "pending" | null;
  referral?: Record<string, unknown>;
  sentAt: string;
  /** Came on `standby`: its conversation is Meta's AI's. */
  standby: boolean;
}

/** A customer of the delivery, with a fresh id in case the conversation is new. */
interface Customer extends CustomerIdentity {
  id: string;
  sentAt: string;
}

/**
 * Stores a delivery's customer messages together: one all-or-nothing unit creates the
 * missing conversations, inserts the messages that are new, counts them on their
 * conversations and reads back what changed, whether the change carries one message or a
 * hundred. Per-message work is left to what needs it (ad clicks, tracked visits, reactions).
 */
async function ingestMessages(
  deps: StoreDeps,
  connection: Connection,
  arrived: ArrivedMessage[],
  /** Receives the count, the conversations to answer and the voice notes to transcribe. */
  outcome: PartOutcome,
): Promise<RealtimeEvent[]> {
  const { organizationId } = connection;
  const events: RealtimeEvent[] = [];
  const incoming: (IncomingMessage & { identity: CustomerIdentity })[] = [];
  const customers = new DeliveryCustomers<Customer>();
  const reactions: { message: InboundMessage; from: string }[] = [];
  // Messages that are only BAJA, STOP, ALTA... (a text, a button, a reply), by their row's id.
  const consentWords = new Map<string, "out" | "in">();
  // Edits and deletions change a stored message: never a new one, counted or answered.
  const corrections: Correction[] = [];
  // A customer who changed number or BSUID: the conversation follows first (the oldest notice
  // first), and the delivery's messages under the old identifiers follow it. Each notice is
  // stored on the conversation it moved; one that moved nothing names nobody to store it for.
  const renamed = new Map<string, string>();
  const followed = new Map<string, CustomerIdentity>();
  // Answers to a booking list or Flow, by wamid: acted on once stored (durable-objects/flows/replies.ts).
  const bookingAnswers = new Map<string, InboundMessage>();
  // Presses of a booking reminder's buttons, by wamid: kept once stored (durable-objects/reminders/).
  const reminderPresses = new Map<string, NonNullable<ReturnType<typeof reminderPress>>>();
  const notices = arrived.map(({ message }) => message).filter(isIdentityNotice);
  notices.sort((a, b) => Number(a.timestamp) - Number(b.timestamp));
  for (const notice of notices) {
    const change = await followIdentityChange(deps, organizationId, notice);
    if (!change) continue;
    followed.set(notice.id, change.conversation);
    for (const [before, after] of change.moved) renamed.set(before, after);
  }
  for (const { message, contacts, standby } of arrived) {
    if (typeof message.id !== "string" || typeof message.type !== "string") continue;
    const notice = isIdentityNotice(message);
    const found = notice ? (followed.get(message.id) ?? null) : identityOf(message, contacts);
    if (!found) {
      // Acknowledged (Meta must not retry forever) and nothing stored: nobody to store it for.
      if (!notice)
        console.warn(`webhook: message ${message.id} names no customer (no BSUID, no phone)`);
      continue;
    }
    const identity = {
      ...found,
      userId: found.userId && (renamed.get(found.userId) ?? found.userId),
      phone: found.phone && (renamed.get(found.phone) ?? found.phone),
    };
    // A customer changes only their own messages: the correction keeps who sent it.
    if (isCorrection(message)) {
      corrections.push({ message, customer: { userId: identity.userId, phone: identity.phone } });
      continue;
    }
    if (message.type === "reaction") {
      // Keyed by the phone when known: reactions stored before BSUIDs name it.
      reactions.push({ message, from: (identity.phone ?? identity.userId)! });
      continue;
    }
    const sentAt = isoFromSeconds(message.timestamp);
    customers.add({ ...identity, id: uuidv7(), sentAt });
    if (isBookingReply(message)) bookingAnswers.set(message.id, message);
    const press = reminderPress(message);
    if (press) reminderPresses.set(message.id, press);
    const { content, mediaId, mediaMimeType } = readableContent(message);
    const id = uuidv7();
    const word = consentOf(message);
    if (word) consentWords.set(id, word);
    incoming.push({
      id,
      wamid: message.id,
      identity,
      userId: null,
      phone: null,
      type: message.type,
      content,
      preview: preview(content),
      mediaId,
      mediaMimeType,
      transcriptStatus: message.type === "audio" && isAiConfigured(deps.env) ? "pending" : null,
      referral: message.referral,
      sentAt,
      standby: standby === true,
    });
  }
  // Every message names its customer by all the identifiers the delivery gave them.
  for (const message of incoming) {
    const customer = customers.find(message.identity);
    message.userId = customer.userId;
    message.phone = customer.phone;
  }

  if (incoming.length > 0) {
    const stored = await storeMessages(
      deps,
      connection,
      incoming.map(({ identity: _identity, ...message }) => message),
      customers.all(),
    );
    outcome.storedMessages += stored.messages.length;
    if (await markResultsChanged(deps, organizationId, stored.repliedBroadcasts)) {
      outcome.broadcastResultsChanged = true;
    }
    // A conversation whose number changed hands, when no message of its own tells the consoles.
    for (const row of stored.released) {
      if (!stored.conversations.has(row.id)) events.push(conversationUpdate(row));
    }
    // Round robin: a new conversation no agent answers goes to an available member.
    if (connection.autoAssign === "round_robin" && !connection.defaultAgentId) {
      for (const conversation of [...stored.conversations.values()]) {
        if (conversation.createdAt !== stored.at) continue;
        const assigned = await autoAssign(deps, organizationId, conversation.id);
        if (assigned) stored.conversations.set(assigned.id, assigned);
      }
    }
    // A message that is only BAJA, STOP, ALTA...: the customer's consent to marketing.
    const consentMessages = stored.messages.filter((m) => consentWords.has(m.id));
    const consented = await applyConsentWords(
      deps,
      organizationId,
      consentMessages.map((m) => ({
        conversation: stored.conversations.get(m.conversationId)!,
        word: consentWords.get(m.id)!,
        sentAt: m.sentAt!,
      })),
    );
    for (const row of consented) {
      stored.conversations.set(row.id, row);
      events.push(conversationUpdate(row));
    }
    const pressedReminder = (m: { wamid: string | null }) =>
      m.wamid !== null && reminderPresses.has(m.wamid);
    const answered = new Set<string>();
    // Conversations no AI answers, whose customer may be owed the away message (decision 0077).
    const unanswered = new Set<string>();
    for (const message of stored.messages) {
      const conversation = stored.conversations.get(message.conversationId)!;
      if (message.referral) {
        await recordAdClick(deps, organizationId, conversation, message.referral, message.sentAt!);
      }
      const linked = await matchTrackedVisit(
        deps,
        organizationId,
        conversation,
        message.content,
        message.sentAt!,
      );
      if (linked) stored.conversations.set(linked.id, linked);
      if (
        ANSWERABLE.has(message.type) &&
        // An opt-out word is not a question: the AI does not answer it (decision 0058).
        !consentMessages.includes(message) &&
        // Nor a reminder's button: the store's job acts on it (decision 0122).
        !pressedReminder(message) &&
        !answered.has(conversation.id) &&
        mayBeAnswered(deps, conversation)
      ) {
        answered.add(conversation.id);
        outcome.conversationsToAnswer.push(conversation.id);
      } else if (
        ANSWERABLE.has(message.type) &&
        !consentMessages.includes(message) &&
        !pressedReminder(message) &&
        !mayBeAnswered(deps, conversation) &&
        // Meta's AI or the owner's phone answers it: they are not away.
        !aiHeldElsewhere(conversation)
      ) {
        unanswered.add(conversation.id);
      }
    }
    for (const id of answered) unanswered.delete(id);
    await applyBookingReplies(
      deps,
      organizationId,
      stored.messages.flatMap((m) => {
        const message = m.wamid ? bookingAnswers.get(m.wamid) : undefined;
        return message ? [{ conversationId: m.conversationId, message }] : [];
      }),
    );
    await recordReminderPresses(
      deps,
      organizationId,
      stored.messages.flatMap((m) => {
        const press = m.wamid ? reminderPresses.get(m.wamid) : undefined;
        return press ? [{ messageId: m.id, conversationId: m.conversationId, ...press }] : [];
      }),
    );
    if (await claimAwayMessages(deps, organizationId, [...unanswered], Date.now())) {
      outcome.awayMessagesOwed = true;
    }
    for (const m of stored.messages) {
      if (m.transcriptStatus === "pending") outcome.voiceNotes.push(m.id);
    }
    for (const message of stored.messages) {
      events.push({
        type: "new_message",
        data: {
          message: toMessage(message),
          conversation: toConversation(stored.conversations.get(message.conversationId)!),
        },
      });
    }
  }
  for (const { message, from } of reactions) {
    const event = await ingestReaction(deps, organizationId, message, from);
    if (event) events.push(event);
  }
  events.push(...(await applyCorrections(deps, organizationId, corrections, "inbound")));
  return events;
}

/** A wamid already stored (a redelivery) is skipped; what was stored comes back. */
const INSERT_MESSAGES = `
  INSERT INTO messages (id, organization_id, conversation_id, wamid, type, content, direction,
    sender_type, status, media_id, media_mime_type, transcript_status, referral, sent_at,
    created_at)
  SELECT m.value ->> 'id', ?1, c.id, m.value ->> 'wamid', m.value ->> 'type',
    m.value ->> 'content', 'inbound', 'customer', 'delivered', m.value ->> 'mediaId',
    m.value ->> 'mediaMimeType', m.value ->> 'transcriptStatus', m.value -> 'referral',
    m.value ->> 'sentAt', m.value ->> 'sentAt'
  FROM json_each(?2) AS m
  CROSS JOIN conversations AS c ON c.id = ${CONVERSATION_OF_MESSAGE}
  WHERE true
  ON CONFLICT (organization_id, wamid) DO NOTHING
  RETURNING *`;

/**
 * Only the messages stored just now count on their conversation: unread, last message and
 * its preview (the latest by Meta's time, then by position), the service window, the
 * latest ad referral; a waiting AI draft answered older messages and goes, as does a follow-up
 * waiting for an answer; a message that came
 * on `standby` says Meta's AI holds the thread. The conversations it counted on come back for
 * the console's events. `fresh` is read once per conversation: materialized, it is not worked
 * out of the JSON again each time (6x faster at 100 messages).
 */
const COUNT_STORED = `
  WITH fresh AS MATERIALIZED (
    SELECT stored.conversation_id, stored.sent_at, m.key AS seq,
      m.value ->> 'preview' AS preview, m.value -> 'referral' AS referral,
      m.value ->> 'standby' AS standby
    FROM json_each(?1) AS m CROSS JOIN messages AS stored ON stored.id = m.value ->> 'id'
  ), totals AS (
    SELECT f.conversation_id, count(*) AS added, max(f.sent_at) AS latest,
      max(f.standby) AS standby,
      (SELECT p.preview FROM fresh AS p WHERE p.conversation_id = f.conversation_id
        ORDER BY p.sent_at DESC, p.seq DESC LIMIT 1) AS preview,
      (SELECT r.referral FROM fresh AS r
        WHERE r.conversation_id = f.conversation_id AND r.referral IS NOT NULL
        ORDER BY r.seq DESC LIMIT 1) AS referral
    FROM fresh AS f GROUP BY f.conversation_id
  )
  UPDATE conversations SET
    unread_count = unread_count + totals.added,
    ai_draft = NULL,
    follow_up_since = NULL,
    last_message_preview = CASE WHEN last_message_at <= totals.latest
      THEN totals.preview ELSE last_message_preview END,
    last_message_at = max(last_message_at, totals.latest),
    last_inbound_at = max(coalesce(last_inbound_at, ''), totals.latest),
    ctwa_clid = CASE WHEN totals.referral IS NULL
      THEN ctwa_clid ELSE totals.referral ->> 'ctwa_clid' END,
    ad_id = CASE WHEN totals.referral IS NULL THEN ad_id ELSE totals.referral ->> 'source_id' END,
    ad_headline = CASE WHEN totals.referral IS NULL
      THEN ad_headline ELSE totals.referral ->> 'headline' END,
    controlled_by = CASE WHEN totals.standby THEN 'meta_ai' ELSE controlled_by END,
    updated_at = ?2
  FROM totals WHERE conversations.id = totals.conversation_id
  RETURNING *`;

/** The ingest's one batch, in order (its query plans are checked by `ingest-plan.test.ts`). */
export const INGEST_BATCH = {
  releaseRecycledPhones: RELEASE_RECYCLED_PHONES,
  matchByUserId: MATCH_BY_USER_ID,
  matchByPhone: MATCH_BY_PHONE,
  createNewCustomers: CREATE_NEW_CUSTOMERS,
  insertMessages: INSERT_MESSAGES,
  countStored: COUNT_STORED,
  markReplies: MARK_REPLIES,
};

/**
 * Plain statements bound to the delivery as JSON (json_each): the statement count and
 * the bound parameters (D1 allows 100 per statement) stay the same for one message or a
 * hundred. `CROSS JOIN` keeps json_each the outer loop, so each message is found by index;
 * left to itself the planner may scan a whole table per delivery.
 */
async function storeMessages(
  deps: StoreDeps,
  { organizationId, defaultAgentId }: Connection,
  incoming: IncomingMessage[],
  customers: Customer[],
) {
  const now = new Date().toISOString();
  const rows = JSON.stringify(incoming);
  const people = JSON.stringify(customers);
  const status = defaultAgentId ? "assigned" : "open";
  const [releasedRows, , , , storedRows, countedRows, repliedRows] = await orgStatements(
    deps.orgDb,
    [
      { sql: INGEST_BATCH.releaseRecycledPhones, params: [organizationId, people, now] },
      { sql: INGEST_BATCH.matchByUserId, params: [organizationId, people] },
      { sql: INGEST_BATCH.matchByPhone, params: [organizationId, people] },
      {
        sql: INGEST_BATCH.createNewCustomers,
        params: [organizationId, people, defaultAgentId, status, now],
      },
      { sql: INGEST_BATCH.insertMessages, params: [organizationId, rows] },
      { sql: INGEST_BATCH.countStored, params: [rows, now] },
      { sql: INGEST_BATCH.markReplies, params: [rows, organizationId, now] },
    ],
  );
  const byId = new Map(fromRows(messages, storedRows!).map((row) => [row.id, row]));
  return {
    // In the delivery's order, which is the order the console shows them in.
    messages: incoming.flatMap((m) => byId.get(m.id) ?? []),
    // The conversations of those messages, as they are now.
    conversations: new Map(fromRows(conversations, countedRows!).map((r) => [r.id, r])),
    /** Conversations that let their phone go to another BSUID (a recycled number). */
    released: fromRows(conversations, releasedRows!),
    /** The batch's time: conversations created by it have it as `createdAt`. */
    at: now,
    /** Broadcasts some of these messages answered (their results changed). */
    repliedBroadcasts: repliedRows!.map((row) => String(row.broadcast_id)),
  };
}

/** The reference the tracking snippet adds to WhatsApp links (see app/public/t.js). */
const REF_CODE = /\bAT-[2-9A-HJ-NP-Z]{6}\b/;

/**
 * A message carrying a visit's reference ties the conversation to that tracking session:
 * the phone is associated and `conversation_start` and `first_message` are recorded with
 * the session's parameters, once.
 */
async function matchTrackedVisit(
  deps: StoreDeps,
  organizationId: string,
  conversation: ConversationRow,
  content: string,
  at: string,
) {
  const code = REF_CODE.exec(content)?.[0];
  if (!code || conversation.trackingSessionId) return null;
  const session = await deps.orgDb.query.trackingSessions.findFirst({
    where: and(eq(trackingSessions.organizationId, organizationId), eq(trackingSessions.ref, code)),
  });
  if (!session) return null;
  const params = session.trackingParams;
  const conversion = (eventName: "conversation_start" | "first_message") => ({
    organizationId,
    trackingSessionId: session.id,
    conversationId: conversation.id,
    eventName,
    phoneNumber: conversation.phoneNumber,
    trackingParams: params,
    source: session.utmSource,
    campaign: session.utmCampaign,
    eventTime: at,
  });
  const { orgDb } = deps;
  const [[linked]] = await orgBatch(orgDb, [
    orgDb
      .update(conversations)
      .set({ trackingSessionId: session.id, fbclid: session.fbclid })
      .where(eq(conversations.id, conversation.id))
      .returning(),
    orgDb
      .update(trackingSessions)
      .set({ phoneNumber: conversation.phoneNumber, lastActivityAt: at })
      .where(eq(trackingSessions.id, session.id)),
    orgDb
      .insert(conversions)
      .values([conversion("conversation_start"), conversion("first_message")]),
  ]);
  return linked ?? null;
}

/** A customer's reaction lives on the message it reacts to; an empty emoji removes it. */
async function ingestReaction(
  deps: StoreDeps,
  organizationId: string,
  message: InboundMessage,
  from: string,
) {
  const target = message.reaction?.message_id;
  if (!target) return;
  const row = await deps.orgDb.query.messages.findFirst({
    where: and(eq(messages.organizationId, organizationId), eq(messages.wamid, target)),
  });
  if (!row) return;
  const at = isoFromSeconds(message.timestamp);
  const others = (row.reactions ?? []).filter((r) => r.from !== from);
  const current = (row.reactions ?? []).find((r) => r.from === from);
  if (current && current.at > at) return; // An older reaction delivered late.
  const emoji = message.reaction?.emoji ?? "";
  const reactions = emoji ? [...others, { emoji, from, at }] : others;
  const [updated] = await deps.orgDb
    .update(messages)
    .set({ reactions })
    .where(eq(messages.id, row.id))
    .returning();
  return updated ? messageStatusEvent(updated) : null;
}

const isIdentityNotice = (message: InboundMessage) =>
  typeof message.id === "string" &&
  message.type === "system" &&
  (message.system?.type === "user_changed_number" ||
    message.system?.type === "user_changed_user_id");

/** What an identity notice moved: its conversation as it is now, and each identifier moved. */
interface FollowedChange {
  conversation: CustomerIdentity;
  moved: [string, string][];
}

/**
 * WhatsApp's notices that a customer's identifiers changed: `user_changed_number` (a new
 * phone, and with it a new BSUID) and `user_changed_user_id` (a new BSUID alone). Each moves
 * only the identifiers it names, forward (`FOLLOW_IDENTITY_NOTICE`). Null when it moved no
 * conversation: a customer nobody knows, a repeated notice or a late one (logged).
 */
async function followIdentityChange(
  deps: StoreDeps,
  organizationId: string,
  message: InboundMessage,
): Promise<FollowedChange | null> {
  const kind = message.system?.type;
  const numberChanged = kind === "user_changed_number";
  const oldPhone = numberChanged ? validWaId(message.from) : null;
  const newPhone = numberChanged
    ? validWaId(message.system?.wa_id ?? message.system?.new_wa_id)
    : null;
  // A BSUID change names the BSUID it replaces; a number change may leave that to the sender.
  const oldUserId = validBsuid(
    numberChanged
      ? (message.system?.previous_user_id ?? message.from_user_id)
      : message.system?.previous_user_id,
  );
  const newUserId = validBsuid(message.system?.user_id);
  const [found] = await orgStatements(deps.orgDb, [
    {
      sql: FOLLOW_IDENTITY_NOTICE,
      params: [
        organizationId,
        oldPhone,
        newPhone,
        oldUserId,
        newUserId,
        isoFromSeconds(message.timestamp),
        new Date().toISOString(),
      ],
    },
  ]);
  const row = found![0] as { phone_number: string | null; wa_user_id: string | null } | undefined;
  if (!row) {
    console.warn(`webhook: ${kind} ${message.id} moves no customer (unknown, repeated or late)`);
    return null;
  }
  const moved = (before: string | null, after: string | null, held: string | null) =>
    before && after && before !== after && held === after
      ? [[before, after] as [string, string]]
      : [];
  return {
    conversation: { userId: row.wa_user_id, phone: row.phone_number, username: null, name: null },
    moved: [
      ...moved(oldPhone, newPhone, row.phone_number),
      ...moved(oldUserId, newUserId, row.wa_user_id),
    ],
  };
}

/** A click-to-WhatsApp ad: one `conversation_start` conversion per click id. */
async function recordAdClick(
  deps: StoreDeps,
  organizationId: string,
  conversation: ConversationRow,
  referral: NonNullable<InboundMessage["referral"]>,
  at: string,
) {
  const ctwaClid = typeof referral.ctwa_clid === "string" ? referral.ctwa_clid : null;
  if (!ctwaClid) return; // Status ads carry no click id: nothing to attribute.
  await deps.orgDb
    .insert(conversions)
    .values({
      organizationId,
      conversationId: conversation.id,
      eventName: "conversation_start",
      phoneNumber: conversation.phoneNumber,
      ctwaClid,
      source: "facebook",
      campaign: typeof referral.headline === "string" ? referral.headline : null,
      trackingParams: {
        ctwa_clid: ctwaClid,
        ...(typeof referral.source_id === "string" && { ad_id: referral.source_id }),
        utm_source: "facebook",
      },
      // For the ads report (the ad's link); kept for analytics, never sent to Meta.
      ...(typeof referral.source_url === "string" && {
        customData: { source_url: referral.source_url.slice(0, 1000) },
      }),
      eventTime: at,
    })
    .onConflictDoNothing();
}
