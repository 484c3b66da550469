/**
 * Turns one verified webhook delivery into stored facts. Every effect is idempotent:
 * Meta retries for days and may deliver twice or out of order.
 */
import { and, eq, inArray, sql } from "drizzle-orm";
import {
  conversations,
  conversions,
  messages,
  trackingSessions,
  whatsappConnections,
} from "../db/schema";
import { isAiConfigured } from "../ai/client";
import type { Deps } from "../http/deps";
import { preview, toConversation, toMessage, type ConversationRow } from "../conversations/mappers";
import type { MessageStatus } from "../conversations/contract";
import { publish } from "../realtime/publish";
import { spanishGraphError } from "./graph";
import { readableContent, type InboundMessage } from "./inbound-content";
import { applyTemplateStatus, type TemplateStatusUpdate } from "./templates-service";

type ConnectionRow = typeof whatsappConnections.$inferSelect;

export interface WebhookPayload {
  object?: string;
  entry?: {
    id?: string;
    changes?: { field?: string; value?: ChangeValue }[];
  }[];
}

interface ChangeValue {
  messaging_product?: string;
  metadata?: { phone_number_id?: string; display_phone_number?: string };
  contacts?: { wa_id?: string; user_id?: string; profile?: { name?: string } }[];
  messages?: InboundMessage[];
  statuses?: StatusUpdate[];
}

interface StatusUpdate {
  id?: string;
  status?: string;
  timestamp?: string;
  recipient_id?: string;
  errors?: { code?: number; title?: string; message?: string; error_data?: { details?: string } }[];
}

/** What the ingest did, for the caller's follow-up work (AI replies) and for tests. */
export interface IngestResult {
  storedMessages: number;
  /** Conversations that got a new customer message with content an agent can answer. */
  conversationsToAnswer: { organizationId: string; conversationId: string }[];
}

const STATUS_RANK: Record<MessageStatus, number> = {
  pending: 0,
  sent: 1,
  delivered: 2,
  read: 3,
  failed: 1,
};

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
 * Whether an AI agent could answer: one is assigned, the conversation is not with a person
 * (pending) or closed, and a model is configured. Scheduling is not free (a Durable Object
 * call and an alarm), so conversations nobody will answer are not scheduled at all; the hub
 * checks everything again when the reply is due.
 */
const mayBeAnswered = (deps: Deps, conversation: ConversationRow) =>
  conversation.agentId !== null &&
  conversation.status !== "pending" &&
  conversation.status !== "closed" &&
  isAiConfigured(deps.env);

const isoFromSeconds = (seconds: string | undefined) => {
  const n = Number(seconds);
  return Number.isFinite(n) && n > 0 ? new Date(n * 1000).toISOString() : new Date().toISOString();
};

export async function ingestDelivery(deps: Deps, payload: WebhookPayload): Promise<IngestResult> {
  const result: IngestResult = { storedMessages: 0, conversationsToAnswer: [] };
  const connections = new Map<string, ConnectionRow | null>();

  for (const entry of payload.entry ?? []) {
    for (const change of entry.changes ?? []) {
      if (change.field === "message_template_status_update" && entry.id && change.value) {
        await applyTemplateStatus(deps.db, entry.id, change.value as TemplateStatusUpdate);
        continue;
      }
      if (change.field !== "messages" || !change.value) continue;
      const phoneNumberId = change.value.metadata?.phone_number_id;
      if (!phoneNumberId) continue;
      if (!connections.has(phoneNumberId)) {
        const row = await deps.db.query.whatsappConnections.findFirst({
          where: eq(whatsappConnections.phoneNumberId, phoneNumberId),
        });
        connections.set(phoneNumberId, row ?? null);
      }
      const connection = connections.get(phoneNumberId);
      if (!connection) continue; // A number no organization has connected: acknowledged, ignored.

      const names = new Map(
        (change.value.contacts ?? []).map((c) => [
          c.wa_id ?? "",
          { name: c.profile?.name, userId: c.user_id },
        ]),
      );
      for (const message of change.value.messages ?? []) {
        await ingestMessage(deps, connection, message, names.get(message.from), result);
      }
      for (const status of change.value.statuses ?? []) {
        await ingestStatus(deps, connection.organizationId, status);
      }
    }
  }
  return result;
}

async function ingestMessage(
  deps: Deps,
  connection: ConnectionRow,
  message: InboundMessage,
  contact: { name?: string; userId?: string } | undefined,
  result: IngestResult,
) {
  if (!message.id || !message.from || !message.type) return;
  const organizationId = connection.organizationId;

  if (message.type === "reaction") return ingestReaction(deps, organizationId, message);
  if (message.type === "system" && message.system?.type === "user_changed_number") {
    await moveToNewNumber(deps, organizationId, message);
  }

  const sentAt = isoFromSeconds(message.timestamp);
  const { content, mediaId, mediaMimeType } = readableContent(message);
  const referral = message.referral;
  // The customer's conversation, as a subquery: the three writes go to D1 in one round trip.
  const conversationId = sql<string>`(SELECT id FROM ${conversations} WHERE ${conversations.organizationId} = ${organizationId} AND ${conversations.phoneNumber} = ${message.from})`;
  const [, [stored], [updated]] = await deps.db.batch([
    upsertConversation(deps, connection, message.from, contact, sentAt),
    deps.db
      .insert(messages)
      .values({
        organizationId,
        conversationId,
        wamid: message.id,
        type: message.type,
        content,
        direction: "inbound",
        senderType: "customer",
        status: "delivered",
        mediaId,
        mediaMimeType,
        referral: referral ?? null,
        sentAt,
        createdAt: sentAt,
      })
      .onConflictDoNothing({ target: [messages.organizationId, messages.wamid] })
      .returning(),
    // Counted only when the insert above stored the message (a redelivery changes nothing).
    deps.db
      .update(conversations)
      .set({
        unreadCount: sql`${conversations.unreadCount} + 1`,
        lastMessageAt: sql`max(${conversations.lastMessageAt}, ${sentAt})`,
        lastMessagePreview: sql`CASE WHEN ${conversations.lastMessageAt} <= ${sentAt} THEN ${preview(content)} ELSE ${conversations.lastMessagePreview} END`,
        lastInboundAt: sql`max(coalesce(${conversations.lastInboundAt}, ''), ${sentAt})`,
        ...(referral && {
          ctwaClid: (referral.ctwa_clid as string | undefined) ?? null,
          adId: (referral.source_id as string | undefined) ?? null,
          adHeadline: (referral.headline as string | undefined) ?? null,
        }),
        updatedAt: new Date().toISOString(),
      })
      .where(
        and(
          eq(conversations.organizationId, organizationId),
          eq(conversations.phoneNumber, message.from),
          sql`changes() = 1`,
        ),
      )
      .returning(),
  ]);
  if (!stored || !updated) return; // Already stored by an earlier delivery.
  result.storedMessages += 1;
  const conversation = updated;

  if (referral) await recordAdClick(deps, organizationId, updated, referral, sentAt);
  const matched = await matchTrackedVisit(deps, organizationId, updated, content, sentAt);
  if (ANSWERABLE.has(message.type) && mayBeAnswered(deps, updated)) {
    result.conversationsToAnswer.push({ organizationId, conversationId: conversation.id });
  }
  await publish(deps.env, organizationId, {
    type: "new_message",
    data: { message: toMessage(stored), conversation: toConversation(matched ?? updated) },
  });
}

/** The reference the tracking snippet adds to WhatsApp links (see app/public/t.js). */
const REF_CODE = /\bAT-[2-9A-HJ-NP-Z]{6}\b/;

/**
 * A message carrying a visit's reference ties the conversation to that tracking session:
 * the phone is associated and `conversation_start` and `first_message` are recorded with
 * the session's parameters, once.
 */
async function matchTrackedVisit(
  deps: Deps,
  organizationId: string,
  conversation: ConversationRow,
  content: string,
  at: string,
) {
  const code = REF_CODE.exec(content)?.[0];
  if (!code || conversation.trackingSessionId) return null;
  const session = await deps.db.query.trackingSessions.findFirst({
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
  const [[linked]] = await deps.db.batch([
    deps.db
      .update(conversations)
      .set({ trackingSessionId: session.id, fbclid: session.fbclid })
      .where(eq(conversations.id, conversation.id))
      .returning(),
    deps.db
      .update(trackingSessions)
      .set({ phoneNumber: conversation.phoneNumber, lastActivityAt: at })
      .where(eq(trackingSessions.id, session.id)),
    deps.db
      .insert(conversions)
      .values([conversion("conversation_start"), conversion("first_message")]),
  ]);
  return linked ?? null;
}

/** One conversation per (organization, customer); created on first contact. */
function upsertConversation(
  deps: Deps,
  connection: ConnectionRow,
  waId: string,
  contact: { name?: string; userId?: string } | undefined,
  at: string,
) {
  return deps.db
    .insert(conversations)
    .values({
      organizationId: connection.organizationId,
      phoneNumber: waId,
      contactName: contact?.name ?? null,
      waUserId: contact?.userId ?? null,
      agentId: connection.defaultAgentId,
      status: connection.defaultAgentId ? "assigned" : "open",
      lastMessageAt: at,
    })
    .onConflictDoUpdate({
      target: [conversations.organizationId, conversations.phoneNumber],
      set: {
        contactName: sql`coalesce(${contact?.name ?? null}, ${conversations.contactName})`,
        waUserId: sql`coalesce(${contact?.userId ?? null}, ${conversations.waUserId})`,
      },
    });
}

/** A customer's reaction lives on the message it reacts to; an empty emoji removes it. */
async function ingestReaction(deps: Deps, organizationId: string, message: InboundMessage) {
  const target = message.reaction?.message_id;
  if (!target) return;
  const row = await deps.db.query.messages.findFirst({
    where: and(eq(messages.organizationId, organizationId), eq(messages.wamid, target)),
  });
  if (!row) return;
  const at = isoFromSeconds(message.timestamp);
  const others = (row.reactions ?? []).filter((r) => r.from !== message.from);
  const current = (row.reactions ?? []).find((r) => r.from === message.from);
  if (current && current.at > at) return; // An older reaction delivered late.
  const emoji = message.reaction?.emoji ?? "";
  const reactions = emoji ? [...others, { emoji, from: message.from, at }] : others;
  const [updated] = await deps.db
    .update(messages)
    .set({ reactions })
    .where(eq(messages.id, row.id))
    .returning();
  await publish(deps.env, organizationId, {
    type: "message_status",
    data: { message: toMessage(updated!) },
  });
}

async function moveToNewNumber(deps: Deps, organizationId: string, message: InboundMessage) {
  const newWaId = message.system?.new_wa_id ?? message.system?.wa_id;
  if (!newWaId || newWaId === message.from) return;
  await deps.db
    .update(conversations)
    .set({ phoneNumber: newWaId, updatedAt: new Date().toISOString() })
    .where(
      and(
        eq(conversations.organizationId, organizationId),
        eq(conversations.phoneNumber, message.from),
        sql`NOT EXISTS (SELECT 1 FROM ${conversations} c2 WHERE c2.organization_id = ${organizationId} AND c2.phone_number = ${newWaId})`,
      ),
    );
  message.from = newWaId;
}

/** A click-to-WhatsApp ad: one `conversation_start` conversion per click id. */
async function recordAdClick(
  deps: Deps,
  organizationId: string,
  conversation: ConversationRow,
  referral: NonNullable<InboundMessage["referral"]>,
  at: string,
) {
  const ctwaClid = typeof referral.ctwa_clid === "string" ? referral.ctwa_clid : null;
  if (!ctwaClid) return; // Status ads carry no click id: nothing to attribute.
  await deps.db
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
      eventTime: at,
    })
    .onConflictDoNothing();
}

/** Moves an outbound message forward only; `failed` records Meta's reason in Spanish. */
async function ingestStatus(deps: Deps, organizationId: string, status: StatusUpdate) {
  if (!status.id || !status.status) return;
  const next: MessageStatus | null =
    status.status === "played"
      ? "read"
      : ((["sent", "delivered", "read", "failed"] as const).find((s) => s === status.status) ??
        null);
  if (!next) return;
  const row = await deps.db.query.messages.findFirst({
    where: and(eq(messages.organizationId, organizationId), eq(messages.wamid, status.id)),
  });
  if (!row || row.direction !== "outbound") return;

  const moveAllowed =
    next === "failed"
      ? row.status === "pending" || row.status === "sent"
      : STATUS_RANK[next] > STATUS_RANK[row.status] && row.status !== "failed";
  if (!moveAllowed) return;

  const error = status.errors?.[0];
  const [updated] = await deps.db
    .update(messages)
    .set(
      next === "failed"
        ? {
            status: next,
            errorCode: String(error?.code ?? ""),
            error: spanishGraphError(
              error?.code ?? null,
              error?.error_data?.details ?? error?.message ?? error?.title ?? "desconocido",
            ),
          }
        : { status: next },
    )
    .where(and(eq(messages.id, row.id), inArray(messages.status, [row.status])))
    .returning();
  if (updated) {
    await publish(deps.env, organizationId, {
      type: "message_status",
      data: { message: toMessage(updated) },
    });
  }
}
