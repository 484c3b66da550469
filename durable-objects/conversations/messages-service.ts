import { and, asc, count, desc, eq, lt, or } from "drizzle-orm";
import { orgBatch, type OrganizationDb } from "../db";
import { conversations, messages, whatsappTemplates } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError, notFound } from "../../worker/http/errors";
import { requireAiBudget } from "../ai/budget";
import { aiNotConfigured, isAiConfigured } from "../ai/client";
import { connectedSender } from "../whatsapp/connection-service";
import {
  fillTemplate,
  templateParameterCount,
  type WhatsappTemplate,
} from "../../contracts/whatsapp";
import { metaFailure } from "../meta/errors";
import {
  notFailed,
  requireSender,
  resendOutbound,
  sendOutbound,
  sendText,
  textDelivery,
  type Delivery,
} from "../whatsapp/sender";
import { prepareTemplate } from "../whatsapp/templates-service";
import { marketingRefusal, type MarketingExclusion } from "../whatsapp/consent";
import { organizationQuietHoursEnd } from "../organizations/quiet-hours";
import { handReminderToJob } from "../reminders/retry";
import type { z } from "zod/mini";
import {
  DOCUMENT_PLACEHOLDER_PREFIX,
  MEDIA_LIMITS,
  MEDIA_PLACEHOLDERS,
  outboundMediaType,
  type MessagePage,
  type OutboundMediaType,
  type messagesQuery,
  type sendMessageInput,
} from "../../contracts/conversations";
import { documentName, mediaHeaders } from "./media-headers";
import { assertWindowOpen, toConversation, toMessage, type MessageRow } from "./mappers";
import { findConversation } from "./find";

/** One page of messages, oldest first; `before` pages back from a message of the conversation. */
export async function listMessages(
  { orgDb }: StoreDeps,
  member: Member,
  { id, query }: { id: string; query: z.output<typeof messagesQuery> },
): Promise<MessagePage> {
  const conversation = await findConversation(orgDb, member.organizationId, id);
  const inConversation = eq(messages.conversationId, conversation.id);
  let where = inConversation;
  if (query.before) {
    const anchor = await orgDb.query.messages.findFirst({
      where: and(eq(messages.id, query.before), inConversation),
      columns: { id: true, createdAt: true },
    });
    if (!anchor) throw notFound("Mensaje no encontrado.");
    where = and(
      inConversation,
      or(
        lt(messages.createdAt, anchor.createdAt),
        and(eq(messages.createdAt, anchor.createdAt), lt(messages.id, anchor.id)),
      ),
    )!;
  }
  const [rows, [total]] = await orgBatch(orgDb, [
    orgDb
      .select()
      .from(messages)
      .where(where)
      .orderBy(desc(messages.createdAt), desc(messages.id))
      .limit(query.limit + 1),
    orgDb.select({ n: count() }).from(messages).where(inConversation),
  ]);
  const hasMore = rows.length > query.limit;
  return {
    messages: rows.slice(0, query.limit).reverse().map(toMessage),
    has_more: hasMore,
    total: total?.n ?? 0,
  };
}

/** A team member's reply: free text inside the window, or an approved template at any time. */
export async function sendMessage(
  deps: StoreDeps,
  member: Member,
  input: z.output<typeof sendMessageInput>,
) {
  const conversation = await findConversation(
    deps.orgDb,
    member.organizationId,
    input.conversation_id,
  );
  const author = { senderType: "agent" as const, senderUserId: member.userId };
  if (input.content !== undefined) {
    const suggestedByAi = input.from_draft;
    return sendText(deps, conversation, { ...author, content: input.content, suggestedByAi });
  }
  const template = await prepareTemplate(deps, member.organizationId, input.template!);
  return sendOutbound(deps, conversation, {
    ...author,
    content: template.content,
    ...templateDelivery(template.part),
  });
}

const templateDelivery = (part: Record<string, unknown>): Delivery => ({
  type: "template",
  part,
  anyTime: true,
});

const placeholderOf = (type: OutboundMediaType, fileName: string) =>
  type === "document" ? `${DOCUMENT_PLACEHOLDER_PREFIX}${fileName}` : MEDIA_PLACEHOLDERS[type];

/**
 * A file from the team: checked against WhatsApp's limits before anything is stored, then
 * stored, uploaded to Meta and sent (audio carries no caption in WhatsApp).
 */
export async function sendMedia(
  deps: StoreDeps,
  member: Member,
  { id, upload }: { id: string; upload: { file: File; caption: string } },
) {
  const conversation = await findConversation(deps.orgDb, member.organizationId, id);
  const checked = outboundMediaType(upload.file);
  if ("error" in checked) {
    throw new AppError(checked.tooLarge ? 413 : 422, "invalid_media", checked.error);
  }
  const { type } = checked;
  const fileName = upload.file.name.slice(0, 200) || "archivo";
  const caption = type === "audio" ? "" : upload.caption;
  return sendOutbound(deps, conversation, {
    type,
    content: caption || placeholderOf(type, fileName),
    senderType: "agent",
    senderUserId: member.userId,
    mediaMimeType: upload.file.type,
    part: mediaPart(type, caption, fileName),
    file: { blob: upload.file, name: fileName },
  });
}

/** A media message's part, but for the file's `id` (audio carries no caption in WhatsApp). */
const mediaPart = (type: OutboundMediaType, caption: string, fileName: string | null) => ({
  ...(caption && type !== "audio" && { caption }),
  ...(type === "document" && fileName && { filename: fileName }),
});

/** A message by the path that names it: `/conversations/{id}/messages/{messageId}`. */
interface MessageRef {
  id: string;
  messageId: string;
}

async function findMessage(db: OrganizationDb, member: Member, { id, messageId }: MessageRef) {
  const conversation = await findConversation(db, member.organizationId, id);
  const row = await db.query.messages.findFirst({
    where: and(
      eq(messages.id, messageId),
      eq(messages.conversationId, conversation.id),
      eq(messages.organizationId, member.organizationId),
    ),
  });
  if (!row) throw notFound("Mensaje no encontrado.");
  return { conversation, row };
}

/**
 * Sends a failed outbound message again (a person's or the AI's): the same row, so the
 * conversation never shows it twice. Free text and files still need the window; a file is
 * re-sent from the media id Meta already has, else it must be attached again. A marketing
 * message (a broadcast's, a follow-up's, a marketing template) goes only as a new send of its
 * kind would: outside quiet hours, with the customer's consent (decision 0071). A booking's
 * reminder goes back to the reminders job, which sends it with its buttons (decision 0129).
 */
export async function retryMessage(deps: StoreDeps, member: Member, input: MessageRef) {
  const { conversation, row } = await findMessage(deps.orgDb, member, input);
  if (row.direction !== "outbound" || row.status !== "failed") throw notFailed();
  const refusal = row.errorCode && NEVER_RETRIED[row.errorCode];
  if (refusal) throw new AppError(409, "not_retriable", refusal);
  if (row.senderType === "reminder") return handReminderToJob(deps, row);
  const { delivery, category } = await deliveryOf(deps, row);
  const kind = {
    marketingTemplate: category === "MARKETING",
    followUp: row.senderType === "follow_up",
  };
  if (kind.marketingTemplate || kind.followUp || row.senderType === "broadcast") {
    const now = new Date();
    if (await organizationQuietHoursEnd(deps, now)) {
      throw new AppError(409, "quiet_hours", QUIET_HOURS);
    }
    const refused = marketingRefusal(conversation, kind, +now);
    if (refused) throw new AppError(409, "not_retriable", NOT_CONSENTED[refused]);
  }
  return resendOutbound(deps, conversation, row, delivery);
}

const STOPPED =
  "El cliente pidió no recibir promociones de este negocio: este mensaje no se reintenta.";
const LIMITED =
  "Meta limita las promociones a este cliente durante 24 horas: este mensaje no se reintenta.";

/**
 * What Meta refused for the customer's sake is never sent again (contract section 17): they
 * stopped marketing from the business (131050), or Meta's per-user marketing limit (131049).
 */
const NEVER_RETRIED: Record<string, string> = { "131050": STOPPED, "131049": LIMITED };

/** Why a marketing message is not sent again to this customer now, as a new send would skip them. */
const NOT_CONSENTED: Record<MarketingExclusion, string> = {
  opted_out: STOPPED,
  limited: LIMITED,
  unreachable:
    "WhatsApp no entrega promociones a este número (Estados Unidos o un país sin servicio): este mensaje no se reintenta.",
};

const QUIET_HOURS =
  "Es el horario de descanso de tu organización: las promociones no se envían hasta que termine. Reintenta después.";

const transcriptNotFailed = () =>
  new AppError(
    409,
    "transcript_not_failed",
    "Solo se puede reintentar la transcripción de una nota de voz que no se pudo transcribir.",
  );

/**
 * "Reintentar transcripción": a customer's voice note whose transcript failed goes back to
 * `pending` (consoles show "Transcribiendo…") and to the organization's hub, which transcribes
 * it as it does new ones and tells consoles the outcome. Past the monthly budget, 402.
 */
export async function retryTranscript(deps: StoreDeps, member: Member, input: MessageRef) {
  const { row } = await findMessage(deps.orgDb, member, input);
  const voiceNote = row.type === "audio" && row.direction === "inbound";
  if (!voiceNote || row.transcriptStatus !== "failed") throw transcriptNotFailed();
  if (!isAiConfigured(deps.env)) throw aiNotConfigured();
  await requireAiBudget(deps, member.organizationId);
  // Only one retry wins when two people press the button together.
  const [pending] = await deps.orgDb
    .update(messages)
    .set({ transcriptStatus: "pending", transcriptError: null })
    .where(and(eq(messages.id, row.id), eq(messages.transcriptStatus, "failed")))
    .returning();
  if (!pending) throw transcriptNotFailed();
  const message = toMessage(pending);
  await deps.publish({ type: "message_status", data: { message } });
  await deps.scheduleTranscripts([row.id]);
  return message;
}

/** What the customer reads above WhatsApp's "share phone number" button. */
export const REQUEST_PHONE_TEXT =
  "Para atenderte mejor, ¿nos compartes tu número de teléfono? Pulsa el botón para enviarlo.";

/** WhatsApp's request for the customer's phone (`request_contact_info`). */
const requestPhoneDelivery = (): Delivery => ({
  type: "interactive",
  part: {
    type: "request_contact_info",
    body: { text: REQUEST_PHONE_TEXT },
    action: { name: "request_contact_info" },
  },
});

/**
 * "Pedir teléfono": asks a customer known only by their WhatsApp username for their phone.
 * Their answer (a shared contact) fills it in (durable-objects/whatsapp/customer-identity.ts).
 */
export async function requestPhone(deps: StoreDeps, member: Member, { id }: { id: string }) {
  const conversation = await findConversation(deps.orgDb, member.organizationId, id);
  if (conversation.phoneNumber) {
    throw new AppError(409, "phone_known", "Ya tienes el teléfono de este cliente.");
  }
  return sendOutbound(deps, conversation, {
    senderType: "agent",
    senderUserId: member.userId,
    content: REQUEST_PHONE_TEXT,
    ...requestPhoneDelivery(),
  });
}

/** What to ask WhatsApp for to send a stored message again, and its template's category. */
async function deliveryOf(
  deps: StoreDeps,
  row: MessageRow,
): Promise<{ delivery: Delivery; category: string | null }> {
  if (row.type === "template") {
    const template = await templateOfContent(deps, row.organizationId, row.content);
    return { delivery: templateDelivery(template.part), category: template.category };
  }
  return { delivery: await untemplatedDeliveryOf(row), category: null };
}

async function untemplatedDeliveryOf(row: MessageRow): Promise<Delivery> {
  if (row.type === "text") return textDelivery(row.content);
  if (row.type === "interactive" && row.content === REQUEST_PHONE_TEXT) {
    return requestPhoneDelivery();
  }
  if (!isOutboundMediaType(row.type)) {
    throw new AppError(422, "not_retryable", "Este tipo de mensaje no se puede reenviar.");
  }
  if (!row.mediaId) {
    throw new AppError(
      422,
      "attach_again",
      "WhatsApp no llegó a recibir el archivo: vuelve a adjuntarlo para enviarlo.",
    );
  }
  const name = documentName(row.type, row.content);
  const caption = row.content === placeholderOf(row.type, name ?? "") ? "" : row.content;
  return { type: row.type, part: { id: row.mediaId, ...mediaPart(row.type, caption, name) } };
}

/**
 * The approved template that reads exactly as a sent template message, with the parameters
 * that fill it so. Messages keep only the text the customer read, not the template's name
 * and parameters, so they are found again from the account's templates; a template paused
 * or changed since cannot be sent again as it was.
 */
async function templateOfContent(deps: StoreDeps, organizationId: string, content: string) {
  const approved = await deps.orgDb.query.whatsappTemplates.findMany({
    where: and(
      eq(whatsappTemplates.organizationId, organizationId),
      eq(whatsappTemplates.status, "APPROVED"),
    ),
    orderBy: [asc(whatsappTemplates.name), asc(whatsappTemplates.language)],
  });
  for (const template of approved) {
    const parameters = parametersFilling(template, content);
    if (parameters) {
      const { name, language, category } = template;
      return {
        ...(await prepareTemplate(deps, organizationId, { name, language, parameters })),
        category,
      };
    }
  }
  throw new AppError(
    422,
    "template_changed",
    "La plantilla de este mensaje ya no está aprobada o cambió: envíala de nuevo desde «Plantillas».",
  );
}

/**
 * Parameters that turn the template's body into exactly `content`, or null. Each parameter
 * runs to the next occurrence of the text that follows it (linear, no backtracking); the
 * result is checked by filling the template, so any split found sends the same text.
 */
function parametersFilling(template: Pick<WhatsappTemplate, "components">, content: string) {
  // Without parameters the body keeps its {{n}}: text at even indexes, numbers at odd ones.
  const pieces = fillTemplate(template, []).split(/\{\{(\d+)\}\}/);
  if (!content.startsWith(pieces[0]!)) return null;
  const found: string[] = [];
  let at = pieces[0]!.length;
  for (let i = 1; i < pieces.length; i += 2) {
    const following = pieces[i + 1]!;
    const end =
      i === pieces.length - 2
        ? content.length - following.length
        : content.indexOf(following, at + 1);
    if (end <= at) return null;
    found[Number(pieces[i]) - 1] ??= content.slice(at, end);
    at = end + following.length;
  }
  const parameters = Array.from({ length: templateParameterCount(template) }, (_, i) => found[i]);
  return parameters.every((p): p is string => p !== undefined) &&
    fillTemplate(template, parameters) === content
    ? parameters
    : null;
}

const isOutboundMediaType = (type: string): type is OutboundMediaType =>
  Object.hasOwn(MEDIA_LIMITS, type);

/** The file of a message, streamed from Meta to a member of its organization. */
export async function messageMedia(deps: StoreDeps, member: Member, input: MessageRef) {
  const { row } = await findMessage(deps.orgDb, member, input);
  if (!row.mediaId) throw notFound("Este mensaje no tiene archivo.");
  const sender = await requireSender(deps, member.organizationId);
  try {
    const media = await sender.graph.getMedia(row.mediaId);
    const download = await sender.graph.downloadMedia(media.url);
    const mimeType = row.mediaMimeType ?? media.mime_type ?? download.headers.get("Content-Type");
    return {
      body: download.body!,
      headers: mediaHeaders(mimeType, documentName(row.type, row.content) ?? "archivo"),
    };
  } catch (error) {
    throw metaFailure(error, { code: "media_unavailable" });
  }
}

/**
 * The business reacts to a customer's message (an empty emoji removes the reaction). WhatsApp
 * takes reactions only inside the window; the reaction is kept on the message once Meta
 * accepted it.
 */
export async function reactToMessage(
  deps: StoreDeps,
  member: Member,
  { emoji, ...ref }: MessageRef & { emoji: string },
) {
  const { conversation, row } = await findMessage(deps.orgDb, member, ref);
  if (!row.wamid || row.direction !== "inbound") {
    throw new AppError(422, "not_reactable", "Solo se puede reaccionar a mensajes del cliente.");
  }
  assertWindowOpen(conversation);
  const sender = await requireSender(deps, member.organizationId);
  try {
    await sender.graph.sendMessage(sender.connection.phoneNumberId, conversation, "reaction", {
      message_id: row.wamid,
      emoji,
    });
  } catch (error) {
    throw metaFailure(error);
  }
  const others = (row.reactions ?? []).filter((r) => r.from !== BUSINESS);
  const reactions = emoji
    ? [...others, { emoji, from: BUSINESS, at: new Date().toISOString() }]
    : others;
  const [updated] = await deps.orgDb
    .update(messages)
    .set({ reactions })
    .where(eq(messages.id, row.id))
    .returning();
  const message = toMessage(updated!);
  await deps.publish({ type: "message_status", data: { message } });
  return message;
}

/** Who a reaction of the team is from. */
const BUSINESS = "business";

/**
 * Marks the conversation read: unread count to 0, the customer's messages read, and a read
 * receipt to WhatsApp for the newest one (after the answer; a failure there is only logged).
 */
export async function markRead(deps: StoreDeps, member: Member, { id }: { id: string }) {
  const { orgDb } = deps;
  const conversation = await findConversation(orgDb, member.organizationId, id);
  const [[updated]] = await orgBatch(orgDb, [
    orgDb
      .update(conversations)
      .set({ unreadCount: 0 })
      .where(eq(conversations.id, conversation.id))
      .returning(),
    orgDb
      .update(messages)
      .set({ status: "read" })
      .where(
        and(
          eq(messages.conversationId, conversation.id),
          eq(messages.direction, "inbound"),
          eq(messages.status, "delivered"),
        ),
      ),
  ]);
  const result = toConversation(updated!);
  if (conversation.unreadCount > 0) {
    await deps.publish({
      type: "conversation_update",
      data: { conversation: result },
    });
    deps.defer(sendReadReceipt(deps, member.organizationId, conversation.id));
  }
  return result;
}

async function sendReadReceipt(deps: StoreDeps, organizationId: string, conversationId: string) {
  try {
    const newest = await deps.orgDb.query.messages.findFirst({
      where: and(eq(messages.conversationId, conversationId), eq(messages.direction, "inbound")),
      orderBy: [desc(messages.createdAt)],
    });
    if (!newest?.wamid) return;
    const sender = await connectedSender(deps, organizationId);
    await sender?.graph.markRead(sender.connection.phoneNumberId, newest.wamid);
  } catch (error) {
    console.warn("read receipt failed", error);
  }
}
