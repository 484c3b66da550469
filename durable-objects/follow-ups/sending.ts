/**
 * Sending follow-ups (contract section 17, decision 0062). A conversation's `follow_up_since`
 * says when the business last wrote (a person or the AI) with no answer since; a customer
 * message, a sale, an opt-out or a broadcast clears it. The store's `follow_ups` job finds the
 * waits each enabled rule is due for, claims each (one row per rule and wait, so a wait is
 * answered once whatever restarts happen) and sends: its text while the 24-hour window is open,
 * its template otherwise, never inside quiet hours, never to a customer who stopped marketing.
 */
import { and, desc, eq, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/sqlite-core";
import { orgStatements } from "../db";
import { conversations, followUpSends, followUps } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError } from "../../worker/http/errors";
import { freeEntryPointUntil } from "../conversations/billing";
import { isWindowOpen, type ConversationRow } from "../conversations/mappers";
import { organizationQuietHoursEnd } from "../organizations/quiet-hours";
import { connectedSender } from "../whatsapp/connection-service";
import { marketingRefusal } from "../whatsapp/consent";
import { sendOutbound, textDelivery, type MarketingRoute, type Outbound } from "../whatsapp/sender";
import { inPool, SENDS_IN_FLIGHT, THROTTLED_PAUSE_MS } from "../whatsapp/send-pace";
import { prepareTemplate } from "../whatsapp/templates-service";
import type { FollowUpSendState } from "../../contracts/follow-ups";
import type { MarketingFrequency } from "../../contracts/broadcasts";
import {
  overFrequency,
  readMarketingLimits,
  runBudget,
  type RunBudget,
} from "../broadcasts/marketing-limits";

type FollowUpRow = typeof followUps.$inferSelect;
type Sender = NonNullable<Awaited<ReturnType<typeof connectedSender>>>;

/** A run stops claiming waits after this long: the store's alarm serves the AI's replies too. */
const RUN_MS = 2_000;
/** Due conversations read at a time (those not started by the run's end stay due). */
const PAGE = 64;
const MINUTE_MS = 60_000;
/**
 * A wait that fell due longer ago than this is not written to any more (the number was
 * disconnected, the store was down): a nudge a day late is not the rule's, and the job never
 * walks every silence of the past again.
 */
const MAX_LATENESS_MS = 24 * 60 * MINUTE_MS;
// ---------------------------------------------------------------------------------------------
// The store's job.

/**
 * One run of the `follow_ups` job: sends what is due for about `RUN_MS`, the rules with the
 * longest wait first. Answers when it is next due (null: nothing waits).
 */
export async function runFollowUps(deps: StoreDeps, organizationId: string, at: Date) {
  const rules = await deps.orgDb
    .select()
    .from(followUps)
    .where(and(eq(followUps.organizationId, organizationId), eq(followUps.enabled, true)))
    .orderBy(desc(followUps.noReplyMinutes), desc(followUps.id));
  if (rules.length === 0) return null;
  const quietEnd = await organizationQuietHoursEnd(deps, at);
  if (quietEnd) return +quietEnd;
  // Not connected: nothing can go; the next message the business sends looks again.
  const sender = await connectedSender(deps, organizationId);
  if (!sender) return null;
  await markInterrupted(deps, organizationId);
  const deadline = Date.now() + RUN_MS;
  const send: SendContext = {
    sender,
    route: { fellBack: false },
    throttled: false,
    budget: await runBudget(deps, organizationId, +at),
    frequency: (await readMarketingLimits(deps.orgDb, organizationId)).marketing_frequency,
  };
  const stop = () => send.throttled || Date.now() >= deadline;
  for (const rule of rules) {
    // Checked once a run, when a wait needs it.
    let template: RuleSend["template"] | undefined;
    for (;;) {
      if (send.throttled) return Date.now() + THROTTLED_PAUSE_MS;
      if (stop()) return Date.now();
      const due = await dueConversations(deps, rule, at);
      if (due.length === 0) break;
      if (template === undefined) template = await ruleTemplate(deps, rule);
      const ruleSend = { rule, template, send };
      await inPool(due, SENDS_IN_FLIGHT, stop, (c) => sendFollowUp(deps, ruleSend, c, at));
    }
  }
  return nextDue(deps, rules, at);
}

/** The conversations as the rules' conditions name them. */
const c = alias(conversations, "c");

/**
 * Follow-ups a dead run left `sending` (the store restarted while Meta was asked): whether Meta
 * took them is unknown, so they count as failed and are never asked again. Runs never overlap.
 */
async function markInterrupted(deps: StoreDeps, organizationId: string) {
  await deps.orgDb
    .update(followUpSends)
    .set({ state: "failed", errorCode: "interrupted" })
    .where(
      and(eq(followUpSends.organizationId, organizationId), eq(followUpSends.state, "sending")),
    );
}

/** The earliest instant a rule can write from: its activation less its wait. */
const activeFrom = (rule: FollowUpRow) =>
  new Date(Date.parse(rule.activeSince) - rule.noReplyMinutes * MINUTE_MS).toISOString();
/** Waits that began by this instant are due for the rule at `at`. */
const dueBefore = (rule: FollowUpRow, at: Date) =>
  new Date(+at - rule.noReplyMinutes * MINUTE_MS).toISOString();

/**
 * The rule's conditions on a conversation: its labels and stages, open (a conversation the team
 * closed is finished business), held by this app (not Meta's AI), its wait begun since the rule
 * was active.
 */
function ruleApplies(rule: FollowUpRow) {
  return sql`c.organization_id = ${rule.organizationId}
    AND c.follow_up_since IS NOT NULL
    AND c.follow_up_since >= ${activeFrom(rule)}
    AND c.status != 'closed' AND c.controlled_by = 'app'
    ${rule.stages.length > 0 ? sql`AND c.stage IN (SELECT value FROM json_each(${JSON.stringify(rule.stages)}))` : sql``}
    ${
      rule.labelIds.length > 0
        ? sql`AND EXISTS (SELECT 1 FROM conversation_labels AS cl WHERE cl.conversation_id = c.id
            AND cl.label_id IN (SELECT value FROM json_each(${JSON.stringify(rule.labelIds)})))`
        : sql``
    }`;
}

/**
 * Conversations whose wait the rule is due for (in the last `MAX_LATENESS_MS`): not answered by
 * it yet, nor by a rule with a longer wait (after quiet hours both may be due: the later step of a sequence goes, not both),
 * and the rule has not written there `max_per_conversation` times.
 */
function dueConversations(deps: StoreDeps, rule: FollowUpRow, at: Date) {
  return deps.orgDb
    .select()
    .from(c)
    .where(
      sql`${ruleApplies(rule)}
        AND c.follow_up_since <= ${dueBefore(rule, at)}
        AND c.follow_up_since >= ${dueBefore(rule, new Date(+at - MAX_LATENESS_MS))}
        AND NOT EXISTS (SELECT 1 FROM follow_up_sends AS s
          JOIN follow_ups AS f ON f.id = s.follow_up_id
          WHERE s.conversation_id = c.id AND s.waited_since = c.follow_up_since
            AND (s.follow_up_id = ${rule.id} OR f.no_reply_minutes > ${rule.noReplyMinutes}))
        AND (SELECT count(*) FROM follow_up_sends AS s
          WHERE s.follow_up_id = ${rule.id} AND s.conversation_id = c.id
            AND s.state != 'skipped') < ${rule.maxPerConversation}`,
    )
    .orderBy(c.followUpSince)
    .limit(PAGE);
}

/** When the next wait falls due for any rule (null: none is waiting). */
async function nextDue(deps: StoreDeps, rules: FollowUpRow[], at: Date) {
  let next: number | null = null;
  for (const rule of rules) {
    const [row] = await deps.orgDb
      .select({ since: sql<string | null>`min(c.follow_up_since)` })
      .from(c)
      .where(sql`${ruleApplies(rule)} AND c.follow_up_since > ${dueBefore(rule, at)}`);
    if (!row?.since) continue;
    const due = Date.parse(row.since) + rule.noReplyMinutes * MINUTE_MS;
    next = next === null ? due : Math.min(next, due);
  }
  return next;
}

/** The rule's template, checked again at send (Meta may have paused it); null: none usable. */
async function ruleTemplate(deps: StoreDeps, rule: FollowUpRow) {
  if (!rule.templateName || !rule.templateLanguage) return null;
  try {
    return await prepareTemplate(deps, rule.organizationId, {
      name: rule.templateName,
      language: rule.templateLanguage,
      parameters: rule.templateParameters ?? [],
    });
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    console.warn("follow-up template unusable", rule.id, rule.templateName, error.message);
    return null;
  }
}

/**
 * What the run's sends share: the number, how marketing templates reach Meta, and whether Meta
 * refused one for the number's throughput (the run then stops and goes on after a pause).
 */
interface SendContext {
  sender: Sender;
  route: MarketingRoute;
  throttled: boolean;
  /** The owner's monthly marketing budget left to the run, and the cap per customer. */
  budget: RunBudget;
  frequency: MarketingFrequency;
}

interface RuleSend {
  rule: FollowUpRow;
  template: Awaited<ReturnType<typeof ruleTemplate>>;
  send: SendContext;
}

/** Why a due wait is not written to, or what is sent for it. */
function choose(
  { rule, template }: RuleSend,
  conversation: ConversationRow,
  at: Date,
): { skip: string } | { outbound: Outbound; marketing: boolean } {
  // Someone who stopped marketing gets no follow-up at all (a nudge is a promotion to them).
  const kind = { marketingTemplate: false, followUp: true };
  if (marketingRefusal(conversation, kind, +at)) return { skip: "opted_out" };
  if (rule.text && isWindowOpen(conversation, +at)) {
    return {
      outbound: { ...textDelivery(rule.text), content: rule.text, senderType: "follow_up" },
      marketing: false,
    };
  }
  if (!rule.templateName) return { skip: "window_closed" };
  if (!template) return { skip: "template_unusable" };
  const marketing = rule.templateCategory === "MARKETING";
  const refused = marketingRefusal(conversation, { ...kind, marketingTemplate: marketing }, +at);
  if (refused) return { skip: refused };
  return {
    outbound: {
      type: "template",
      part: template.part,
      anyTime: true,
      content: template.content,
      senderType: "follow_up",
    },
    marketing,
  };
}

/**
 * Claims the wait for the rule (only while the conversation still waits since the same instant:
 * a reply meanwhile ended it), with the state it starts in. Answers whether it was claimed.
 */
async function claim(
  deps: StoreDeps,
  rule: FollowUpRow,
  conversation: ConversationRow,
  state: FollowUpSendState,
  errorCode: string | null,
) {
  const [claimed] = await orgStatements(deps.orgDb, [
    {
      sql: `INSERT INTO follow_up_sends (follow_up_id, conversation_id, organization_id,
          waited_since, state, error_code, created_at)
        SELECT ?1, c.id, c.organization_id, c.follow_up_since, ?3, ?4, ?5
        FROM conversations AS c WHERE c.id = ?2 AND c.follow_up_since = ?6
        ON CONFLICT DO NOTHING
        RETURNING follow_up_id`,
      params: [
        rule.id,
        conversation.id,
        state,
        errorCode,
        new Date().toISOString(),
        conversation.followUpSince,
      ],
    },
  ]);
  return claimed!.length > 0;
}

/**
 * Why a marketing template is not sent now (decision 0080): the customer already got the
 * marketing the owner allows in its days (`frequency`), or the month's budget is spent
 * (`budget`; taken here, before the claim). Null for anything else.
 */
async function marketingCap(
  deps: StoreDeps,
  send: SendContext,
  conversation: ConversationRow,
  free: string | null,
) {
  const { organizationId, id } = conversation;
  if (await overFrequency(deps.orgDb, organizationId, id, send.frequency)) return "frequency";
  const customer = { phone: conversation.phoneNumber, userId: conversation.waUserId };
  const isFree = free !== null && Date.parse(free) > Date.now();
  return send.budget.take("MARKETING", customer, isFree) ? null : "budget";
}

/** One due wait: skipped with its reason, or claimed, sent and its outcome recorded. */
async function sendFollowUp(
  deps: StoreDeps,
  ruleSend: RuleSend,
  conversation: ConversationRow,
  at: Date,
) {
  const { rule, send } = ruleSend;
  const choice = choose(ruleSend, conversation, at);
  if ("skip" in choice) {
    await claim(deps, rule, conversation, "skipped", choice.skip);
    return;
  }
  const free = await freeEntryPointUntil(deps.orgDb, conversation);
  const capped = choice.marketing ? await marketingCap(deps, send, conversation, free) : null;
  if (capped) {
    await claim(deps, rule, conversation, "skipped", capped);
    return;
  }
  if (!(await claim(deps, rule, conversation, "sending", null))) return;
  const message = await sendOutbound(deps, conversation, choice.outbound, {
    sender: send.sender,
    callbackData: `follow_up:${rule.id}`,
    marketing: choice.marketing ? send.route : undefined,
    laterWhenThrottled: true,
  });
  if (!message) {
    // Meta refused it for the number's throughput: the wait is due again after the pause.
    send.throttled = true;
    await orgStatements(deps.orgDb, [
      {
        sql: `DELETE FROM follow_up_sends
          WHERE follow_up_id = ?1 AND conversation_id = ?2 AND waited_since = ?3`,
        params: [rule.id, conversation.id, conversation.followUpSince],
      },
    ]);
    return;
  }
  const sentAt = new Date().toISOString();
  await orgStatements(deps.orgDb, [
    {
      sql: `UPDATE follow_up_sends SET state = ?1, message_id = ?2, error_code = ?3, free = ?4,
          sent_at = ?5
        WHERE follow_up_id = ?6 AND conversation_id = ?7 AND waited_since = ?8`,
      params: [
        message.status === "failed" ? "failed" : "sent",
        message.id,
        message.error_code,
        free !== null && Date.parse(free) > Date.parse(sentAt) ? 1 : 0,
        sentAt,
        rule.id,
        conversation.id,
        conversation.followUpSince,
      ],
    },
  ]);
}
