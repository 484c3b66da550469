/**
 * The console's one record of what realtime events (and this console's own writes) brought:
 * the newest copy of each conversation, message, broadcast, booking, payment and mention, and the
 * WhatsApp number's status (decision 0145, and as read again when the socket reopens, 0156); and
 * the one channel screens hear realtime through (decision 0104). The realtime client hands it
 * every event;
 * it records the copy first and then tells its listeners (`subscribe`), so a screen whose data
 * was being read at that moment still gets it. Screens read the copies (`useLiveVersion`
 * re-renders them when one changes) rather than keeping a second copy of a list themselves.
 *
 * Reads are by mark: take `live.mark()` when a fetch starts; when it answers, `since(mark)`
 * gives what came after, newest copy per id, in arrival order, to lay over the answer.
 * Conversations carry `updated_at`: a copy older than the one kept (an event that travelled
 * slower than a later read) never replaces it.
 */
import type { Booking } from "../../contracts/bookings";
import type { Broadcast } from "../../contracts/broadcasts";
import type {
  Conversation,
  Message,
  MessageEvent,
  MessageStatusEvent,
} from "../../contracts/conversations";
import type { Payment } from "../../contracts/payments";
import type { RealtimeEvent } from "../../contracts/realtime";
import type { Mention } from "../../contracts/team-inbox";
import type { WhatsappStatusEvent } from "../../contracts/whatsapp";

interface Copy<T> {
  item: T;
  /** When it was recorded (the store's own count). */
  sequence: number;
}

let sequence = 0;

/** Called after each copy recorded (`useLiveVersion`: screens that read the copies). */
const watchers = new Set<() => void>();
/** Called with every realtime event, once its copies are recorded (`useLiveEvent`). */
const listeners = new Set<(event: RealtimeEvent) => void>();

/** One kind of record, by id, newest arrival last. */
function copies<T extends { id: string }>() {
  const byId = new Map<string, Copy<T>>();
  return {
    record(item: T) {
      byId.delete(item.id); // A Map keeps insertion order: the latest arrival goes last.
      byId.set(item.id, { item, sequence: ++sequence });
      for (const watcher of watchers) watcher();
    },
    /** The copy of `id` recorded after `mark`, if any. */
    get(id: string, mark: number) {
      const copy = byId.get(id);
      return copy && copy.sequence > mark ? copy.item : undefined;
    },
    /** Every copy recorded after `mark`, in the order they came. */
    since(mark: number) {
      const newer = new Map<string, T>();
      for (const [id, copy] of byId) if (copy.sequence > mark) newer.set(id, copy.item);
      return newer;
    },
  };
}

/** Whether `a` is an older copy of the conversation than `b` (by `updated_at`). */
export const olderConversation = (a: Conversation, b: Conversation) => a.updated_at < b.updated_at;

/**
 * Whether `a` is an older copy of the broadcast than `b`: by `updated_at`, and between two
 * copies of the same instant by how far the send has gone (every count only grows).
 */
export function olderBroadcast(a: Broadcast, b: Broadcast) {
  if (a.updated_at !== b.updated_at) return a.updated_at < b.updated_at;
  const progress = ({ stats: s }: Broadcast) =>
    s.sent + s.delivered + s.read + s.replied + s.failed + s.limited + s.opted_out + s.sales;
  return progress(a) < progress(b);
}

/** A conversation as the store keeps it, and when a message of it last came. */
export interface LiveConversation {
  id: string;
  conversation: Conversation;
  /** The store's count when a message of this conversation last arrived (0: none seen). */
  messageAt: number;
}

const conversations = copies<LiveConversation>();
const messages = copies<Message>();
const broadcasts = copies<Broadcast>();
const bookings = copies<Booking>();
const payments = copies<Payment>();
const mentions = copies<Mention>();
/** The organization has one number: its status is one copy, the latest Meta announced. */
const NUMBER = "number";
const numberStatus = copies<{ id: typeof NUMBER; status: WhatsappStatusEvent }>();

export const live = {
  /** The mark to take before reading: what is recorded after it is newer than the answer. */
  mark: () => sequence,

  /** A conversation's newer copy (an event's, or this console's own change). */
  conversation(conversation: Conversation, { newMessage = false } = {}) {
    const kept = conversations.get(conversation.id, 0);
    const newest =
      kept && olderConversation(conversation, kept.conversation) ? kept.conversation : conversation;
    conversations.record({
      id: conversation.id,
      conversation: newest,
      messageAt: newMessage ? sequence + 1 : (kept?.messageAt ?? 0),
    });
    return newest;
  },
  /** The newest copy known of `conversation`: the store's, unless this one is newer. */
  newest(conversation: Conversation) {
    const kept = conversations.get(conversation.id, 0);
    return kept && olderConversation(conversation, kept.conversation)
      ? kept.conversation
      : conversation;
  },
  /** The conversations recorded after `mark`, each with whether a message came since. */
  conversationsSince(mark: number) {
    return [...conversations.since(mark).values()].map(({ conversation, messageAt }) => ({
      conversation,
      newMessage: messageAt > mark,
    }));
  },

  /** A message's newer copy (an event's, or what this console's own call stored). */
  message(message: Message) {
    messages.record(message);
  },
  /** The copy of message `id` recorded after `mark`, if any. */
  messageSince: (id: string, mark: number) => messages.get(id, mark),
  messagesSince: (mark: number) => messages.since(mark),

  /** A broadcast's newer copy (its `broadcast_update`, or this console's own change). */
  broadcast(broadcast: Broadcast) {
    const kept = broadcasts.get(broadcast.id, 0);
    const newest = kept && olderBroadcast(broadcast, kept) ? kept : broadcast;
    broadcasts.record(newest);
    return newest;
  },
  /** The newest copy known of `broadcast`: the store's, unless this one is newer. */
  newestBroadcast(broadcast: Broadcast) {
    const kept = broadcasts.get(broadcast.id, 0);
    return kept && olderBroadcast(broadcast, kept) ? kept : broadcast;
  },
  /** The broadcasts recorded after `mark`, newest copy of each. */
  broadcastsSince: (mark: number) => broadcasts.since(mark),

  /** A booking's newer copy (its `booking_update`, or this console's own change). */
  booking(booking: Booking) {
    const kept = bookings.get(booking.id, 0);
    const newest = kept && booking.updated_at < kept.updated_at ? kept : booking;
    bookings.record(newest);
    return newest;
  },
  /** The bookings recorded after `mark`, newest copy of each. */
  bookingsSince: (mark: number) => bookings.since(mark),

  /** A payment link's newer copy (its `payment_update`, or the link this console just sent). */
  payment(payment: Payment) {
    const kept = payments.get(payment.id, 0);
    payments.record(kept && payment.updated_at < kept.updated_at ? kept : payment);
  },
  /** The payments recorded after `mark`, newest copy of each. */
  paymentsSince: (mark: number) => payments.since(mark),

  /** A mention of the person signed in (its `mention` event, or its read copy once opened). */
  mention(mention: Mention) {
    mentions.record(mention);
  },
  /** The mentions recorded after `mark`, in the order they came. */
  mentionsSince: (mark: number) => mentions.since(mark),

  /**
   * The number's status read again when the socket reopened (the console's notice reads it):
   * kept unless an event recorded after `mark`, when the read began, already said newer.
   */
  whatsappStatusRead(status: WhatsappStatusEvent, mark: number) {
    if (!numberStatus.get(NUMBER, mark)) numberStatus.record({ id: NUMBER, status });
  },
  /** The number's status as Meta left it (`whatsapp_status`), if it changed after `mark`. */
  whatsappStatusSince: (mark: number) => numberStatus.get(NUMBER, mark)?.status,

  /** Re-renders what reads the copies: `live.mark()` changes with each copy recorded. */
  watch(watcher: () => void) {
    watchers.add(watcher);
    return () => void watchers.delete(watcher);
  },
  /** Hears every realtime event after its copies are recorded. */
  subscribe(listener: (event: RealtimeEvent) => void) {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },

  /** Every realtime event, as the realtime client receives it: copies first, then listeners. */
  record(event: RealtimeEvent) {
    live.keep(event);
    for (const listener of listeners) listener(event);
  },

  /** The copies an event brings. */
  keep(event: RealtimeEvent) {
    switch (event.type) {
      case "new_message":
      case "message_sent": {
        const { message, conversation } = event.data as MessageEvent;
        live.message(message);
        live.conversation(conversation, { newMessage: true });
        break;
      }
      case "message_status":
        live.message((event.data as MessageStatusEvent).message);
        break;
      case "conversation_update":
        live.conversation((event.data as { conversation: Conversation }).conversation);
        break;
      case "broadcast_update":
        live.broadcast((event.data as { broadcast: Broadcast }).broadcast);
        break;
      case "booking_update":
        live.booking((event.data as { booking: Booking }).booking);
        break;
      case "payment_update":
        live.payment((event.data as { payment: Payment }).payment);
        break;
      case "mention":
        live.mention((event.data as { mention: Mention }).mention);
        break;
      case "whatsapp_status":
        numberStatus.record({ id: NUMBER, status: event.data as WhatsappStatusEvent });
        break;
      default:
    }
  },
};
