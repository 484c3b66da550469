/**
 * The store's side of the WhatsApp webhook (contract section 15): an organization's part of a
 * delivery applied by its store in one transaction (its writes, its replies and transcripts
 * queued), its events sent once that has committed.
 */
import type { StoreDeps } from "../../worker/http/deps";
import type { RealtimeEvent } from "../../contracts/realtime";
import type { StoreJobName } from "../../worker/stores/contract";
import { ingestDeliveryPart } from "./ingest";
import type { DeliveryPart } from "../../worker/whatsapp/webhook-payloads";
import { STATS_DEBOUNCE_MS } from "../broadcasts/results";
import { FOLLOW_UP_LOOK_MS } from "../follow-ups/waits";

/** Events published while a transaction runs, and the member they are for (all: none). */
export interface HeldEvents {
  events: RealtimeEvent[];
  userId?: string;
}

/** What the store lends a delivery: its storage, its data, its own jobs and sockets. */
export interface DeliveryStore {
  storage: DurableObjectStorage;
  /** Its deps, whose events wait in `held` for the transaction to commit. */
  depsFor(organizationId: string, held: HeldEvents[]): StoreDeps;
  queueReply(organizationId: string, conversationId: string): Promise<void>;
  queueTranscripts(organizationId: string, messageIds: string[]): Promise<void>;
  /** One of its jobs due at `dueAt` (the history a delivery held: imported in the background). */
  queueJob(organizationId: string, name: StoreJobName, dueAt: number): Promise<void>;
  publish(organizationId: string, events: RealtimeEvent[], userId?: string): Promise<number>;
}

/** What the webhook answers Meta with: the customer messages this call stored. */
export interface StoreDelivery {
  stored: number;
}

/**
 * Applies an organization's part of a delivery in one transaction of the store: its writes, its
 * replies, transcripts and history import queued; then its events. Answers the customer
 * messages it stored. Nothing in it may call this same store: the transaction holds every
 * other call (the deps' publishing and scheduling are local).
 */
export async function deliverHere(
  store: DeliveryStore,
  organizationId: string,
  part: DeliveryPart,
): Promise<StoreDelivery> {
  const held: HeldEvents[] = [];
  const deps = store.depsFor(organizationId, held);
  const outcome = await store.storage.transaction(async () => {
    const done = await ingestDeliveryPart(deps, organizationId, part);
    for (const id of done.conversationsToAnswer) await store.queueReply(organizationId, id);
    if (done.voiceNotes.length > 0) await store.queueTranscripts(organizationId, done.voiceNotes);
    if (done.historyHeld) await store.queueJob(organizationId, "history", Date.now());
    if (done.broadcastResultsChanged) {
      await store.queueJob(organizationId, "broadcasts", Date.now() + STATS_DEBOUNCE_MS);
    }
    if (done.awayMessagesOwed) await store.queueJob(organizationId, "away_messages", Date.now());
    if (done.followUpWaitStarted) {
      await store.queueJob(organizationId, "follow_ups", Date.now() + FOLLOW_UP_LOOK_MS);
    }
    return done;
  });
  await sendHeld(store, organizationId, held);
  return { stored: outcome.storedMessages };
}

/** The transaction's events, in the order they were published, now that it has committed. */
async function sendHeld(store: DeliveryStore, organizationId: string, held: HeldEvents[]) {
  for (const { events, userId } of held) await store.publish(organizationId, events, userId);
}
