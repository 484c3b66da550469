/**
 * WhatsApp's webhook as Meta sends it, and the parts of a delivery the edge hands each
 * organization's store (worker/whatsapp/delivery.ts splits, durable-objects/whatsapp/ingest.ts applies).
 * Types only, apart from the code that reads them, so that what only names a payload does not
 * depend on the ingest.
 */
import type { DetectedEventPayload } from "../../contracts/sales";
import type { AutoAssignMode } from "../../contracts/team-inbox";
import type { UserPreferencePayload } from "../../durable-objects/whatsapp/consent";
import type { ContactPayload } from "../../durable-objects/whatsapp/customer-identity";
import type { InboundMessage } from "../../durable-objects/whatsapp/inbound-content";
import type { StatusUpdate } from "../../durable-objects/whatsapp/statuses";

/** What the ingest needs of the connection a change arrived on. */
export interface Connection {
  organizationId: string;
  defaultAgentId: string | null;
  /** The organization's automatic assignment (round robin for new conversations). */
  autoAssign: AutoAssignMode;
  /** The version of the organization's global facts, handed to its store (decision 0136). */
  factsVersion: number;
}

export interface WebhookPayload {
  object?: string;
  entry?: {
    id?: string;
    changes?: { field?: string; value?: ChangeValue }[];
  }[];
}

export interface ChangeValue {
  messaging_product?: string;
  metadata?: { phone_number_id?: string; display_phone_number?: string };
  contacts?: ContactPayload[];
  messages?: InboundMessage[];
  statuses?: StatusUpdate[];
  /** What Meta detected in click-to-WhatsApp threads (field `automatic_events`), read by zod. */
  automatic_events?: unknown;
  /** What the owner sent from the app (`smb_message_echoes`) or Meta's AI sent (`standby`). */
  message_echoes?: EchoPayload[];
  /** The phone's address book (`smb_app_state_sync`). */
  state_sync?: StateSyncPayload[];
  /** The app's chat history (`history`): chunks of threads, or Meta's refusal. */
  history?: HistoryPayload[];
  /** Who holds a customer's thread now (`messaging_handovers`). */
  messaging_handovers?: HandoverPayload[];
  /** A change to the account (`account_update`), routed by `entry[].id`. */
  event?: string;
  disconnection_info?: { reason?: string; initiated_by?: string };
  /** The number an `account_update` is about (a WABA may hold several). */
  phone_number?: string;
  ban_info?: AccountUpdatePayload["ban_info"];
  /** Customers stopping or resuming marketing from the business (`user_preferences`). */
  user_preferences?: UserPreferencePayload[];
}

/** A message sent on the number by someone other than this app, as Meta echoes it. */
export interface EchoPayload extends InboundMessage {
  /** The customer's phone; absent when only their BSUID is known (`to_user_id`). */
  to?: string;
  to_user_id?: string;
}

/** One change in the phone's address book (names are absent on `remove`). */
export interface StateSyncPayload {
  type?: string;
  contact?: { full_name?: string; first_name?: string; phone_number?: string };
  action?: string;
  metadata?: { timestamp?: string };
}

/** One chunk of the app's history, or the refusal Meta sends instead (`errors`). */
export interface HistoryPayload {
  metadata?: { phase?: number; chunk_order?: number; progress?: number };
  threads?: {
    id?: string;
    messages?: (EchoPayload & { history_context?: { status?: string } })[];
  }[];
  errors?: { code?: number; title?: string; message?: string }[];
}

/**
 * Meta's handover of a customer's thread (Messenger's handover protocol, as WhatsApp sends it
 * for Meta Business Agent): the app that holds the thread now.
 */
export interface HandoverPayload {
  /** The customer: phone and/or BSUID. */
  from?: string;
  from_user_id?: string;
  timestamp?: string;
  pass_thread_control?: ThreadControlChange;
  take_thread_control?: ThreadControlChange;
}

interface ThreadControlChange {
  previous_owner_app_id?: string | null;
  new_owner_app_id?: string | null;
  metadata?: string;
}

/** A customer message and the `contacts[]` of its change (the customer's profile). */
export interface ArrivedMessage {
  message: InboundMessage;
  contacts: ContactPayload[];
  /** Came on `standby`: Meta's own AI holds the customer's thread. */
  standby?: boolean;
}

/** A message someone else sent on the number: the owner in the app, or Meta's AI. */
export interface ArrivedEcho {
  echo: EchoPayload;
  sender: "phone" | "meta_ai";
}

/**
 * What one delivery brought for one connected number, gathered across its entries. The fields
 * of contract section 16 are optional: a part held by a store before they existed has none.
 */
export interface NumberChanges {
  connection: Connection;
  messages: ArrivedMessage[];
  statuses: StatusUpdate[];
  echoes?: ArrivedEcho[];
  contacts?: StateSyncPayload[];
  history?: HistoryPayload[];
  handovers?: HandoverPayload[];
  /** Marketing consent from Meta (`user_preferences`, contract section 17). */
  preferences?: UserPreferencePayload[];
}

/** A change to the organization's WhatsApp account (`entry[].id`), which others may share. */
export type AccountChange =
  | { field: "message_template_status_update"; update: TemplateStatusUpdate }
  | { field: "automatic_events"; events: DetectedEventPayload[] }
  | { field: "account_update"; update: AccountUpdatePayload };

/**
 * `account_update`'s disconnection and reconnection of a number shared with the app, and the
 * account's own removal, ban or deletion.
 */
export interface AccountUpdatePayload {
  event: string;
  disconnection_info?: { reason?: string; initiated_by?: string };
  /** The number it is about: organizations sharing the account keep their other numbers. */
  phone_number?: string;
  /** `DISABLED_UPDATE`'s ban: `DISABLE` (banned), `SCHEDULE_FOR_DISABLE`, `REINSTATE`. */
  ban_info?: { waba_ban_state?: string | string[] };
}

/**
 * What one delivery brought for one organization: what its store applies in one transaction.
 * Plain data, since it travels to the store.
 */
export interface DeliveryPart {
  /** Template statuses and detected events, in the delivery's order, applied first. */
  accountChanges: AccountChange[];
  /** Messages and statuses on the organization's connected number (it has one at most). */
  number: NumberChanges | null;
}

/** `message_template_status_update`: a template Meta approved, rejected, paused or disabled. */
export interface TemplateStatusUpdate {
  event?: string;
  message_template_id?: number | string;
  message_template_name?: string;
  message_template_language?: string;
}
