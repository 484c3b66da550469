/**
 * Who wrote: since 2026 Meta names every customer by a business-scoped user id (BSUID) and
 * shares the phone only when the customer lets it (docs/decisions/0037). A customer is one
 * conversation per organization, found by BSUID first, then by phone; a delivery that brings
 * the other identifier, a username or a name adds it to that conversation. No phone is ever
 * invented.
 */
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

  /** Adds an identity and answers the customer it belongs to (merged with what was known). */
  add(identity: T): T {
    const keys = identityKeys(identity);
    const known = [...new Set(keys.flatMap((k) => this.byKey.get(k) ?? []))];
    const customer = known.reduce<T>(
      (merged, other) => ({
        ...merged,
        userId: merged.userId ?? other.userId,
        phone: merged.phone ?? other.phone,
        username: merged.username ?? other.username,
        name: merged.name ?? other.name,
        sentAt: merged.sentAt > other.sentAt ? merged.sentAt : other.sentAt,
      }),
      identity,
    );
    for (const key of [...identityKeys(customer), ...known.flatMap(identityKeys)]) {
      this.byKey.set(key, customer);
    }
    return customer;
  }

  /** The customer an identity belongs to now, after every merge. */
  find(identity: CustomerIdentity): T {
    return this.byKey.get(identityKeys(identity)[0]!)!;
  }

  all(): T[] {
    return [...new Set(this.byKey.values())];
  }
}

const identityKeys = (identity: CustomerIdentity) => [
  ...(identity.userId ? [`u:${identity.userId}`] : []),
  ...(identity.phone ? [`p:${identity.phone}`] : []),
];

/**
 * The three statements that make every customer of a delivery exactly one conversation,
 * inside the ingest's batch (`?1` the organization, `?2` the customers as JSON):
 * 1. conversations found by BSUID take the phone (unless another conversation holds it),
 *    username and name the delivery brings;
 * 2. conversations found by phone, for customers no conversation knows by BSUID yet, take
 *    the BSUID (a new one replaces the old: Meta changes it with the phone), username and name;
 * 3. the rest are new conversations.
 * The customers are read out of the JSON once (`DELIVERY_CUSTOMERS`, materialized) and each is
 * looked up by index; the `IN` lists keep it so: the planner has no statistics, and left to
 * itself it walked the conversations and parsed the JSON again for each of them.
 */
const DELIVERY_CUSTOMERS = `c AS MATERIALIZED (
    SELECT value ->> 'userId' AS user_id, value ->> 'phone' AS phone,
      value ->> 'username' AS username, value ->> 'name' AS name
    FROM json_each(?2))`;

export const MATCH_BY_USER_ID = `
  WITH ${DELIVERY_CUSTOMERS}
  UPDATE conversations SET
    phone_number = coalesce(conversations.phone_number, CASE WHEN NOT EXISTS (
      SELECT 1 FROM conversations AS other
      WHERE other.organization_id = ?1 AND other.phone_number = c.phone
    ) THEN c.phone END),
    username = coalesce(c.username, conversations.username),
    contact_name = coalesce(c.name, conversations.contact_name)
  FROM c
  WHERE conversations.organization_id = ?1 AND conversations.wa_user_id = c.user_id
    AND conversations.wa_user_id IN (SELECT user_id FROM c)`;

export const MATCH_BY_PHONE = `
  WITH ${DELIVERY_CUSTOMERS}
  UPDATE conversations SET
    wa_user_id = coalesce(c.user_id, conversations.wa_user_id),
    username = coalesce(c.username, conversations.username),
    contact_name = coalesce(c.name, conversations.contact_name)
  FROM c
  WHERE conversations.organization_id = ?1 AND conversations.phone_number = c.phone
    AND conversations.phone_number IN (SELECT phone FROM c)
    AND (c.user_id IS NULL OR NOT EXISTS (
      SELECT 1 FROM conversations AS other
      WHERE other.organization_id = ?1 AND other.wa_user_id = c.user_id))`;

/** `?3` the default agent, `?4` the new conversation's status, `?5` now. */
export const CREATE_NEW_CUSTOMERS = `
  INSERT INTO conversations (id, organization_id, phone_number, wa_user_id, username,
    contact_name, agent_id, status, last_message_at, created_at, updated_at)
  SELECT c.value ->> 'id', ?1, c.value ->> 'phone', c.value ->> 'userId',
    c.value ->> 'username', c.value ->> 'name', ?3, ?4, c.value ->> 'sentAt', ?5, ?5
  FROM json_each(?2) AS c WHERE true
  ON CONFLICT DO NOTHING`;

/** The conversation of a message bound as JSON (`m`): by BSUID first, then by phone. */
export const CONVERSATION_OF_MESSAGE = `coalesce(
    (SELECT id FROM conversations WHERE organization_id = ?1 AND wa_user_id = m.value ->> 'userId'),
    (SELECT id FROM conversations WHERE organization_id = ?1 AND phone_number = m.value ->> 'phone'))`;
