import { and, eq } from "drizzle-orm";
import type { AiSource } from "../../contracts/conversations";
import { orgBatch } from "../db";
import { conversations, messages } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError, conflict } from "../../worker/http/errors";
import {
  assertWindowOpen,
  conversationUpdate,
  preview,
  toConversation,
  toMessage,
  type ConversationRow,
  type MessageRow,
} from "../conversations/mappers";
import { connectedSender } from "./connection-service";
import type { SendVia } from "../meta/graph";
import { GraphError } from "../meta/errors";
import { sendTurn } from "./send-pace";
import { followUpWaitStarted } from "../follow-ups/waits";
import { applyHeldStatuses, heldStatusesOf, retryStrandedLater } from "./statuses";

/**
 * What WhatsApp is asked to send: the message type (text, template, image, document, audio,
 * video) and its part in Graph's format. A media part gets the `id` of its file: the one
 * uploaded from `file` first, or one Meta already has.
 */
export interface Delivery {
  type: string;
  part: Record<string, unknown>;
  file?: { blob: Blob; name: string };
  /** Templates may be sent whatever the window; everything else needs it open. */
  anyTime?: boolean;
}

/** How a send reaches Meta, for the callers that need more than the defaults (broadcasts). */
export interface SendOptions {
  /** The organization's connected sender, when the caller holds it already (null: none). */
  sender?: ConnectedSender | null;
  /** Repeated by Meta on the message's statuses (`biz_opaque_callback_data`). */
  callbackData?: string;
  /** Through the Marketing Messages API, as `route` says (a marketing template). */
  marketing?: MarketingRoute;
  /**
   * The store's sends (broadcasts, follow-ups), which go on later: a send Meta refuses for the
   * number's throughput (130429) is taken back (never sent, so never shown) and answered as
   * null, for the caller to try again after a pause, rather than failed.
   */
  laterWhenThrottled?: boolean;
}

/**
 * How the marketing templates of one run of sends reach Meta, shared by those sends: through
 * the Marketing Messages API until Meta says the account is not onboarded to it, then through
 * `/messages` (`fellBack`, set by the first send refused, read by each send at its turn).
 */
export interface MarketingRoute {
  fellBack: boolean;
}

type ConnectedSender = NonNullable<Awaited<ReturnType<typeof connectedSender>>>;

/** A message from the business to the customer. */
export interface Outbound extends Delivery {
  /** What the team sees in the conversation (the caption or a placeholder for media). */
  content: string;
  senderType: "agent" | "bot" | "broadcast" | "follow_up" | "reminder";
  senderUserId?: string | null;
  mediaMimeType?: string | null;
  /** A person sent the AI's suggestion ("Sugerido por IA"). */
  suggestedByAi?: boolean;
  /** The knowledge entries an AI answer used ("Fuentes"). */
  aiSources?: AiSource[];
}

const NOT_CONNECTED =
  "WhatsApp no está conectado. Conéctalo en Configuración > Meta Business para enviar mensajes.";
const UNEXPECTED =
  "No se pudo enviar el mensaje por un error inesperado. Inténtalo de nuevo con «Reintentar».";

/** Free-form messages need the 24-hour window open; refused (422) before anything is sent. */
function assertWindow(conversation: ConversationRow, delivery: Delivery) {
  if (!delivery.anyTime) assertWindowOpen(conversation);
}

/**
 * Sends a message to the customer. Free-form messages are refused (422, nothing stored)
 * outside the 24-hour window. Otherwise the message is stored first, so it is never lost,
 * then handed to WhatsApp; its status ends `sent` (with the wamid) or `failed` (with Meta's
 * reason), whatever went wrong on the way, unless `laterWhenThrottled` takes it back (null).
 */
export async function sendOutbound(
  deps: StoreDeps,
  conversation: ConversationRow,
  outbound: Outbound,
  options: SendOptions & { laterWhenThrottled: true },
): Promise<ReturnType<typeof toMessage> | null>;
export async function sendOutbound(
  deps: StoreDeps,
  conversation: ConversationRow,
  outbound: Outbound,
  options?: SendOptions,
): Promise<ReturnType<typeof toMessage>>;
export async function sendOutbound(
  deps: StoreDeps,
  conversation: ConversationRow,
  outbound: Outbound,
  options: SendOptions = {},
) {
  assertWindow(conversation, outbound);
  const { orgDb } = deps;
  const organizationId = conversation.organizationId;
  const now = new Date().toISOString();
  const [[stored], [updatedConversation]] = await orgBatch(orgDb, [
    orgDb
      .insert(messages)
      .values({
        organizationId,
        conversationId: conversation.id,
        content: outbound.content,
        type: outbound.type,
        direction: "outbound",
        senderType: outbound.senderType,
        senderUserId: outbound.senderUserId ?? null,
        mediaMimeType: outbound.mediaMimeType ?? null,
        suggestedByAi: outbound.suggestedByAi ?? false,
        aiSources: outbound.aiSources?.length ? outbound.aiSources : null,
        status: "pending",
        createdAt: now,
      })
      .returning(),
    orgDb
      .update(conversations)
      .set({
        lastMessageAt: now,
        lastMessagePreview: preview(outbound.content),
        updatedAt: now,
        // A person answered: the AI's suggestion, sent or not, is not shown again.
        ...(outbound.senderType === "agent" && { aiDraft: null }),
        ...followUpWait(outbound.senderType, now),
      })
      .where(eq(conversations.id, conversation.id))
      .returning(),
  ]);

  if (startsFollowUpWait(outbound.senderType)) await followUpWaitStarted(deps, organizationId);
  const outcome = await attempt(deps, conversation, outbound, options);
  if (
    options.laterWhenThrottled &&
    "errorCode" in outcome &&
    outcome.errorCode === `${THROTTLED}`
  ) {
    await takeBack(deps, conversation, stored!, now);
    return null;
  }
  const { message, accepted, events } = await deliverStored(deps, conversation, stored!, outcome);
  const taken = await takeThread(deps, updatedConversation!, stored!, accepted);
  const payload = { message, conversation: toConversation(taken ?? updatedConversation!) };
  await deps.publish(
    { type: "message_sent", data: payload },
    ...(taken ? [conversationUpdate(taken)] : []),
    ...events,
  );
  return message;
}

/**
 * A send Meta refused for throughput, taken back: its message deleted and the conversation's
 * last message as it was (unless another message moved it meanwhile). Nothing was published.
 */
async function takeBack(
  deps: StoreDeps,
  conversation: ConversationRow,
  stored: MessageRow,
  at: string,
) {
  const { orgDb } = deps;
  await orgBatch(orgDb, [
    orgDb
      .delete(messages)
      .where(and(eq(messages.id, stored.id), eq(messages.organizationId, stored.organizationId))),
    orgDb
      .update(conversations)
      .set({
        lastMessageAt: conversation.lastMessageAt,
        lastMessagePreview: conversation.lastMessagePreview,
        followUpSince: conversation.followUpSince,
      })
      .where(and(eq(conversations.id, conversation.id), eq(conversations.lastMessageAt, at))),
  ]);
}

/** A person's or the AI's message starts a follow-up's wait; a follow-up leaves it as it was. */
const startsFollowUpWait = (senderType: Outbound["senderType"]) =>
  senderType === "agent" || senderType === "bot";

/**
 * How a message sent changes the conversation's follow-up wait: a person's or the AI's starts
 * it again; a broadcast ends it (two promotions back to back are what Meta's pair rate
 * refuses); a follow-up leaves it, so the next rule of a sequence counts from the same message.
 */
function followUpWait(senderType: Outbound["senderType"], now: string) {
  if (startsFollowUpWait(senderType)) return { followUpSince: now };
  if (senderType === "broadcast") return { followUpSince: null };
  return {};
}

/**
 * A person's message sent from the console takes the thread from Meta's AI, as Meta does on
 * its side ("Tomar la conversación"); the row as it is now, or null when nothing changed.
 */
async function takeThread(
  deps: StoreDeps,
  conversation: ConversationRow,
  sent: MessageRow,
  accepted: boolean,
) {
  if (sent.senderType !== "agent" || !accepted || conversation.controlledBy === "app") {
    return null;
  }
  const [row] = await deps.orgDb
    .update(conversations)
    .set({ controlledBy: "app", updatedAt: new Date().toISOString() })
    .where(and(eq(conversations.id, conversation.id), eq(conversations.controlledBy, "meta_ai")))
    .returning();
  return row ?? null;
}

/**
 * Sends a failed message again: the same stored row, claimed from `failed` to `pending` in
 * one statement so that two clicks (or two members) send it once; the second gets 409. The
 * reminders job claims from `pending` a reminder a person handed it (durable-objects/reminders/retry.ts).
 */
export async function resendOutbound(
  deps: StoreDeps,
  conversation: ConversationRow,
  failed: MessageRow,
  delivery: Delivery,
  from: "failed" | "pending" = "failed",
) {
  assertWindow(conversation, delivery);
  const [claimed] = await deps.orgDb
    .update(messages)
    .set({ status: "pending", error: null, errorCode: null })
    .where(
      and(
        eq(messages.id, failed.id),
        eq(messages.organizationId, conversation.organizationId),
        eq(messages.status, from),
      ),
    )
    .returning();
  if (!claimed) throw notFailed();
  const outcome = await attempt(deps, conversation, delivery, {});
  const { message, accepted, events } = await deliverStored(deps, conversation, claimed, outcome);
  const taken = await takeThread(deps, conversation, claimed, accepted);
  await deps.publish(
    { type: "message_status", data: { message } },
    ...(taken ? [conversationUpdate(taken)] : []),
    ...events,
  );
  return message;
}

export const notFailed = () =>
  conflict("Este mensaje no está fallido: ya se envió o se está reenviando.");

/**
 * Records how a stored pending message's attempt at WhatsApp ended: the message as it is now
 * (statuses held for its wamid applied), whether Meta accepted it (its status may already be
 * past `sent`, or `failed` by a status), and the held statuses' other events (a consent).
 */
async function deliverStored(
  deps: StoreDeps,
  conversation: ConversationRow,
  stored: MessageRow,
  outcome: Awaited<ReturnType<typeof attempt>>,
) {
  const { orgDb } = deps;
  const organizationId = conversation.organizationId;
  const record = orgDb
    .update(messages)
    .set(outcome)
    .where(and(eq(messages.id, stored.id), eq(messages.organizationId, organizationId)))
    .returning();
  // Statuses Meta sent before this answer came back were held for this wamid: read with it.
  const [[recorded], held] = outcome.wamid
    ? await orgBatch(orgDb, [record, heldStatusesOf(orgDb, organizationId, outcome.wamid)])
    : [await record, []];
  const accepted = outcome.status === "sent";
  if (held.length === 0) return { message: toMessage(recorded!), accepted, events: [] };
  const applied = await applyHeldStatuses(deps, recorded!, held).catch((error: unknown) => {
    // The message went out and is recorded: the send answers so, as it is now (the statuses
    // before the failing one applied). The rest stay held (statuses.ts): the message's
    // next status brings them in, or the store's job does.
    console.error("early statuses not applied", stored.id, error);
    retryStrandedLater(deps, organizationId);
    return null;
  });
  const now = await orgDb.query.messages.findFirst({
    where: and(eq(messages.id, stored.id), eq(messages.organizationId, organizationId)),
  });
  const events = (applied?.events ?? []).filter((event) => event.type !== "message_status");
  return { message: toMessage(now ?? recorded!), accepted, events };
}

/**
 * One attempt at WhatsApp. Never throws: a message must not stay `pending` because of a
 * network error, a time-out or a bug, so anything thrown becomes a `failed` status with a
 * Spanish reason. A file Meta accepted keeps its media id even when the send failed, so a
 * retry does not upload it again.
 */
async function attempt(
  deps: StoreDeps,
  conversation: ConversationRow,
  delivery: Delivery,
  options: SendOptions,
) {
  let mediaId: string | undefined;
  try {
    const sender =
      options.sender !== undefined
        ? options.sender
        : await connectedSender(deps, conversation.organizationId);
    if (!sender) {
      return { status: "failed" as const, error: NOT_CONNECTED, errorCode: "not_connected" };
    }
    const { graph, connection } = sender;
    if (delivery.file) {
      const { blob, name } = delivery.file;
      mediaId = (await graph.uploadMedia(connection.phoneNumberId, blob, name)).id;
    }
    const part = mediaId ? { ...delivery.part, id: mediaId } : delivery.part;
    const { marketing } = options;
    let endpoint = "messages" as SendVia["endpoint"];
    const send = async () => {
      await sendTurn(connection);
      // Decided at the turn: a send refused meanwhile may have learnt the fallback.
      endpoint = marketing && !marketing.fellBack ? "marketing_messages" : "messages";
      const via = { endpoint, callbackData: options.callbackData };
      return graph.sendMessage(connection.phoneNumberId, conversation, delivery.type, part, via);
    };
    const sendOrFallBack = async () => {
      try {
        return await send();
      } catch (error) {
        if (!marketing || endpoint !== "marketing_messages" || !notOnboarded(error)) throw error;
        marketing.fellBack = true;
        return send();
      }
    };
    // The store's sends go on after a pause of their own rather than hold its alarm here.
    const answer = await (options.laterWhenThrottled
      ? sendOrFallBack()
      : afterThrottling(sendOrFallBack));
    return { status: "sent" as const, wamid: answer.messages[0]?.id ?? null, mediaId };
  } catch (error) {
    if (!(error instanceof GraphError)) console.error("outbound message failed", error);
    return {
      status: "failed" as const,
      mediaId,
      ...(error instanceof GraphError
        ? { error: error.message, errorCode: String(error.code ?? error.status) }
        : { error: UNEXPECTED, errorCode: "unexpected" }),
    };
  }
}

/** Meta's throughput limit on the number (130429): a send it refused is asked again later. */
const THROTTLED = 130429;
/** How long a throttled send waits before each new attempt: after the last, it fails. */
const THROTTLED_RETRY_MS = [1_000, 4_000];

/**
 * Runs `send`, and again after a pause while Meta answers that the number's throughput is
 * reached (the pace keeps under it, but Meta counts what arrives, and other senders of the
 * number, the WhatsApp Business app's, count too).
 */
async function afterThrottling<T>(send: () => Promise<T>): Promise<T> {
  for (const pause of THROTTLED_RETRY_MS) {
    try {
      return await send();
    } catch (error) {
      if (!(error instanceof GraphError) || error.code !== THROTTLED) throw error;
      await new Promise((resolve) => setTimeout(resolve, pause));
    }
  }
  return send();
}

/**
 * Meta refused the Marketing Messages API because the account is not onboarded to it (or the
 * template is not available there): 134100, 134102, or a 4xx that says onboarding.
 */
const notOnboarded = (error: unknown) =>
  error instanceof GraphError &&
  (error.code === 134100 ||
    error.code === 134102 ||
    (error.status >= 400 && error.status < 500 && /onboard/i.test(error.providerMessage)));

/** A free-form text as WhatsApp takes it. */
export const textDelivery = (content: string): Delivery => ({
  type: "text",
  part: { body: content, preview_url: false },
});

/** A free-form text: a team member's reply or the AI's. */
export function sendText(
  deps: StoreDeps,
  conversation: ConversationRow,
  text: Pick<Outbound, "content" | "senderType" | "senderUserId" | "suggestedByAi" | "aiSources">,
) {
  return sendOutbound(deps, conversation, { ...text, ...textDelivery(text.content) });
}

/** Meta's connected sender of the organization, for calls that are not messages. */
export async function requireSender(deps: StoreDeps, organizationId: string) {
  const sender = await connectedSender(deps, organizationId);
  if (!sender) throw new AppError(422, "not_connected", NOT_CONNECTED);
  return sender;
}
