/**
 * A customer's consent to marketing (contract section 17), which no broadcast or follow-up may
 * skip: Meta's `user_preferences`, a marketing template Meta refused with 131050 (opted out) or
 * 131049 (its per-user limit, 24 h), and the opt-out words a customer writes. Kept by customer
 * identifier in `marketing_consents` and on the conversation (decision 0058); every change is
 * ordered by Meta's time, so a repeated or late one changes nothing.
 */
import { and, isNull, lte, or, type SQL } from "drizzle-orm";
import { conversationUpdate, type ConversationRow } from "../conversations/mappers";
import type { MarketingOptOutSource } from "../../contracts/conversations";
import { fromRows } from "../../worker/db/client";
import { orgStatements } from "../db";
import { uuidv7 } from "../../worker/db/ids";
import { conversations } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import type { RealtimeEvent } from "../../contracts/realtime";
import { isoFromSeconds, type InboundMessage } from "./inbound-content";
import { validBsuid, validWaId } from "./customer-identity";
import { billingCountry } from "./country";
import { reminderPress } from "../reminders/payloads";

/** One item of a `user_preferences` change, as Meta sends it. */
export interface UserPreferencePayload {
  wa_id?: string;
  user_id?: string;
  category?: string;
  value?: string;
  /** Unix seconds (a number in Meta's payload; a string tolerated). */
  timestamp?: number | string;
}

/** A customer opting out of marketing, or back in, at Meta's time `at`. */
export interface ConsentChange {
  /** The customer's BSUID and phone: either may be unknown. */
  userId: string | null;
  phone: string | null;
  optedOut: boolean;
  /** How they opted out, or in (`failed_131050` only ever opts out). */
  source: MarketingOptOutSource;
  at: string;
}

/** How long Meta's per-user marketing limit (131049) keeps marketing from a customer. */
export const MARKETING_LIMIT_MS = 24 * 60 * 60 * 1000;

/** Meta's error codes about a customer's marketing (contract section 17). */
export const MARKETING_STOPPED = 131050;
export const MARKETING_LIMITED = 131049;

// ---------------------------------------------------------------------------------------------
// Opt-out words: a customer message that is only one of them, however it is sent.

const OPT_OUT_WORDS = new Set(["baja", "stop", "parar", "cancelar", "no mas", "desuscribir"]);
const OPT_IN_WORDS = new Set(["alta", "start"]);

/**
 * Lower case, accents gone, punctuation, symbols and emoji around it gone (with the joiners
 * emoji are built of), spaces collapsed ("¡No  MÁS!" → "no mas", "STOP 🙏" → "stop").
 */
const normalized = (text: string) =>
  text
    .normalize("NFD")
    .replace(/\p{M}/gu, "")
    .toLowerCase()
    .replace(/^[\s\p{P}\p{S}\p{Cf}]+|[\s\p{P}\p{S}\p{Cf}]+$/gu, "")
    .replace(/\s+/g, " ");

/**
 * What a customer's text says about marketing when it is nothing but an opt-out word (BAJA,
 * STOP, PARAR, CANCELAR, NO MÁS, DESUSCRIBIR) or an opt-in word (ALTA, START): any case,
 * accents, punctuation, symbols and emoji around it ignored. A sentence that contains one says
 * nothing.
 */
export function consentWord(text: string): "out" | "in" | null {
  if (text.length > 40) return null; // No word of the lists is this long: not worth normalizing.
  const word = normalized(text);
  if (OPT_OUT_WORDS.has(word)) return "out";
  if (OPT_IN_WORDS.has(word)) return "in";
  return null;
}

/**
 * What a customer message says about marketing, however they sent the word: a text, a
 * template's quick-reply button (its text or its payload) or an interactive reply (a button's
 * or a list row's title or id). The first of them that is a consent word counts.
 */
export function consentOf(message: InboundMessage): "out" | "in" | null {
  // A booking reminder's buttons act on the booking and never opt anyone out (decision 0122).
  if (reminderPress(message)) return null;
  const reply = message.interactive?.button_reply ?? message.interactive?.list_reply;
  const said: Record<string, (string | undefined)[]> = {
    text: [message.text?.body],
    button: [message.button?.text, message.button?.payload],
    interactive: [reply?.title, reply?.id],
  };
  for (const words of said[message.type] ?? []) {
    const word = typeof words === "string" ? consentWord(words) : null;
    if (word) return word;
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Recording a change.

/**
 * `?1` organization, `?2` the changes by identifier as JSON, `?3` now. An identifier's row
 * takes only a newer change; a customer already out stays out since the first time.
 */
const UPSERT_CONSENTS = `
  INSERT INTO marketing_consents (id, organization_id, customer, opted_out_at, source,
    changed_at, created_at, updated_at)
  SELECT c.value ->> 'id', ?1, c.value ->> 'customer',
    CASE WHEN c.value ->> 'optedOut' THEN c.value ->> 'at' END,
    CASE WHEN c.value ->> 'optedOut' THEN c.value ->> 'source' END,
    c.value ->> 'at', ?3, ?3
  FROM json_each(?2) AS c WHERE true
  ON CONFLICT (organization_id, customer) DO UPDATE SET
    opted_out_at = CASE WHEN excluded.opted_out_at IS NULL THEN NULL
      ELSE coalesce(marketing_consents.opted_out_at, excluded.opted_out_at) END,
    source = CASE WHEN excluded.opted_out_at IS NULL THEN NULL
      ELSE coalesce(marketing_consents.source, excluded.source) END,
    changed_at = excluded.changed_at, updated_at = excluded.updated_at
  WHERE excluded.changed_at > marketing_consents.changed_at`;

/**
 * The customer's conversation (by BSUID first, then by phone), when the change is newer than
 * its last one. `?1` organization, `?2` BSUID, `?3` phone, `?4` opted out (0/1), `?5` source,
 * `?6` Meta's time, `?7` now.
 */
const SET_CONVERSATION_CONSENT = `
  UPDATE conversations SET
    marketing_opted_out_at = CASE WHEN ?4 THEN coalesce(marketing_opted_out_at, ?6) END,
    marketing_opt_out_source = CASE WHEN ?4 THEN coalesce(marketing_opt_out_source, ?5) END,
    marketing_consent_at = ?6, updated_at = ?7,
    follow_up_since = CASE WHEN ?4 THEN NULL ELSE follow_up_since END
  WHERE id = coalesce(
      (SELECT id FROM conversations WHERE organization_id = ?1 AND wa_user_id = ?2),
      (SELECT id FROM conversations WHERE organization_id = ?1 AND phone_number = ?3))
    AND coalesce(marketing_consent_at, '') < ?6
  RETURNING *`;

/**
 * Records consent changes, all or nothing: by each identifier (what holds for a customer
 * without a conversation yet) and on their conversation. Answers the conversations changed.
 */
export async function recordConsent(
  deps: StoreDeps,
  organizationId: string,
  changes: ConsentChange[],
): Promise<ConversationRow[]> {
  const latest = latestPerCustomer(changes);
  if (latest.length === 0) return [];
  const byIdentifier = latest.flatMap((change) =>
    [change.userId, change.phone].flatMap((customer) =>
      customer ? [{ id: uuidv7(), customer, ...change }] : [],
    ),
  );
  const now = new Date().toISOString();
  const [, ...updated] = await orgStatements(deps.orgDb, [
    { sql: UPSERT_CONSENTS, params: [organizationId, JSON.stringify(byIdentifier), now] },
    ...latest.map((change) => ({
      sql: SET_CONVERSATION_CONSENT,
      params: [
        organizationId,
        change.userId,
        change.phone,
        change.optedOut ? 1 : 0,
        change.source,
        change.at,
        now,
      ],
    })),
  ]);
  return updated.flatMap((rows) => fromRows(conversations, rows));
}

/** Each customer's latest change of a delivery (Meta may repeat one, or send several). */
function latestPerCustomer(changes: ConsentChange[]) {
  const byCustomer = new Map<string, ConsentChange>();
  for (const change of changes) {
    const key = change.userId ?? change.phone;
    if (!key) continue;
    const known = byCustomer.get(key);
    if (!known || known.at <= change.at) byCustomer.set(key, change);
  }
  return [...byCustomer.values()];
}

// ---------------------------------------------------------------------------------------------
// The sources: Meta's `user_preferences`, a failed status, a customer's words.

/**
 * `user_preferences`: `stop` opts the customer out of marketing and `resume` back in, by
 * Meta's timestamp. Other categories are not marketing consent (ignored); an item naming no
 * customer is logged and left. A customer without a conversation keeps it for when they write.
 */
export async function applyUserPreferences(
  deps: StoreDeps,
  organizationId: string,
  preferences: UserPreferencePayload[],
): Promise<RealtimeEvent[]> {
  const changes = preferences.flatMap((item): ConsentChange[] => {
    if (item.category !== "marketing_messages") return [];
    const userId = validBsuid(item.user_id);
    const phone = validWaId(item.wa_id);
    if ((item.value !== "stop" && item.value !== "resume") || !(userId || phone)) {
      console.warn("webhook: user_preferences item ignored (no value or no customer)");
      return [];
    }
    const at = isoFromSeconds(item.timestamp);
    return [{ userId, phone, optedOut: item.value === "stop", source: "meta", at }];
  });
  const changed = await recordConsent(deps, organizationId, changes);
  return changed.map(conversationUpdate);
}

/** The failure of a message Meta reports about the customer's marketing, else null. */
export function marketingFailure(code: number | null | undefined) {
  if (code === MARKETING_STOPPED) return "stopped" as const;
  if (code === MARKETING_LIMITED) return "limited" as const;
  return null;
}

/**
 * `?1` the conversation, `?2` the limit's end, `?3` now: a limit already later stays (Meta may
 * repeat a status, or deliver an older one late).
 */
const LIMIT_MARKETING = `
  UPDATE conversations SET marketing_limited_until = ?2, updated_at = ?3
  WHERE id = ?1 AND coalesce(marketing_limited_until, '') < ?2
  RETURNING *`;

/**
 * A marketing template Meta refused for the customer's sake, at the status's time `at`: 131050
 * opts them out (they stopped marketing in WhatsApp); 131049 (Meta's per-user limit) leaves
 * them out of marketing for 24 h. Answers the conversation when it changed.
 */
export async function applyMarketingFailure(
  deps: StoreDeps,
  organizationId: string,
  conversation: Pick<ConversationRow, "id" | "waUserId" | "phoneNumber">,
  failure: "stopped" | "limited",
  at: string,
): Promise<ConversationRow | null> {
  if (failure === "stopped") {
    const [changed] = await recordConsent(deps, organizationId, [
      {
        userId: conversation.waUserId,
        phone: conversation.phoneNumber,
        optedOut: true,
        source: "failed_131050",
        at,
      },
    ]);
    return changed ?? null;
  }
  const until = new Date(Date.parse(at) + MARKETING_LIMIT_MS).toISOString();
  const [rows] = await orgStatements(deps.orgDb, [
    { sql: LIMIT_MARKETING, params: [conversation.id, until, new Date().toISOString()] },
  ]);
  return fromRows(conversations, rows!)[0] ?? null;
}

/** A customer message that is only an opt-out or opt-in word (`consentOf`), on its conversation. */
export interface WrittenConsent {
  conversation: Pick<ConversationRow, "waUserId" | "phoneNumber">;
  word: "out" | "in";
  sentAt: string;
}

/** The customers' opt-out and opt-in words, recorded by the message's time. */
export async function applyConsentWords(
  deps: StoreDeps,
  organizationId: string,
  written: WrittenConsent[],
): Promise<ConversationRow[]> {
  const changes = written.map(({ conversation, word, sentAt }): ConsentChange => {
    const { waUserId: userId, phoneNumber: phone } = conversation;
    return { userId, phone, optedOut: word === "out", source: "keyword", at: sentAt };
  });
  return recordConsent(deps, organizationId, changes);
}

// ---------------------------------------------------------------------------------------------
// Who may receive marketing (what the broadcasts and follow-ups leave out).

/**
 * Area codes of +1 (the North American Numbering Plan) that are not the United States':
 * Canada's and those of the other countries of the plan (the Caribbean, Bermuda). Every other
 * +1 number is taken as the US's, its territories included: a new US area code is then left
 * out of marketing from its first day, and a new Canadian one too until it is added here.
 */
const NON_US_AREA_CODES = new Set(
  [
    // Canada.
    "204 226 236 249 250 257 263 289 306 343 354 365 367 368 382 403 416 418 428 431 437 438",
    "450 460 468 474 506 514 519 548 579 581 584 587 600 604 613 639 647 672 683 705 709 742",
    "753 778 780 782 807 819 825 867 873 879 902 905 942",
    // The Caribbean and Bermuda.
    "242 246 264 268 284 345 441 473 649 658 664 721 758 767 784 809 829 849 868 869 876",
  ]
    .join(" ")
    .split(" "),
);

/** Countries Meta serves no message to (sanctions). */
const UNSERVED_COUNTRIES = new Set(["CU", "VE", "IR", "KP", "SY"]);

/** A US number: +1 followed by an area code that is not another country's of the plan. */
export const isUsNumber = (phone: string) =>
  /^1\d{10}$/.test(phone) && !NON_US_AREA_CODES.has(phone.slice(1, 4));

/**
 * Whether Meta serves this customer marketing at all: not a US number (every marketing
 * template fails there), not a sanctioned country. A customer known only by BSUID is judged by
 * the country Meta writes in front of it.
 */
export function marketingReachable(customer: Pick<ConversationRow, "phoneNumber" | "waUserId">) {
  const { phoneNumber: phone, waUserId: userId } = customer;
  // The phone first: +1 is the US only by its area code (billingCountry says US for all +1).
  const country = billingCountry(phone, phone ? null : userId);
  if (phone ? isUsNumber(phone) : country === "US") return false;
  return country === null || !UNSERVED_COUNTRIES.has(country);
}

/** Why a customer is left out of a marketing send (the preview's `skipped`), or null. */
export type MarketingExclusion = "opted_out" | "limited" | "unreachable";

type MarketingCustomer = Pick<
  ConversationRow,
  "phoneNumber" | "waUserId" | "marketingOptedOutAt" | "marketingLimitedUntil"
>;

/**
 * Why this customer may not receive a marketing template now: opted out (any source), limited
 * by Meta in the last 24 h (131049), or a number Meta does not serve marketing; null: they may.
 */
export function marketingExclusion(
  customer: MarketingCustomer,
  now = Date.now(),
): MarketingExclusion | null {
  if (customer.marketingOptedOutAt !== null) return "opted_out";
  const limitedUntil = customer.marketingLimitedUntil;
  if (limitedUntil !== null && Date.parse(limitedUntil) > now) return "limited";
  if (!marketingReachable(customer)) return "unreachable";
  return null;
}

/** What a send is, for the consent it needs (contract section 17). */
export interface MarketingKind {
  /** A MARKETING template (a broadcast's, a follow-up's or a person's). */
  marketingTemplate: boolean;
  /** Sent by a follow-up, whatever it sends. */
  followUp: boolean;
}

/**
 * Why a send of this kind may not go to this customer now: a marketing template needs all of
 * `marketingExclusion`; any follow-up needs the customer not opted out (a nudge is a promotion to
 * them); anything else needs nothing of consent. The one check of broadcasts, follow-ups and
 * "Reintentar".
 */
export function marketingRefusal(
  customer: MarketingCustomer,
  kind: MarketingKind,
  now = Date.now(),
): MarketingExclusion | null {
  const exclusion = marketingExclusion(customer, now);
  if (kind.marketingTemplate) return exclusion;
  return kind.followUp && exclusion === "opted_out" ? exclusion : null;
}

/** Whether a broadcast or a follow-up may send this customer a marketing template now. */
export const marketingAllowed = (customer: MarketingCustomer, now = Date.now()) =>
  marketingExclusion(customer, now) === null;

/**
 * The same consent as a condition on `conversations` (the opted-out and limited customers left
 * out in SQL); the numbers Meta does not serve are `marketingReachable`'s, checked in code.
 */
export const consentAllowsMarketing = (now = new Date()): SQL =>
  and(
    isNull(conversations.marketingOptedOutAt),
    or(
      isNull(conversations.marketingLimitedUntil),
      lte(conversations.marketingLimitedUntil, now.toISOString()),
    ),
  )!;
