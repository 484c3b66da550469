/**
 * Who wrote: since 2026 Meta names every customer by a business-scoped user id (BSUID) and
 * shares the phone only when the customer lets it (docs/decisions/0037). A customer is one
 * conversation per organization, found by BSUID first, then by phone; a delivery that brings
 * the other identifier, a username or a name adds it to that conversation. No phone is ever
 * invented, and a phone that comes with another BSUID than its conversation's is another
 * person: a recycled number (docs/decisions/0050).
 */
import type { ConversationRow } from "../conversations/mappers";
import { fromRows } from "../../worker/db/client";
import { orgStatements, type OrganizationDb } from "../db";
import { uuidv7 } from "../../worker/db/ids";
import { conversations } from "../schema";
import type { InboundMessage } from "./inbound-content";

/** An ISO country code, a dot, up to 128 letters and digits: `ES.13491208655302741918`. */
const BSUID = /^[A-Z]{2}\.[A-Za-z0-9]{1,128}$/;
/** A WhatsApp id: the phone's digits with country code. */
const WA_ID = /^\d{5,20}$/;

export const validBsuid = (value: unknown): string | null =>
  typeof value === "string" && BSUID.test(value) ? value : null;
export const validWaId = (value: unknown): string | null =>
  typeof value === "string" && WA_ID.test(value) ? value : null;

/** `contacts[]` of a messages change, as Meta sends it in 2026. */
export interface ContactPayload {
  wa_id?: string;
  user_id?: string;
  profile?: { name?: string; username?: string };
}

/** A customer's identifiers as one delivery tells them. */
export interface CustomerIdentity {
  userId: string | null;
  phone: string | null;
  username: string | null;
  name: string | null;
}

/**
 * The identifiers a message is from, with the profile its change's `contacts[]` gives:
 * `from_user_id` and `from` on the message, `user_id`, `wa_id` and `profile` on the contact.
 * A malformed BSUID counts as absent (logged); null when neither identifier is usable.
 */
export function identityOf(
  message: InboundMessage,
  contacts: ContactPayload[],
): CustomerIdentity | null {
  const userId = validBsuid(message.from_user_id);
  const phone = validWaId(message.from);
  if (message.from_user_id !== undefined && !userId) {
    console.warn(`webhook: malformed BSUID on message ${String(message.id)}; ignored`);
  }
  const contact =
    (userId && contacts.find((c) => c.user_id === userId)) ||
    (phone && contacts.find((c) => c.wa_id === phone)) ||
    undefined;
  const identity: CustomerIdentity = {
    userId: userId ?? validBsuid(contact?.user_id),
    phone: phone ?? validWaId(contact?.wa_id),
    // Stored without the "@" the console puts before it, whether Meta writes one or not.
    username: cleanText(contact?.profile?.username, 64)?.replace(/^@+/, "") || null,
    name: cleanText(contact?.profile?.name, 256),
  };
  // The customer's answer to "Pedir teléfono" carries the phone they chose to share.
  identity.phone ??= sharedPhone(message);
  return identity.userId || identity.phone ? identity : null;
}

/** The phone in a `contacts` message the customer sent in answer to a contact request. */
export function sharedPhone(message: InboundMessage): string | null {
  if (message.type !== "contacts") return null;
  for (const card of message.contacts ?? []) {
    if (card.origin !== "contact_request") continue;
    const phone = validWaId(card.phones?.[0]?.wa_id);
    if (phone) return phone;
  }
  return null;
}

const cleanText = (value: unknown, max: number) =>
  typeof value === "string" && value.trim() ? value.trim().slice(0, max) : null;

/**
 * The delivery's customers, one per person: identities that share a BSUID or a phone are
 * merged (a burst may name the same customer by phone in one message and by BSUID in
 * another). Returns each message's customer key and the merged customers.
 */
export class DeliveryCustomers<T extends CustomerIdentity & { sentAt: string }> {
  private readonly byKey = new Map<string, T>();

  /**
   * Adds an identity and answers the customer it belongs to (merged with what was known).
   * Another BSUID on the same phone is another person: kept apart, and the phone stays with
   * whoever wrote from it last.
   */
  add(identity: T): T {
    const known = [...new Set(identityKeys(identity).flatMap((k) => this.byKey.get(k) ?? []))];
    const rival = known.find((other) => isAnotherPerson(identity, other));
    const same = known.filter((other) => other !== rival);
    const merged = same.reduce<T>(
      (person, other) => ({
        ...person,
        userId: person.userId ?? other.userId,
        phone: person.phone ?? other.phone,
        username: person.username ?? other.username,
        name: person.name ?? other.name,
        sentAt: person.sentAt > other.sentAt ? person.sentAt : other.sentAt,
      }),
      identity,
    );
    const rivalKeepsPhone = rival !== undefined && rival.sentAt > merged.sentAt;
    const customer = rivalKeepsPhone ? { ...merged, phone: null } : merged;
    if (rival && !rivalKeepsPhone) this.remember({ ...rival, phone: null }, [rival]);
    this.remember(customer, same);
    return customer;
  }

  /** Points the customer's keys, and those of the customers it replaces, at it. */
  private remember(customer: T, replaced: T[]) {
    for (const key of [...identityKeys(customer), ...replaced.flatMap(identityKeys)]) {
      this.byKey.set(key, customer);
    }
  }

  /** The customer an identity belongs to now, after every merge. */
  find(identity: CustomerIdentity): T {
    return this.byKey.get(identityKeys(identity)[0]!)!;
  }

  all(): T[] {
    return [...new Set(this.byKey.values())];
  }
}

const isAnotherPerson = (a: CustomerIdentity, b: CustomerIdentity) =>
  a.userId !== null && b.userId !== null && a.userId !== b.userId;

const identityKeys = (identity: CustomerIdentity) => [
  ...(identity.userId ? [`u:${identity.userId}`] : []),
  ...(identity.phone ? [`p:${identity.phone}`] : []),
];

/**
 * The four statements that make every customer of a delivery exactly one conversation,
 * inside the ingest's batch (`?1` the organization, `?2` the customers as JSON):
 * 1. a phone that comes with another BSUID than its conversation's, stamped after that
 *    conversation last heard from its customer, has changed hands (a recycled number): that
 *    conversation lets it go (its answers then reach its customer by BSUID);
 * 2. conversations found by BSUID take the phone (unless another conversation holds it),
 *    username and name the delivery brings;
 * 3. conversations found by phone that have no BSUID, for customers no conversation knows by
 *    BSUID yet, take the BSUID, username and name (a phone-only delivery: username and name);
 * 4. the rest are new conversations, with the phone only when no other conversation holds it.
 * The name is the business's own for that phone (its address book) when it has one, else the
 * WhatsApp profile's.
 * The customers are read out of the JSON once (`DELIVERY_CUSTOMERS`, materialized) and each is
 * looked up by index; the `IN` lists keep it so: the planner has no statistics, and left to
 * itself it walked the conversations and parsed the JSON again for each of them.
 */
const DELIVERY_CUSTOMERS = `c AS MATERIALIZED (
    SELECT value ->> 'userId' AS user_id, value ->> 'phone' AS phone,
      value ->> 'username' AS username, value ->> 'name' AS name, value ->> 'sentAt' AS sent_at
    FROM json_each(?2))`;

/**
 * The business's own name for the customer with phone `phone` (the phone's address book,
 * `phone_contacts`): it wins over the WhatsApp profile name (contract section 16).
 */
const phoneBookName = (phone: string) => `(
    SELECT coalesce(book.full_name, book.first_name) FROM phone_contacts AS book
    WHERE book.organization_id = ?1 AND book.phone_number = ${phone})`;

/** `?3` now. Returns the conversations that let a phone go, for the consoles. */
export const RELEASE_RECYCLED_PHONES = `
  WITH ${DELIVERY_CUSTOMERS}
  UPDATE conversations SET phone_number = NULL, updated_at = ?3
  FROM c
  WHERE conversations.organization_id = ?1 AND conversations.phone_number = c.phone
    AND conversations.phone_number IN (SELECT phone FROM c)
    AND conversations.wa_user_id <> c.user_id
    AND coalesce(conversations.last_inbound_at, conversations.created_at) < c.sent_at
  RETURNING *`;

/** What a conversation found by BSUID takes of the delivery (`MATCH_BY_USER_ID`). */
const TAKEN_BY_USER_ID = {
  phone_number: `coalesce(conversations.phone_number, CASE WHEN NOT EXISTS (
      SELECT 1 FROM conversations AS other
      WHERE other.organization_id = ?1 AND other.phone_number = c.phone
    ) THEN c.phone END)`,
  username: "coalesce(c.username, conversations.username)",
  contact_name: `coalesce(${phoneBookName("coalesce(conversations.phone_number, c.phone)")},
      c.name, conversations.contact_name)`,
};

/** What a conversation found by phone takes of the delivery (`MATCH_BY_PHONE`). */
const TAKEN_BY_PHONE = {
  wa_user_id: "coalesce(c.user_id, conversations.wa_user_id)",
  username: "coalesce(c.username, conversations.username)",
  contact_name: `coalesce(${phoneBookName("conversations.phone_number")}, c.name,
      conversations.contact_name)`,
};

/**
 * A conversation's columns set to what they take, and the condition that one of them changes:
 * a conversation that already holds everything a delivery brings (most of a customer's messages)
 * is not written at all, which is a row written less per message (decision 0148).
 */
const takes = (columns: Record<string, string>) => ({
  set: Object.entries(columns)
    .map(([column, value]) => `${column} = ${value}`)
    .join(",\n    "),
  changes: Object.entries(columns)
    .map(([column, value]) => `conversations.${column} IS NOT ${value}`)
    .join("\n      OR "),
});

const byUserId = takes(TAKEN_BY_USER_ID);
export const MATCH_BY_USER_ID = `
  WITH ${DELIVERY_CUSTOMERS}
  UPDATE conversations SET
    ${byUserId.set}
  FROM c
  WHERE conversations.organization_id = ?1 AND conversations.wa_user_id = c.user_id
    AND conversations.wa_user_id IN (SELECT user_id FROM c)
    AND (${byUserId.changes})`;

const byPhone = takes(TAKEN_BY_PHONE);
export const MATCH_BY_PHONE = `
  WITH ${DELIVERY_CUSTOMERS}
  UPDATE conversations SET
    ${byPhone.set}
  FROM c
  WHERE conversations.organization_id = ?1 AND conversations.phone_number = c.phone
    AND conversations.phone_number IN (SELECT phone FROM c)
    AND (c.user_id IS NULL OR conversations.wa_user_id IS NULL AND NOT EXISTS (
      SELECT 1 FROM conversations AS other
      WHERE other.organization_id = ?1 AND other.wa_user_id = c.user_id))
    AND (${byPhone.changes})`;

/** `?3` the default agent, `?4` the new conversation's status, `?5` now. */
export const CREATE_NEW_CUSTOMERS = `
  INSERT INTO conversations (id, organization_id, phone_number, wa_user_id, username,
    contact_name, agent_id, status, last_message_at, created_at, updated_at)
  SELECT c.value ->> 'id', ?1,
    CASE WHEN c.value ->> 'userId' IS NULL OR NOT EXISTS (
      SELECT 1 FROM conversations AS holder
      WHERE holder.organization_id = ?1 AND holder.phone_number = c.value ->> 'phone'
    ) THEN c.value ->> 'phone' END,
    c.value ->> 'userId', c.value ->> 'username',
    coalesce(${phoneBookName("c.value ->> 'phone'")}, c.value ->> 'name'), ?3, ?4,
    c.value ->> 'sentAt', ?5, ?5
  FROM json_each(?2) AS c WHERE true
  ON CONFLICT DO NOTHING`;

/** The conversation of a message bound as JSON (`m`): by BSUID first, then by phone. */
export const CONVERSATION_OF_MESSAGE = `coalesce(
    (SELECT id FROM conversations WHERE organization_id = ?1 AND wa_user_id = m.value ->> 'userId'),
    (SELECT id FROM conversations WHERE organization_id = ?1 AND phone_number = m.value ->> 'phone'))`;

/**
 * A `user_changed_number` or `user_changed_user_id` notice, applied to the conversation that
 * holds the identifier it moves from: the BSUID it names as previous, else (for a number
 * change) its old phone on a conversation without a BSUID, or any when the notice names none.
 * Each identifier moves only from the value the notice names (a phone from `from`, a BSUID
 * from `previous_user_id` or from none yet) and only to a value no other conversation holds.
 * A notice no newer than an identity notice the conversation already has is late (a repeated
 * one is too) and changes nothing: Meta's timestamps on both, the only clock they share.
 * `?1` the organization, `?2` old phone, `?3` new phone, `?4` old BSUID, `?5` new BSUID,
 * `?6` the notice's time, `?7` now. Returns the conversation's identifiers.
 */
export const FOLLOW_IDENTITY_NOTICE = `
  UPDATE conversations SET
    phone_number = CASE WHEN ?3 IS NOT NULL AND phone_number = ?2 AND NOT EXISTS (
      SELECT 1 FROM conversations AS other WHERE other.organization_id = ?1 AND other.phone_number = ?3
    ) THEN ?3 ELSE phone_number END,
    wa_user_id = CASE WHEN ?5 IS NOT NULL AND (wa_user_id = ?4 OR wa_user_id IS NULL) AND NOT EXISTS (
      SELECT 1 FROM conversations AS other WHERE other.organization_id = ?1 AND other.wa_user_id = ?5
    ) THEN ?5 ELSE wa_user_id END,
    updated_at = ?7
  WHERE id = coalesce(
      (SELECT id FROM conversations WHERE organization_id = ?1 AND wa_user_id = ?4),
      (SELECT id FROM conversations WHERE organization_id = ?1 AND phone_number = ?2
        AND (?4 IS NULL OR wa_user_id IS NULL)))
    AND NOT EXISTS (
      SELECT 1 FROM messages WHERE conversation_id = conversations.id AND created_at >= ?6
        AND type = 'system' AND direction = 'inbound')
  RETURNING phone_number, wa_user_id`;

/** A customer the business wrote to, or whose chat history arrived, by what Meta names them. */
export interface KnownCustomer {
  userId: string | null;
  phone: string | null;
  /** Meta's time of the message: a conversation created for it starts then. */
  sentAt: string;
}

/**
 * The conversations of customers named by the business's own messages (echoes from the app,
 * imported history): found as a customer's own message finds its conversation, created when
 * missing (with the number's default agent), with nothing counted: no unread, no service
 * window, no preview; the caller stores the messages and says what changed. Answers one row
 * per customer, in their order (null for a customer without an identifier).
 */
export async function conversationsOfCustomers(
  orgDb: OrganizationDb,
  organizationId: string,
  defaultAgentId: string | null,
  customers: KnownCustomer[],
): Promise<(ConversationRow | null)[]> {
  const known = customers.map((customer) => ({
    id: uuidv7(),
    userId: customer.userId,
    phone: customer.phone,
    username: null,
    name: null,
    sentAt: customer.sentAt,
  }));
  const people = JSON.stringify(known.filter((c) => c.userId || c.phone));
  const now = new Date().toISOString();
  const [, , , found] = await orgStatements(orgDb, [
    { sql: MATCH_BY_USER_ID, params: [organizationId, people] },
    { sql: MATCH_BY_PHONE, params: [organizationId, people] },
    {
      sql: CREATE_NEW_CUSTOMERS,
      params: [organizationId, people, defaultAgentId, defaultAgentId ? "assigned" : "open", now],
    },
    { sql: CONVERSATIONS_OF_CUSTOMERS, params: [organizationId, JSON.stringify(known)] },
  ]);
  const rows = fromRows(conversations, found!);
  const byPosition = new Map(found!.map((row, index) => [Number(row.position), rows[index]!]));
  return known.map((_, position) => byPosition.get(position) ?? null);
}

/** Each customer's conversation (`m`, bound as JSON), with the customer's position. */
const CONVERSATIONS_OF_CUSTOMERS = `
  SELECT m.key AS position, conv.* FROM json_each(?2) AS m
  CROSS JOIN conversations AS conv ON conv.id = ${CONVERSATION_OF_MESSAGE}`;
