/**
 * From the ad to the sale (server-contract §10): a conversation's stage, the sales recorded
 * in it, and the leads and purchases Meta detected in a click-to-WhatsApp thread. Every lead
 * and sale becomes a conversion tied to the conversation (and sent to Meta through
 * `recordConversationConversion`), exactly once however often it is asked for.
 */
import { and, desc, eq, isNotNull } from "drizzle-orm";
import type { z } from "zod/mini";
import { recordAudit } from "../audit/service";
import type { OrganizationDb } from "../db";
import { conversionSuggestions, conversations, conversions, trackingSessions } from "../schema";
import { findConversation } from "../conversations/find";
import { conversationUpdate, toConversation, type ConversationRow } from "../conversations/mappers";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError, conflict, notFound } from "../../worker/http/errors";
import { systemNote } from "../team-inbox/notes-service";
import { recordConversationConversion, toConversion } from "../tracking/service";
import type {
  ConversationOrigin,
  ConversationStage,
  DetectedEventPayload,
  Suggestion,
  saleInput,
} from "../../contracts/sales";
import type { Conversion } from "../../contracts/tracking";
import { organizationCurrency } from "../organizations/currency";

type SuggestionRow = typeof conversionSuggestions.$inferSelect;

export const toSuggestion = (row: SuggestionRow): Suggestion => ({
  id: row.id,
  event_name: row.eventName,
  value: row.value,
  currency: row.currency,
  detected_at: row.detectedAt,
});

/** Moves a conversation to a stage and tells the team; returns the updated row. */
export async function moveToStage(
  deps: StoreDeps,
  conversation: ConversationRow,
  stage: ConversationStage,
): Promise<ConversationRow> {
  if (conversation.stage === stage) return conversation;
  const [updated] = await deps.orgDb
    .update(conversations)
    .set({ stage, updatedAt: new Date().toISOString() })
    .where(
      and(
        eq(conversations.id, conversation.id),
        eq(conversations.organizationId, conversation.organizationId),
      ),
    )
    .returning();
  await deps.publish(conversationUpdate(updated!));
  return updated!;
}

/** The conversation's one `lead` conversion, recorded the first time it becomes a lead. */
export const recordLead = (
  deps: StoreDeps,
  conversation: ConversationRow,
  customData?: Record<string, unknown>,
) =>
  recordConversationConversion(deps, conversation, {
    eventName: "lead",
    dedupeKey: `lead:${conversation.id}`,
    customData,
  });

/**
 * What a stage change does beyond the stage: becoming a lead records the conversation's one
 * lead conversion (set, unset and set again, it is still one).
 */
export async function afterStageChange(deps: StoreDeps, conversation: ConversationRow) {
  if (conversation.stage === "lead") await recordLead(deps, conversation);
}

/**
 * The AI's `mark_lead`: the same as a person moving a new conversation to Interesado, taken on
 * the customer's words alone, so it is never silent (docs/decisions/0040): the lead says it
 * came from the AI and why, and the thread tells the team, who can move the stage back.
 */
export async function markLeadByAgent(
  deps: StoreDeps,
  conversation: ConversationRow,
  reason: string,
) {
  const moved =
    conversation.stage === "new" ? await moveToStage(deps, conversation, "lead") : conversation;
  // Only the source goes with the lead (and to Meta): the reason is the customer's business.
  const { created } = await recordLead(deps, moved, { source: "ia" });
  if (created || moved !== conversation) {
    await systemNote(
      deps,
      conversation.organizationId,
      conversation.id,
      `La IA marcó la conversación como Interesado: ${reason}. Si no lo es, cambia la etapa.`,
    );
  }
}

/** `POST /conversations/{id}/sales`: the body, and the `Idempotency-Key` header if sent. */
interface SaleRequest {
  id: string;
  sale: z.output<typeof saleInput>;
  idempotencyKey: string | null;
}

/** Records a sale the member made (by hand or by confirming Meta's purchase) in the audit trail. */
const auditSale = (
  deps: StoreDeps,
  member: Member,
  conversationId: string,
  sale: Conversion,
  via: "sale" | "suggestion",
) =>
  recordAudit(deps.orgDb, {
    action: "sale.create",
    organizationId: member.organizationId,
    userId: member.userId,
    target: conversationId,
    metadata: { sale_id: sale.id, value: sale.conversion_value, currency: sale.currency, via },
    ip: member.ip,
  });

/**
 * A sale: a `purchase` with its value, tied to the conversation, and the customer becomes a
 * Cliente. An `Idempotency-Key` already used for this conversation with the same amount and
 * currency answers the same sale and changes nothing (the stage may have moved on since); with
 * another, it is 422 (Stripe's rule), never the first sale.
 */
export async function registerSale(
  deps: StoreDeps,
  member: Member,
  { id, sale: input, idempotencyKey }: SaleRequest,
) {
  const conversation = await findConversation(deps.orgDb, member.organizationId, id);
  const currency = input.currency ?? (await organizationCurrency(deps));
  const { conversion: sale, created } = await recordConversationConversion(deps, conversation, {
    eventName: "purchase",
    dedupeKey: `sale:${conversation.id}:${idempotencyKey ?? crypto.randomUUID()}`,
    value: input.value,
    currency,
  });
  if (!created && (sale.conversion_value !== input.value || sale.currency !== currency)) {
    throw new AppError(
      422,
      "idempotency_key_reused",
      "Esta Idempotency-Key ya se usó para otra venta con otro importe o moneda: usa una clave nueva.",
    );
  }
  if (created) {
    await auditSale(deps, member, conversation.id, sale, "sale");
    await moveToStage(deps, conversation, "customer");
  }
  return sale;
}

/** A conversation's leads and sales (and any other conversion tied to it), newest first. */
export async function conversationConversions(
  { orgDb }: StoreDeps,
  member: Member,
  { id: conversationId }: { id: string },
) {
  await findConversation(orgDb, member.organizationId, conversationId);
  const rows = await orgDb
    .select()
    .from(conversions)
    .where(
      and(
        eq(conversions.organizationId, member.organizationId),
        eq(conversions.conversationId, conversationId),
      ),
    )
    .orderBy(desc(conversions.eventTime), desc(conversions.id))
    .limit(200);
  return rows.map(toConversion);
}

/** What Meta detected and nobody has confirmed or dismissed yet, for the conversation screen. */
export async function pendingSuggestions(
  db: OrganizationDb,
  organizationId: string,
  conversationId: string,
) {
  const rows = await db
    .select()
    .from(conversionSuggestions)
    .where(
      and(
        eq(conversionSuggestions.organizationId, organizationId),
        eq(conversionSuggestions.conversationId, conversationId),
        eq(conversionSuggestions.status, "pending"),
      ),
    )
    .orderBy(desc(conversionSuggestions.detectedAt));
  return rows.map(toSuggestion);
}

/**
 * Where the customer came from: their latest ad click (the webhook recorded it as a
 * conversation start), else the landing-page visit their first message was matched to.
 */
export async function conversationOrigin(
  db: OrganizationDb,
  conversation: ConversationRow,
): Promise<ConversationOrigin | null> {
  const [click] = await db
    .select()
    .from(conversions)
    .where(
      and(
        eq(conversions.organizationId, conversation.organizationId),
        eq(conversions.conversationId, conversation.id),
        eq(conversions.eventName, "conversation_start"),
        isNotNull(conversions.ctwaClid),
      ),
    )
    .orderBy(desc(conversions.eventTime))
    .limit(1);
  if (click) {
    const sourceUrl = click.customData?.source_url;
    return {
      type: "ad",
      ad_id: click.trackingParams?.ad_id ?? conversation.adId,
      headline: click.campaign ?? conversation.adHeadline,
      source_url: typeof sourceUrl === "string" ? sourceUrl : null,
      clicked_at: click.eventTime,
    };
  }
  if (!conversation.trackingSessionId) return null;
  const visit = await db.query.trackingSessions.findFirst({
    where: and(
      eq(trackingSessions.id, conversation.trackingSessionId),
      eq(trackingSessions.organizationId, conversation.organizationId),
    ),
  });
  if (!visit) return null;
  return {
    type: "visit",
    source: visit.utmSource,
    campaign: visit.utmCampaign,
    landing_page: visit.landingPage,
    visited_at: visit.createdAt,
  };
}

/**
 * Stores what Meta detected in click-to-WhatsApp threads of an account as suggestions on the
 * conversations of those clicks, once per (message id, event): a redelivery adds nothing.
 * Several organizations may share an account (agencies): the webhook gives each organization
 * connected to it this call, and each finds its own click.
 */
export async function storeDetectedEvents(
  deps: StoreDeps,
  organizationId: string,
  events: DetectedEventPayload[],
) {
  if (events.length > 0) await storeOrganizationEvents(deps, organizationId, deps.orgDb, events);
}

/** One organization's part of `storeDetectedEvents`, over its own data: its clicks' suggestions. */
async function storeOrganizationEvents(
  deps: StoreDeps,
  organizationId: string,
  orgDb: OrganizationDb,
  events: DetectedEventPayload[],
) {
  for (const event of events) {
    // The click's conversation: the click was recorded once as a conversation start.
    const click = await orgDb.query.conversions.findFirst({
      where: and(
        eq(conversions.organizationId, organizationId),
        eq(conversions.ctwaClid, event.ctwa_clid),
        eq(conversions.eventName, "conversation_start"),
      ),
      columns: { conversationId: true },
    });
    if (!click?.conversationId) continue;
    const [stored] = await orgDb
      .insert(conversionSuggestions)
      .values({
        organizationId,
        conversationId: click.conversationId,
        wamid: event.id,
        eventName: event.event_name,
        value: event.event_name === "Purchase" ? (event.custom_data?.value ?? null) : null,
        currency: event.custom_data?.currency ?? null,
        detectedAt: new Date(
          event.timestamp !== undefined ? event.timestamp * 1000 : Date.now(),
        ).toISOString(),
      })
      .onConflictDoNothing()
      .returning();
    if (!stored) continue;
    const conversation = await findConversation(orgDb, organizationId, click.conversationId);
    await deps.publish({
      type: "conversation_update",
      data: { conversation: toConversation(conversation), suggestion: toSuggestion(stored) },
    });
  }
}

/** A suggestion by the path that names it: `/conversations/{id}/suggestions/{suggestionId}`. */
interface SuggestionRef {
  id: string;
  suggestionId: string;
}

async function findSuggestion(
  db: OrganizationDb,
  member: Member,
  { id, suggestionId }: SuggestionRef,
) {
  const row = await db.query.conversionSuggestions.findFirst({
    where: and(
      eq(conversionSuggestions.id, suggestionId),
      eq(conversionSuggestions.organizationId, member.organizationId),
      eq(conversionSuggestions.conversationId, id),
    ),
  });
  if (!row) throw notFound("Sugerencia no encontrada.");
  return row;
}

/**
 * Moves a pending suggestion to `status` in one statement, so of a confirmation and a dismissal
 * racing each other exactly one wins: "settled" for the request that moved it, "again" for one
 * repeating it (already there: a suggestion never leaves a settled status), null for the loser.
 */
async function settleSuggestion(
  db: OrganizationDb,
  suggestion: SuggestionRow,
  status: "confirmed" | "dismissed",
): Promise<"settled" | "again" | null> {
  const scoped = and(
    eq(conversionSuggestions.id, suggestion.id),
    eq(conversionSuggestions.organizationId, suggestion.organizationId),
  );
  const settled = await db
    .update(conversionSuggestions)
    .set({ status })
    .where(and(scoped, eq(conversionSuggestions.status, "pending")))
    .returning({ id: conversionSuggestions.id });
  if (settled.length > 0) return "settled";
  const now = await db.query.conversionSuggestions.findFirst({
    where: scoped,
    columns: { status: true },
  });
  return now?.status === status ? "again" : null;
}

/**
 * A person confirms what Meta detected: recorded like a stage change (a lead) or a sale (a
 * purchase with Meta's value), and sent, once however often it is confirmed. The suggestion is
 * claimed before anything is recorded, so a dismissal racing it cannot also win; a repeated
 * confirmation answers the same conversion and moves no stage (it may have moved on since).
 */
export async function confirmSuggestion(deps: StoreDeps, member: Member, input: SuggestionRef) {
  const suggestion = await findSuggestion(deps.orgDb, member, input);
  if (suggestion.eventName === "Purchase" && suggestion.value === null) {
    throw conflict("Meta no indicó el importe de esta compra: regístrala como venta.");
  }
  const settled = await settleSuggestion(deps.orgDb, suggestion, "confirmed");
  if (!settled) throw conflict("Esta sugerencia se descartó: ya no se puede confirmar.");
  const first = settled === "settled";
  const conversation = await findConversation(deps.orgDb, member.organizationId, input.id);
  let conversion;
  if (suggestion.eventName === "LeadSubmitted") {
    ({ conversion } = await recordLead(deps, conversation));
    if (first && conversation.stage === "new") await moveToStage(deps, conversation, "lead");
  } else {
    const sale = await recordConversationConversion(deps, conversation, {
      eventName: "purchase",
      dedupeKey: `suggestion:${suggestion.id}`,
      value: suggestion.value!,
      currency: suggestion.currency ?? (await organizationCurrency(deps)),
    });
    conversion = sale.conversion;
    if (sale.created) await auditSale(deps, member, conversation.id, conversion, "suggestion");
    if (first) await moveToStage(deps, conversation, "customer");
  }
  await deps.orgDb
    .update(conversionSuggestions)
    .set({ conversionId: conversion.id })
    .where(eq(conversionSuggestions.id, suggestion.id));
  return conversion;
}

export async function dismissSuggestion(
  { orgDb }: StoreDeps,
  member: Member,
  input: SuggestionRef,
) {
  const suggestion = await findSuggestion(orgDb, member, input);
  if (!(await settleSuggestion(orgDb, suggestion, "dismissed"))) {
    throw conflict("Esta sugerencia ya se confirmó y se envió a Meta.");
  }
}
