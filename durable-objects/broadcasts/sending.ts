/**
 * Sending a broadcast (contract section 17, decision 0061). A manager's send marks it
 * `sending` (or `scheduled`); the organization's store sends it from its `broadcasts` job, a
 * couple of seconds at a time so that the AI's replies, which share the store's alarm, never
 * wait long: its audience is read once into recipients, then each recipient is claimed
 * (`pending` → `sending`) before Meta is asked, so nobody is sent twice whatever restarts or
 * retries happen. Sends go through the number's pace (80 a second, 20 for a number shared with
 * the app), outside the organization's quiet hours, and within the account's daily messaging
 * limit; marketing templates through the Marketing Messages API, with its fallback.
 */
import { and, asc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { orgStatements } from "../db";
import { broadcastRecipients, broadcasts, conversations, messages } from "../schema";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError, conflict } from "../../worker/http/errors";
import type { AuditAction } from "../../contracts/audit";
import { recordAudit } from "../audit/service";
import { connectedSender } from "../whatsapp/connection-service";
import { marketingRefusal } from "../whatsapp/consent";
import { requireSender, sendOutbound, type MarketingRoute } from "../whatsapp/sender";
import { inPool, SENDS_IN_FLIGHT, THROTTLED_PAUSE_MS } from "../whatsapp/send-pace";
import { prepareTemplate } from "../whatsapp/templates-service";
import { audienceRecipients, previewAudience } from "./audience";
import {
  CONFIRM_ABOVE_RECIPIENTS,
  CONFIRM_TOLERANCE,
  type BroadcastPreview,
  type PauseReason,
  type SendInput,
  type MarketingFrequency,
  type SkipReason,
} from "../../contracts/broadcasts";
import {
  assertBudgetLeft,
  assertWithinBudget,
  marketingAllowance,
  overFrequency,
  readMarketingLimits,
  runBudget,
  spanishAmount,
  spanishCount,
  type RunBudget,
} from "./marketing-limits";
import { assertStoreRoom, storeFull } from "../store-room";
import { withResults, type BroadcastRow } from "./mappers";
import { priceRecipients } from "./pricing";
import { findBroadcast, usableTemplate } from "./service";
import { organizationQuietHoursEnd } from "../organizations/quiet-hours";

/** A run stops claiming recipients after this long: the store's alarm serves replies too. */
const RUN_MS = 2_000;
/** Pending recipients read at a time: more than a run sends at the number's pace. */
const RECIPIENT_PAGE = 256;
/** The account's messaging limit is asked of Meta again after this long. */
const LIMIT_TTL_MS = 60_000;
/** Audience rows written per statement (bound as one JSON parameter). */
const RECIPIENT_CHUNK = 1_000;
/** When Meta cannot tell the messaging limit, the run is tried again this much later. */
const LIMIT_RETRY_MS = 60_000;
const DAY_MS = 24 * 60 * 60_000;

/**
 * Unique customers a day each messaging limit allows (Meta's tiers, per business portfolio).
 * Broadcasts use at most `BROADCAST_SHARE` of it: the rest stays for the templates the team
 * and follow-ups send, which the same limit counts.
 */
const TIER_LIMITS: Record<string, number> = {
  TIER_250: 250,
  TIER_2K: 2_000,
  TIER_10K: 10_000,
  TIER_100K: 100_000,
  TIER_UNLIMITED: Number.POSITIVE_INFINITY,
};
const BROADCAST_SHARE = 0.9;

const INTERRUPTED =
  "El envío se interrumpió mientras se pedía a Meta: no se reintenta para no enviarlo dos veces.";

/** The broadcast with its results, published to the organization's consoles. */
async function announce(deps: StoreDeps, organizationId: string, rows: BroadcastRow[]) {
  const shaped = await withResults(deps, organizationId, rows);
  await deps.publish(
    ...shaped.map((broadcast) => ({ type: "broadcast_update" as const, data: { broadcast } })),
  );
  return shaped;
}

/**
 * Changes a broadcast's status when it is in one of `from` (checked by the update itself, so
 * two managers' clicks change it once), audits it and tells the consoles; 409 otherwise.
 */
async function transition(
  deps: StoreDeps,
  member: Member,
  id: string,
  change: {
    from: BroadcastRow["status"][];
    set: Partial<BroadcastRow>;
    refused: string;
    action: AuditAction;
  },
) {
  const [row] = await deps.orgDb
    .update(broadcasts)
    .set({ ...change.set, updatedAt: new Date().toISOString() })
    .where(
      and(
        eq(broadcasts.id, id),
        eq(broadcasts.organizationId, member.organizationId),
        inArray(broadcasts.status, change.from),
      ),
    )
    .returning();
  if (!row) {
    await findBroadcast(deps.orgDb, member, id); // 404 when it is not the organization's
    throw conflict(change.refused);
  }
  await recordAudit(deps.orgDb, {
    action: change.action,
    organizationId: member.organizationId,
    userId: member.userId,
    metadata: { broadcast_id: id, status: row.status },
  });
  return row;
}

/** The preview's figures as the refusal says them. */
const figures = ({ recipients, estimated_cost: cost }: BroadcastPreview) => ({
  recipients: `${spanishCount(recipients)} destinatarios`,
  cost:
    cost.amount === null
      ? "un coste que no se puede estimar"
      : `unos ${spanishAmount(cost.amount, cost.currency)}`,
});

/**
 * A broadcast to more than 1,000 recipients goes only with the preview's figures confirmed,
 * each within 5% of what the preview says now (contract section 17): else 409 with them.
 */
function assertConfirmed(preview: BroadcastPreview, confirm: SendInput) {
  if (preview.recipients <= CONFIRM_ABOVE_RECIPIENTS) return;
  const near = (confirmed: number | null | undefined, now: number | null) =>
    now === null
      ? confirmed === null || confirmed === undefined
      : confirmed !== null &&
        confirmed !== undefined &&
        Math.abs(confirmed - now) <= CONFIRM_TOLERANCE * now;
  const recipientsOk = near(confirm.confirm_recipients, preview.recipients);
  const costOk = near(confirm.confirm_cost, preview.estimated_cost.amount);
  if (recipientsOk && costOk) return;
  const now = figures(preview);
  throw new AppError(
    409,
    "confirmation_required",
    `Confirma las cifras antes de enviar: la difusión llega ahora a ${now.recipients} y cuesta ${now.cost}.`,
    [
      ...(recipientsOk
        ? []
        : [{ path: "confirm_recipients", message: `Ahora son ${now.recipients}` }]),
      ...(costOk ? [] : [{ path: "confirm_cost", message: `Ahora cuesta ${now.cost}` }]),
    ],
  );
}

/**
 * `POST /broadcasts/{id}/send`: a draft with a future `send_at` is scheduled; otherwise (or a
 * scheduled one sent now) it starts sending. The template is checked again (Meta may have
 * paused it or changed its category since it was chosen), WhatsApp must be connected, and the
 * organization's store must have room (507 `store_full`). Its audience as it is now must fit
 * the owner's marketing budget (422), and above 1,000 recipients the caller must have confirmed
 * the preview's figures (409).
 */
export async function sendBroadcast(
  deps: StoreDeps,
  member: Member,
  { id, confirm }: { id: string; confirm: SendInput },
) {
  const current = await findBroadcast(deps.orgDb, member, id);
  assertStoreRoom(deps);
  await requireSender(deps, member.organizationId);
  const category = await usableTemplate(deps, member.organizationId, {
    name: current.templateName,
    language: current.templateLanguage,
    parameters: current.templateParameters,
  });
  const preview = await previewAudience(deps, member.organizationId, {
    audience: current.audience,
    category,
  });
  assertConfirmed(preview, confirm);
  assertWithinBudget(preview.marketing, {
    recipients: preview.recipients,
    cost: preview.estimated_cost.amount,
    currency: preview.estimated_cost.currency,
  });
  const now = new Date();
  const later =
    current.status === "draft" && current.sendAt !== null && Date.parse(current.sendAt) > +now;
  const row = await transition(deps, member, id, {
    from: current.status === "draft" ? ["draft"] : ["scheduled"],
    set: later
      ? { status: "scheduled", templateCategory: category }
      : { status: "sending", templateCategory: category, startedAt: now.toISOString() },
    refused: "Esta difusión ya se envió o se canceló.",
    action: later ? "broadcast.schedule" : "broadcast.send",
  });
  const dueAt = later ? Date.parse(current.sendAt!) : Date.now();
  await deps.schedule("broadcasts", dueAt);
  const [broadcast] = await announce(deps, member.organizationId, [row]);
  return broadcast!;
}

export async function pauseBroadcast(deps: StoreDeps, member: Member, id: string) {
  const row = await transition(deps, member, id, {
    from: ["sending"],
    set: { status: "paused", waitReason: null, waitUntil: null, pauseReason: null },
    refused: "Solo se puede pausar una difusión que se está enviando.",
    action: "broadcast.pause",
  });
  const [broadcast] = await announce(deps, member.organizationId, [row]);
  return broadcast!;
}

export async function resumeBroadcast(deps: StoreDeps, member: Member, id: string) {
  assertStoreRoom(deps);
  assertBudgetLeft(await marketingAllowance(deps, member.organizationId));
  const row = await transition(deps, member, id, {
    from: ["paused"],
    set: { status: "sending", pauseReason: null },
    refused: "Solo se puede reanudar una difusión en pausa.",
    action: "broadcast.resume",
  });
  await deps.schedule("broadcasts", Date.now());
  const [broadcast] = await announce(deps, member.organizationId, [row]);
  return broadcast!;
}

/** Cancels a broadcast not finished: whoever had not been sent it is `cancelled`. */
export async function cancelBroadcast(deps: StoreDeps, member: Member, id: string) {
  const now = new Date().toISOString();
  const row = await transition(deps, member, id, {
    from: ["scheduled", "sending", "paused"],
    set: { status: "cancelled", completedAt: now, waitReason: null, waitUntil: null },
    refused: "Solo se puede cancelar una difusión programada, en envío o en pausa.",
    action: "broadcast.cancel",
  });
  await deps.orgDb
    .update(broadcastRecipients)
    .set({ state: "cancelled", updatedAt: now })
    .where(
      and(
        eq(broadcastRecipients.broadcastId, id),
        eq(broadcastRecipients.organizationId, member.organizationId),
        eq(broadcastRecipients.state, "pending"),
      ),
    );
  const [broadcast] = await announce(deps, member.organizationId, [row]);
  return broadcast!;
}

// ---------------------------------------------------------------------------------------------
// The store's job.

/**
 * One run of the `broadcasts` job: tells consoles of changed results, starts what is due, and
 * sends for about `RUN_MS`. Answers when it is next due (null: nothing to do).
 */
export async function runBroadcasts(deps: StoreDeps, organizationId: string, at: Date) {
  await publishChangedResults(deps, organizationId);
  const now = at.toISOString();
  const { orgDb } = deps;
  const ofOrganization = eq(broadcasts.organizationId, organizationId);
  const started = await orgDb
    .update(broadcasts)
    .set({ status: "sending", startedAt: now, updatedAt: now })
    .where(
      and(ofOrganization, eq(broadcasts.status, "scheduled"), sql`${broadcasts.sendAt} <= ${now}`),
    )
    .returning();
  await markInterrupted(deps, organizationId);
  const sending = await orgDb
    .select()
    .from(broadcasts)
    .where(and(ofOrganization, eq(broadcasts.status, "sending")))
    .orderBy(asc(broadcasts.startedAt), asc(broadcasts.id));
  if (started.length > 0) await announce(deps, organizationId, started);
  const next = sending.length > 0 ? await sendSome(deps, organizationId, sending, at) : null;
  return earliest(next, await nextScheduled(deps, organizationId));
}

const earliest = (...times: (number | null)[]) => {
  const known = times.filter((time): time is number => time !== null);
  return known.length > 0 ? Math.min(...known) : null;
};

async function nextScheduled(deps: StoreDeps, organizationId: string) {
  const [row] = await deps.orgDb
    .select({ sendAt: broadcasts.sendAt })
    .from(broadcasts)
    .where(
      and(
        eq(broadcasts.organizationId, organizationId),
        eq(broadcasts.status, "scheduled"),
        isNotNull(broadcasts.sendAt),
      ),
    )
    .orderBy(asc(broadcasts.sendAt))
    .limit(1);
  return row ? Date.parse(row.sendAt!) : null;
}

/**
 * Tells the consoles about every broadcast whose results changed since they were last told,
 * pricing first what Meta said is billable; a change made meanwhile keeps its mark for the
 * next run.
 */
async function publishChangedResults(deps: StoreDeps, organizationId: string) {
  const changed = await deps.orgDb
    .select()
    .from(broadcasts)
    .where(
      and(eq(broadcasts.organizationId, organizationId), isNotNull(broadcasts.statsChangedAt)),
    );
  await priceRecipients(
    deps,
    organizationId,
    changed.map((row) => row.id),
  );
  for (const row of changed) {
    await deps.orgDb
      .update(broadcasts)
      .set({ statsChangedAt: null })
      .where(and(eq(broadcasts.id, row.id), eq(broadcasts.statsChangedAt, row.statsChangedAt!)));
  }
  if (changed.length > 0) await announce(deps, organizationId, changed);
}

/**
 * Recipients left `sending` by a run that never finished (the store restarted while Meta was
 * being asked): whether Meta took them is unknown, so they fail rather than risk a second
 * message. Runs never overlap (the job's lease), so none of them is in flight now.
 */
async function markInterrupted(deps: StoreDeps, organizationId: string) {
  const interrupted = await deps.orgDb
    .update(broadcastRecipients)
    .set({
      state: "failed",
      errorCode: "interrupted",
      error: INTERRUPTED,
      updatedAt: new Date().toISOString(),
    })
    .where(
      and(
        eq(broadcastRecipients.organizationId, organizationId),
        eq(broadcastRecipients.state, "sending"),
      ),
    )
    .returning({ broadcastId: broadcastRecipients.broadcastId });
  if (interrupted.length > 0) {
    await deps.orgDb
      .update(broadcasts)
      .set({ statsChangedAt: new Date().toISOString() })
      .where(
        inArray(
          broadcasts.id,
          interrupted.map((row) => row.broadcastId),
        ),
      );
  }
}

/** Sets (or clears) why the sending broadcasts wait, telling consoles when it changes. */
async function setWaiting(
  deps: StoreDeps,
  organizationId: string,
  rows: BroadcastRow[],
  waiting: { reason: NonNullable<BroadcastRow["waitReason"]>; until: number } | null,
) {
  const reason = waiting?.reason ?? null;
  const until = waiting ? new Date(waiting.until).toISOString() : null;
  const changed = rows.filter((row) => row.waitReason !== reason || row.waitUntil !== until);
  if (changed.length === 0) return;
  const updated = await deps.orgDb
    .update(broadcasts)
    .set({ waitReason: reason, waitUntil: until })
    .where(
      and(
        inArray(
          broadcasts.id,
          changed.map((row) => row.id),
        ),
        eq(broadcasts.status, "sending"),
      ),
    )
    .returning();
  await announce(deps, organizationId, updated);
}

/**
 * Sends the sending broadcasts in the order they started, within quiet hours and the daily
 * limit, for about `RUN_MS`. Answers when to go on.
 */
async function sendSome(
  deps: StoreDeps,
  organizationId: string,
  sending: BroadcastRow[],
  at: Date,
) {
  const quietEnd = await organizationQuietHoursEnd(deps, at);
  if (quietEnd) {
    await setWaiting(deps, organizationId, sending, { reason: "quiet_hours", until: +quietEnd });
    return +quietEnd;
  }
  // Nothing can be sent: each waits in pause, where a manager resumes it once there is room
  // again, or WhatsApp is reconnected.
  if (storeFull(deps)) return pauseAll(deps, organizationId, sending, "store_full");
  const sender = await connectedSender(deps, organizationId);
  if (!sender) return pauseAll(deps, organizationId, sending, "not_connected");
  const allowance = await dailyAllowance(deps, organizationId, sender, at);
  if (allowance === null) return Date.now() + LIMIT_RETRY_MS;
  if (allowance.left <= 0) {
    await setWaiting(deps, organizationId, sending, {
      reason: "messaging_limit",
      until: allowance.renewsAt,
    });
    return allowance.renewsAt;
  }
  await setWaiting(deps, organizationId, sending, null);
  // The owner's monthly budget: spent, what is still sending waits in pause for a manager.
  const budget = await runBudget(deps, organizationId, +at);
  if (budget.reached) return pauseAll(deps, organizationId, sending, "budget");
  const { marketing_frequency: frequency } = await readMarketingLimits(deps.orgDb, organizationId);
  const deadline = Date.now() + RUN_MS;
  let left = allowance.left;
  for (const broadcast of sending) {
    const sent = await sendBroadcastRecipients(deps, broadcast, sender, {
      deadline,
      left,
      budget,
      frequency,
    });
    left -= sent.count;
    // Those completed meanwhile stay completed: the pause takes only what is still sending.
    if (budget.reached) return pauseAll(deps, organizationId, sending, "budget");
    if (sent.throttled) return Date.now() + THROTTLED_PAUSE_MS;
    if (!sent.finished) return Date.now();
  }
  return null;
}

/** Pauses sending broadcasts for a reason of the product's; nothing is due after (null). */
async function pauseAll(
  deps: StoreDeps,
  organizationId: string,
  sending: BroadcastRow[],
  reason: PauseReason,
) {
  const paused = await deps.orgDb
    .update(broadcasts)
    .set({ status: "paused", waitReason: null, waitUntil: null, pauseReason: reason })
    .where(
      and(
        inArray(
          broadcasts.id,
          sending.map((row) => row.id),
        ),
        eq(broadcasts.status, "sending"),
      ),
    )
    .returning();
  await announce(deps, organizationId, paused);
  return null;
}

type Sender = NonNullable<Awaited<ReturnType<typeof connectedSender>>>;

/** Each number's messaging limit as Meta last said it, and when (the store's memory). */
const knownTiers = new Map<string, { tier: string | undefined; at: number }>();

/** The number's messaging limit tier, asked of Meta at most once a minute. */
async function messagingTier({ graph, connection }: Sender) {
  const known = knownTiers.get(connection.phoneNumberId);
  if (known && Date.now() - known.at < LIMIT_TTL_MS) return known.tier;
  const tier = (await graph.messagingLimit(connection.phoneNumberId))
    .whatsapp_business_manager_messaging_limit;
  knownTiers.set(connection.phoneNumberId, { tier, at: Date.now() });
  return tier;
}

/**
 * How many more customers broadcasts may reach now under the account's messaging limit, and
 * when the oldest of the last 24 hours' sends leaves the count; null when Meta could not say.
 */
async function dailyAllowance(deps: StoreDeps, organizationId: string, sender: Sender, at: Date) {
  let tier: string | undefined;
  try {
    tier = await messagingTier(sender);
  } catch (error) {
    console.warn("messaging limit unknown", organizationId, error);
    return null;
  }
  // A tier Meta names that the product does not know yet: the lowest, to stay within it.
  const limit = Math.floor((TIER_LIMITS[tier ?? ""] ?? TIER_LIMITS.TIER_250!) * BROADCAST_SHARE);
  if (!Number.isFinite(limit)) return { left: Number.POSITIVE_INFINITY, renewsAt: +at };
  const since = new Date(+at - DAY_MS).toISOString();
  const [reached] = await deps.orgDb
    .select({
      customers: sql<number>`count(DISTINCT ${broadcastRecipients.conversationId})`,
      oldest: sql<string | null>`min(${broadcastRecipients.sentAt})`,
    })
    .from(broadcastRecipients)
    .where(
      and(
        eq(broadcastRecipients.organizationId, organizationId),
        sql`${broadcastRecipients.sentAt} > ${since}`,
      ),
    );
  const renewsAt = reached?.oldest ? Date.parse(reached.oldest) + DAY_MS : +at;
  return { left: limit - (reached?.customers ?? 0), renewsAt };
}

/**
 * Sends one broadcast's pending recipients until the deadline or the allowance ends, or Meta
 * refuses one for the number's throughput (`throttled`: the run pauses). Reads its audience
 * into recipients first, once. Answers how many were asked of Meta, and whether the broadcast
 * is done (then `completed`).
 */
async function sendBroadcastRecipients(
  deps: StoreDeps,
  broadcast: BroadcastRow,
  sender: Sender,
  budget: {
    deadline: number;
    left: number;
    budget: RunBudget;
    frequency: MarketingFrequency;
  },
) {
  const { organizationId } = broadcast;
  if (!broadcast.audienceReadAt) await readAudience(deps, broadcast);
  let template;
  try {
    template = await prepareTemplate(deps, organizationId, {
      name: broadcast.templateName,
      language: broadcast.templateLanguage,
      parameters: broadcast.templateParameters,
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    // Meta paused or deleted the template meanwhile: the broadcast waits in pause.
    await pauseForTemplate(deps, broadcast);
    return { count: 0, finished: true, throttled: false };
  }
  const marketing = broadcast.templateCategory === "MARKETING";
  const route: MarketingRoute = { fellBack: broadcast.fellBackAt !== null };
  const send = (conversationId: string) =>
    sendToRecipient(deps, broadcast, conversationId, {
      sender,
      template,
      marketing,
      route: marketing ? route : undefined,
      budget: budget.budget,
      frequency: budget.frequency,
    });
  let count = 0;
  let throttled = false;
  const stop = () => throttled || budget.budget.reached || Date.now() >= budget.deadline;
  for (;;) {
    const size = Math.min(RECIPIENT_PAGE, budget.left - count);
    if (size <= 0 || stop()) return { count, finished: false, throttled };
    if (!(await stillSending(deps, broadcast.id))) return { count, finished: true, throttled };
    const page = await deps.orgDb
      .select({ conversationId: broadcastRecipients.conversationId })
      .from(broadcastRecipients)
      .where(
        and(
          eq(broadcastRecipients.broadcastId, broadcast.id),
          eq(broadcastRecipients.state, "pending"),
        ),
      )
      .limit(size);
    if (page.length === 0) break;
    // Those not started by the deadline, or once Meta refused one for throughput, stay pending.
    await inPool(page, SENDS_IN_FLIGHT, stop, async (r) => {
      const sent = await send(r.conversationId);
      if (sent === "throttled") throttled = true;
      else if (sent) count += 1;
    });
    if (route.fellBack && broadcast.fellBackAt === null) {
      broadcast.fellBackAt = await recordFallback(deps, broadcast.id);
    }
    await deps.orgDb
      .update(broadcasts)
      .set({ statsChangedAt: new Date().toISOString() })
      .where(eq(broadcasts.id, broadcast.id));
  }
  const [completed] = await deps.orgDb
    .update(broadcasts)
    .set({ status: "completed", completedAt: new Date().toISOString(), statsChangedAt: null })
    .where(and(eq(broadcasts.id, broadcast.id), eq(broadcasts.status, "sending")))
    .returning();
  if (completed) await announce(deps, organizationId, [completed]);
  return { count, finished: true, throttled };
}

async function stillSending(deps: StoreDeps, id: string) {
  const [row] = await deps.orgDb
    .select({ status: broadcasts.status })
    .from(broadcasts)
    .where(eq(broadcasts.id, id));
  return row?.status === "sending";
}

async function pauseForTemplate(deps: StoreDeps, broadcast: BroadcastRow) {
  console.warn("broadcast paused: template unusable", broadcast.id, broadcast.templateName);
  await pauseAll(deps, broadcast.organizationId, [broadcast], "template_unusable");
}

/** The fallback is said once, on the broadcast; the rest of it goes through `/messages`. */
async function recordFallback(deps: StoreDeps, id: string) {
  const at = new Date().toISOString();
  await deps.orgDb.update(broadcasts).set({ fellBackAt: at }).where(eq(broadcasts.id, id));
  return at;
}

/**
 * The audience as it is when the broadcast starts: one recipient row per conversation,
 * `pending`, or `skipped` with the reason consent or Meta's reports give. Written in one unit,
 * a retried read adds nobody twice (the key is the broadcast and the conversation).
 */
async function readAudience(deps: StoreDeps, broadcast: BroadcastRow) {
  const { organizationId } = broadcast;
  const audience = await audienceRecipients(deps.orgDb, organizationId, {
    audience: broadcast.audience,
    category: broadcast.templateCategory,
  });
  const now = new Date().toISOString();
  const statements = [];
  for (let i = 0; i < audience.length; i += RECIPIENT_CHUNK) {
    statements.push({
      sql: `INSERT INTO broadcast_recipients (broadcast_id, conversation_id, organization_id,
          state, error_code, created_at, updated_at)
        SELECT ?1, r.value ->> 'id', ?2, CASE WHEN r.value ->> 'skip' IS NULL THEN 'pending'
          ELSE 'skipped' END, r.value ->> 'skip', ?3, ?3
        FROM json_each(?4) AS r WHERE true
        ON CONFLICT (broadcast_id, conversation_id) DO NOTHING`,
      params: [
        broadcast.id,
        organizationId,
        now,
        JSON.stringify(audience.slice(i, i + RECIPIENT_CHUNK)),
      ],
    });
  }
  statements.push({
    sql: "UPDATE broadcasts SET audience_read_at = ?1 WHERE id = ?2",
    params: [now, broadcast.id],
  });
  await orgStatements(deps.orgDb, statements);
  broadcast.audienceReadAt = now;
}

interface RecipientSend {
  sender: Sender;
  template: Awaited<ReturnType<typeof prepareTemplate>>;
  /** A marketing template: consent is checked again right before it goes. */
  marketing: boolean;
  /** Through the Marketing Messages API (a marketing template), as the run has learnt. */
  route: MarketingRoute | undefined;
  /** What the owner's monthly budget still allows this run, and the cap per customer. */
  budget: RunBudget;
  frequency: MarketingFrequency;
}

/**
 * One recipient: consent checked as it is now, the recipient claimed, the template sent as an
 * ordinary outbound message of the conversation (`sender_type: "broadcast"`), and the outcome
 * recorded. A status Meta sent meanwhile may have moved the recipient on already: that is kept.
 * Answers whether Meta was asked, or "throttled" when Meta refused it for the number's
 * throughput: the recipient is pending again, for the run after the pause.
 */
async function sendToRecipient(
  deps: StoreDeps,
  broadcast: BroadcastRow,
  conversationId: string,
  send: RecipientSend,
) {
  const { orgDb } = deps;
  const key = and(
    eq(broadcastRecipients.broadcastId, broadcast.id),
    eq(broadcastRecipients.conversationId, conversationId),
  );
  const conversation = await orgDb.query.conversations.findFirst({
    where: and(
      eq(conversations.id, conversationId),
      eq(conversations.organizationId, broadcast.organizationId),
    ),
  });
  const now = Date.now();
  const skip: SkipReason | null = !conversation
    ? "unreachable"
    : (marketingRefusal(
        conversation,
        { marketingTemplate: send.marketing, followUp: false },
        now,
      ) ??
      ((await overFrequency(orgDb, broadcast.organizationId, conversationId, send.frequency, now))
        ? "frequency"
        : null));
  // The budget is taken before the claim; once spent, the recipient stays pending for a resume.
  const customer = {
    phone: conversation?.phoneNumber ?? null,
    userId: conversation?.waUserId ?? null,
  };
  if (!skip && !send.budget.take(broadcast.templateCategory, customer)) return false;
  const [claimed] = await orgDb
    .update(broadcastRecipients)
    .set(
      skip
        ? { state: "skipped", errorCode: skip, updatedAt: new Date(now).toISOString() }
        : { state: "sending", updatedAt: new Date(now).toISOString() },
    )
    .where(and(key, eq(broadcastRecipients.state, "pending")))
    .returning({ state: broadcastRecipients.state });
  if (!claimed || skip || !conversation) return false;

  const message = await sendOutbound(
    deps,
    conversation,
    {
      type: "template",
      part: send.template.part,
      anyTime: true,
      content: send.template.content,
      senderType: "broadcast",
    },
    {
      sender: send.sender,
      callbackData: `broadcast:${broadcast.id}`,
      marketing: send.route,
      laterWhenThrottled: true,
    },
  );
  const at = new Date().toISOString();
  if (!message) {
    await orgDb
      .update(broadcastRecipients)
      .set({ state: "pending", updatedAt: at })
      .where(and(key, eq(broadcastRecipients.state, "sending")));
    return "throttled" as const;
  }
  const sent = await orgDb.query.messages.findFirst({
    where: and(eq(messages.id, message.id), eq(messages.organizationId, broadcast.organizationId)),
    columns: { wamid: true },
  });
  // Refused by Meta (no wamid). A message Meta took and a status then failed (held until the
  // wamid was recorded) is sent: its failure moved the recipient on already.
  if (!sent?.wamid) {
    const limited = message.error_code === "131049";
    await orgDb
      .update(broadcastRecipients)
      .set({
        state: limited ? "limited" : "failed",
        errorCode: message.error_code,
        error: message.error,
        updatedAt: at,
      })
      .where(and(key, eq(broadcastRecipients.state, "sending")));
    return true;
  }
  await orgDb
    .update(broadcastRecipients)
    .set({
      // A status that arrived before this answer already moved it on.
      state: sql`CASE WHEN state = 'sending' THEN 'sent' ELSE state END`,
      wamid: sent.wamid,
      sentAt: sql`coalesce(sent_at, ${at})`,
      updatedAt: at,
    })
    .where(key);
  return true;
}
