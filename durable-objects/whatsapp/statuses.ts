/**
 * Meta's statuses of the business's messages (`sent`, `delivered`, `read`, `played`,
 * `failed`), applied to the message by its wamid. Statuses come in any order and may come
 * before the send that made the message has recorded its wamid: Meta's answer to the send and
 * the status's webhook race, and under load the webhook wins. Such a status is held
 * (`held_statuses`) and applied when the wamid is recorded (`applyHeldStatuses`), so no tick
 * and no broadcast result is lost. Whoever finds the other first applies it: the send reads
 * what was held in the batch that records the wamid, and a status held looks for its message
 * again once held. A held status is read, applied, and only then removed: a failure on the way
 * leaves it held, never lost. Applying is idempotent (a status only moves a message forward),
 * so the rare race where both apply it changes nothing twice.
 */
import { and, eq, inArray, isNull } from "drizzle-orm";
import { conversations, heldStatuses, messages } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import { conversationUpdate, toMessage, type MessageRow } from "../conversations/mappers";
import type { MessageStatus } from "../../contracts/conversations";
import type { RealtimeEvent } from "../../contracts/realtime";
import { pricingCategoryOf } from "../../contracts/whatsapp";
import { broadcastOfCallback, recordRecipientStatus } from "../broadcasts/results";
import { metaErrorText } from "../meta/errors";
import { isoFromSeconds } from "./inbound-content";
import { applyMarketingFailure, marketingFailure } from "./consent";
import type { OrganizationDb } from "../db";

export interface StatusUpdate {
  id?: string;
  status?: string;
  timestamp?: string;
  /** The customer's phone, only when they share it. */
  recipient_id?: string;
  /** The customer's BSUID. */
  recipient_user_id?: string;
  /** What Meta bills for the message (per-message pricing, 2026). */
  pricing?: { billable?: unknown; pricing_model?: unknown; category?: unknown; type?: unknown };
  errors?: { code?: number; title?: string; message?: string; error_data?: { details?: string } }[];
  /** The reference the send carried (`broadcast:<id>` for a broadcast's message). */
  biz_opaque_callback_data?: unknown;
}

/** What applying statuses changed: the consoles' events, and whether a broadcast's results did. */
export interface StatusesApplied {
  events: RealtimeEvent[];
  broadcastResultsChanged: boolean;
}

/** How long a status waits for its message; retention removes it after (a message not ours). */
export const HELD_STATUS_MS = 24 * 60 * 60_000;

const STATUS_RANK: Record<MessageStatus, number> = {
  pending: 0,
  sent: 1,
  delivered: 2,
  read: 3,
  failed: 1,
};

/** The message status a Meta status means (`played`, a voice note listened to, is `read`). */
function statusOf(status: StatusUpdate): Exclude<MessageStatus, "pending"> | null {
  if (status.status === "played") return "read";
  return (
    (["sent", "delivered", "read", "failed"] as const).find((s) => s === status.status) ?? null
  );
}

const nothing = (): StatusesApplied => ({ events: [], broadcastResultsChanged: false });

const findByWamid = (deps: StoreDeps, organizationId: string, wamid: string) =>
  deps.orgDb.query.messages.findFirst({
    where: and(eq(messages.organizationId, organizationId), eq(messages.wamid, wamid)),
  });

/**
 * A status from a webhook: applied to its message, or held when no message has its wamid yet.
 */
export async function ingestStatus(
  deps: StoreDeps,
  organizationId: string,
  status: StatusUpdate,
): Promise<StatusesApplied> {
  const next = statusOf(status);
  if (!status.id || !next) return nothing();
  const row = await findByWamid(deps, organizationId, status.id);
  if (row) {
    // Its own failure fails the delivery, as any status's does: Meta delivers it again.
    const applied = await applyStatus(deps, row, status);
    // Statuses still held because applying them failed come in with the next one; their
    // failing again must not fail this delivery (its messages with it) every time.
    const brought = await applyHeldStatuses(deps, applied.row).catch((error: unknown) => {
      console.error("held statuses not applied", organizationId, status.id, error);
      retryStrandedLater(deps, organizationId);
      return nothing();
    });
    return {
      events: [...applied.events, ...brought.events],
      broadcastResultsChanged: applied.broadcastResultsChanged || brought.broadcastResultsChanged,
    };
  }

  await hold(deps.orgDb, organizationId, status);
  // The send may have recorded the wamid since the look above, and found nothing held.
  const recorded = await findByWamid(deps, organizationId, status.id);
  return recorded ? applyHeldStatuses(deps, recorded) : nothing();
}

/**
 * Applies what is held for a message whose wamid is recorded (a send's answer, an echo from the
 * phone, a status of its own), in Meta's order, and removes each once applied. `held`: what a
 * caller's own batch already read with `heldStatusesOf`; without it they are read here. A
 * failure leaves the status that failed and those after it held, for the message's next status
 * or the store's job.
 */
export async function applyHeldStatuses(
  deps: StoreDeps,
  row: MessageRow,
  held?: HeldStatus[],
): Promise<StatusesApplied> {
  if (!row.wamid) return nothing();
  const { organizationId, wamid } = row;
  const waiting = held ?? (await heldStatusesOf(deps.orgDb, organizationId, wamid));
  const applied = nothing();
  if (waiting.length === 0) return applied;
  const statusIn = (held: HeldStatus) => held.payload as StatusUpdate;
  const ordered = [...waiting].sort(
    (a, b) =>
      Number(statusIn(a).timestamp ?? 0) - Number(statusIn(b).timestamp ?? 0) ||
      STATUS_RANK[statusOf(statusIn(a))!] - STATUS_RANK[statusOf(statusIn(b))!],
  );
  const done: string[] = [];
  // Those applied are let go, even when a later one failed.
  const letGo = async () => {
    if (done.length === 0) return;
    await deps.orgDb
      .delete(heldStatuses)
      .where(
        and(
          eq(heldStatuses.organizationId, organizationId),
          eq(heldStatuses.wamid, wamid),
          inArray(heldStatuses.status, done),
        ),
      );
  };
  let current = row;
  try {
    for (const status of ordered) {
      const result = await applyStatus(deps, current, statusIn(status));
      applied.events.push(...result.events);
      applied.broadcastResultsChanged ||= result.broadcastResultsChanged;
      current = result.row;
      done.push(status.status);
    }
  } catch (error) {
    // Kept if letting go fails too: applied again later, which changes nothing.
    await letGo().catch(() => undefined);
    throw error;
  }
  await letGo();
  return applied;
}

/** A held status as Meta sent it, under the status it means. */
interface HeldStatus {
  payload: unknown;
  status: string;
}

/** Keeps a status whose message is not there yet (a repeat of one held changes nothing). */
const hold = (orgDb: OrganizationDb, organizationId: string, status: StatusUpdate) =>
  orgDb
    .insert(heldStatuses)
    .values({
      organizationId,
      wamid: status.id!,
      status: statusOf(status)!,
      payload: status,
      receivedAt: new Date().toISOString(),
    })
    .onConflictDoNothing();

/** How soon the store's job applies statuses still held after applying them failed. */
const STRANDED_RETRY_MS = 30_000;

/**
 * Asks the organization's store to apply, soon, statuses still held after applying them failed
 * (`held_statuses`), after the work under way (it may be a delivery's transaction).
 */
export function retryStrandedLater(deps: StoreDeps, organizationId: string) {
  const due = Date.now() + STRANDED_RETRY_MS;
  deps.defer(
    deps
      .schedule("held_statuses", due)
      .catch((failed: unknown) =>
        console.error("held statuses job not scheduled", organizationId, failed),
      ),
  );
}

/** Messages whose held statuses one run of that job applies; it runs again at once for more. */
const STRANDED_PER_RUN = 100;

/**
 * Statuses still held although their message exists (applying them failed after a send,
 * `deliverStored`), applied now: the message's next status would bring them in, but a `failed`
 * is the last Meta sends. The store's `held_statuses` job; answers what changed and whether
 * more are left.
 */
export async function applyStrandedStatuses(deps: StoreDeps, organizationId: string) {
  const stranded = await deps.orgDb
    .selectDistinct({ wamid: heldStatuses.wamid })
    .from(heldStatuses)
    .innerJoin(
      messages,
      and(
        eq(messages.organizationId, heldStatuses.organizationId),
        eq(messages.wamid, heldStatuses.wamid),
      ),
    )
    .where(eq(heldStatuses.organizationId, organizationId))
    .limit(STRANDED_PER_RUN);
  const applied = nothing();
  for (const { wamid } of stranded) {
    const row = await findByWamid(deps, organizationId, wamid);
    if (!row) continue;
    try {
      const result = await applyHeldStatuses(deps, row);
      applied.events.push(...result.events);
      applied.broadcastResultsChanged ||= result.broadcastResultsChanged;
    } catch (error) {
      // Still held as they were: one message's failing statuses never hold back the others',
      // and retention removes them a day after they first came.
      console.error("held statuses still not applied", organizationId, wamid, error);
    }
  }
  return { ...applied, more: stranded.length === STRANDED_PER_RUN };
}

/** What is held for a wamid (a query, to batch with the statement that records it). */
export const heldStatusesOf = (orgDb: OrganizationDb, organizationId: string, wamid: string) =>
  orgDb
    .select({ payload: heldStatuses.payload, status: heldStatuses.status })
    .from(heldStatuses)
    .where(and(eq(heldStatuses.organizationId, organizationId), eq(heldStatuses.wamid, wamid)));

/**
 * Moves an outbound message forward only; `failed` records Meta's reason in Spanish, and a
 * marketing template refused for the customer's sake (131050, 131049) changes their consent.
 * Answers the message as it is after.
 */
async function applyStatus(
  deps: StoreDeps,
  row: MessageRow,
  status: StatusUpdate,
): Promise<StatusesApplied & { row: MessageRow }> {
  const next = statusOf(status);
  const applied = { ...nothing(), row };
  if (!next || row.direction !== "outbound") return applied;
  await storePricing(deps, row, status.pricing);
  const consent = next === "failed" ? await consentOfFailure(deps, row, status) : null;
  if (consent) applied.events.push(conversationUpdate(consent));
  const failure = status.errors?.[0];
  const error =
    next === "failed"
      ? {
          code: String(failure?.code ?? ""),
          message: metaErrorText(
            failure?.code ?? null,
            failure?.error_data?.details ?? failure?.message ?? failure?.title ?? "desconocido",
          ),
        }
      : undefined;
  // A broadcast's message: its recipient moves on too, whatever the message's own order says.
  const broadcastId =
    row.senderType === "broadcast" ? broadcastOfCallback(status.biz_opaque_callback_data) : null;
  if (broadcastId) {
    const recipient = { broadcastId, conversationId: row.conversationId };
    const at = isoFromSeconds(status.timestamp);
    applied.broadcastResultsChanged = await recordRecipientStatus(deps, row.organizationId, {
      ...recipient,
      status: next,
      at,
      error,
    });
  }

  const moveAllowed =
    next === "failed"
      ? row.status === "pending" || row.status === "sent"
      : STATUS_RANK[next] > STATUS_RANK[row.status] && row.status !== "failed";
  if (!moveAllowed) return applied;

  const [updated] = await deps.orgDb
    .update(messages)
    .set(
      error
        ? { status: "failed" as const, errorCode: error.code, error: error.message }
        : { status: next },
    )
    .where(and(eq(messages.id, row.id), inArray(messages.status, [row.status])))
    .returning();
  if (!updated) return applied;
  applied.events.unshift(messageStatusEvent(updated));
  return { ...applied, row: updated };
}

export const messageStatusEvent = (row: MessageRow): RealtimeEvent => ({
  type: "message_status",
  data: { message: toMessage(row) },
});

/**
 * 131050 (the customer stopped marketing) and 131049 (Meta's per-user limit) speak of the
 * customer, not of the message: recorded by the status's time, even for a repeated status.
 */
async function consentOfFailure(deps: StoreDeps, row: MessageRow, status: StatusUpdate) {
  const failure = marketingFailure(status.errors?.[0]?.code);
  if (!failure) return null;
  const conversation = await deps.orgDb.query.conversations.findFirst({
    where: eq(conversations.id, row.conversationId),
    columns: { id: true, waUserId: true, phoneNumber: true },
  });
  if (!conversation) return null;
  const at = isoFromSeconds(status.timestamp);
  return applyMarketingFailure(deps, row.organizationId, conversation, failure, at);
}

/**
 * What Meta bills for an outbound message, stored from the first status that carries it
 * (Meta repeats it on delivered and read). A malformed `pricing` is ignored, never fatal.
 */
async function storePricing(deps: StoreDeps, row: MessageRow, pricing: StatusUpdate["pricing"]) {
  if (row.billable !== null || typeof pricing?.billable !== "boolean") return;
  await deps.orgDb
    .update(messages)
    .set({
      billable: pricing.billable,
      pricingCategory: pricingCategoryOf(pricing.category),
      pricingType: typeof pricing.type === "string" ? pricing.type.slice(0, 40) : null,
    })
    .where(and(eq(messages.id, row.id), isNull(messages.billable)));
}
