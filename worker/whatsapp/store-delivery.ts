/**
 * The store's side of the WhatsApp webhook (contract section 15): an organization's part of a
 * delivery applied by its store in one transaction (its writes, its replies and transcripts
 * queued), its events sent once that has committed; and the parts that arrive while the
 * organization moves, held in arrival order and applied once each when the move ends.
 */
import type { Env } from "../env";
import type { Deps } from "../http/deps";
import { holdingEvents, type HeldEvents } from "../realtime/publish";
import type { RealtimeEvent } from "../realtime/contract";
import { freshStoreRoute, reportStuckParts } from "../stores/registry";
import type { StoreJobName } from "../stores/store-jobs";
import { ingestDeliveryPart, type DeliveryPart } from "./ingest";
import { STATS_DEBOUNCE_MS } from "../broadcasts/results";
import { FOLLOW_UP_LOOK_MS } from "../follow-ups/sending";

/** What the store lends a delivery: its storage, where the data is, its own jobs and sockets. */
export interface DeliveryStore {
  env: Env;
  storage: DurableObjectStorage;
  depsFor(organizationId: string): Promise<Deps>;
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

/** Held parts, `held:<arrival number>`: storage lists keys in order, hence the zero padding. */
const HELD = "held:";
const heldKey = (sequence: number) => `${HELD}${String(sequence).padStart(12, "0")}`;
/**
 * The last arrival number given, kept apart from the parts: a number is never given twice, so
 * a call that listed the held parts earlier can never take a newer part under an old key.
 */
const HELD_SEQUENCE = "held-sequence";

/** How long a held part that failed waits before the store's job tries it again. */
export const HELD_RETRY_MS = 30_000;
/**
 * After the store's job has failed to apply a held part for this long it is stuck: set aside
 * (`stuck:<arrival number>`) so that the parts after it go ahead rather than keep a customer's
 * later messages out of the inbox behind one part that fails every time (a bug, a full store).
 * Long enough that a passing failure (D1 unreachable for minutes) never reorders parts: a
 * reaction applied before its message would find nothing to react to. Never dropped; the job
 * tries it hourly.
 */
export const HELD_STUCK_AFTER_MS = 60 * 60_000;
/** How often the store's job tries a stuck part again (each failure is logged: the alert). */
export const STUCK_RETRY_MS = 60 * 60_000;

/** Parts set aside after failing every time, under their arrival number. */
const STUCK = "stuck:";
/** When the job first failed to apply a held part, `held-failures:<arrival number>`. */
const FAILURES = "held-failures:";
const failuresKey = (key: string) => `${FAILURES}${key.slice(key.indexOf(":") + 1)}`;

/** Applies a part now, after any part still held from a move (an earlier arrival). */
export async function deliverHere(
  store: DeliveryStore,
  organizationId: string,
  part: DeliveryPart,
): Promise<StoreDelivery> {
  const held = await store.storage.list({ prefix: HELD, limit: 1 });
  if (held.size > 0) await applyHeldHere(store, organizationId);
  return { stored: (await applyPart(store, organizationId, { part })) ?? 0 };
}

/**
 * Keeps a part that arrived while the organization is `switching`, after those before it. A
 * Worker keeps a route for a while and may still see a move that has ended: then it is applied
 * at once, in its turn.
 */
export async function holdHere(
  store: DeliveryStore,
  organizationId: string,
  part: DeliveryPart,
): Promise<StoreDelivery> {
  const [last] = await store.storage.list({ prefix: HELD, reverse: true, limit: 1 });
  const given = (await store.storage.get<number>(HELD_SEQUENCE)) ?? 0;
  const next = Math.max(given, last ? Number(last[0].slice(HELD.length)) : 0) + 1;
  await store.storage.put({ [HELD_SEQUENCE]: next, [heldKey(next)]: part });
  // Whatever becomes of the move's end (its `applyHeld` may fail as a whole), the store's own
  // job applies what is held; it ends once nothing is.
  await store.queueJob(organizationId, "held_deliveries", Date.now() + HELD_RETRY_MS);
  return { stored: await applyHeldHere(store, organizationId) };
}

/**
 * Applies the held parts in arrival order once the organization is no longer `switching`,
 * where its data now is. One that fails stays, with those after it, for the next call (a
 * delivery, the next part held, or the store's job that holding it scheduled), and is logged.
 * Only the job's tries (`byJob`) record when a part began failing and set it aside once it has
 * failed for `HELD_STUCK_AFTER_MS`. Answers the messages stored.
 */
export async function applyHeldHere(store: DeliveryStore, organizationId: string, byJob = false) {
  // The registry as it is now, which also renews this isolate's copy that `depsFor` reads: a
  // move that has just ended must not be seen as still under way.
  const route = await freshStoreRoute(store.env, organizationId);
  if (route.state === "switching") return 0;
  let stored = 0;
  for (const key of (await store.storage.list({ prefix: HELD })).keys()) {
    try {
      stored += (await applyPart(store, organizationId, { key })) ?? 0;
    } catch (error) {
      const failingSince = byJob ? await store.storage.get<number>(failuresKey(key)) : undefined;
      if (failingSince === undefined || Date.now() - failingSince < HELD_STUCK_AFTER_MS) {
        if (byJob && failingSince === undefined) {
          await store.storage.put(failuresKey(key), Date.now());
        }
        console.error("held delivery not applied yet", organizationId, key, error);
        break;
      }
      await setAside(store, key);
      console.error("held delivery stuck, set aside", organizationId, key, error);
    }
  }
  return stored;
}

/** A held part that failed every time, moved out of the parts' order (read in the same write). */
async function setAside(store: DeliveryStore, key: string) {
  await store.storage.transaction(async () => {
    const part = await store.storage.get<DeliveryPart>(key);
    await store.storage.delete([key, failuresKey(key)]);
    if (part !== undefined) await store.storage.put(`${STUCK}${key.slice(HELD.length)}`, part);
  });
}

/**
 * The store's job for what a move left held: the held parts, then the stuck ones, each
 * failure logged, and how many are stuck told to the registry. Answers when to try again: soon while parts are held, hourly while only
 * stuck ones are left, null once none is.
 */
export async function retryHeldHere(store: DeliveryStore, organizationId: string) {
  await applyHeldHere(store, organizationId, true);
  // The job runs only while the organization is not switching (store-job-runner.ts).
  for (const key of (await store.storage.list({ prefix: STUCK })).keys()) {
    await applyPart(store, organizationId, { key }).catch((error: unknown) => {
      console.error("held delivery still stuck", organizationId, key, error);
    });
  }
  const stuck = (await store.storage.list({ prefix: STUCK })).size;
  await reportStuckParts(store.env, organizationId, stuck);
  if ((await store.storage.list({ prefix: HELD, limit: 1 })).size > 0) {
    return Date.now() + HELD_RETRY_MS;
  }
  return stuck > 0 ? Date.now() + STUCK_RETRY_MS : null;
}

/**
 * One part in one transaction of the store: the organization's writes (in its SQLite, or in D1
 * while its data is there), its replies, transcripts and history import queued, and a held
 * part's key deleted, so it is applied once. A held part is read inside the transaction: what
 * the key holds now, never what an earlier listing saw. Answers the messages stored, null when
 * another call applied that held part first. Nothing in it may call this same store: the
 * transaction holds every other call.
 */
async function applyPart(
  store: DeliveryStore,
  organizationId: string,
  arrival: { part: DeliveryPart } | { key: string },
) {
  const deps = await store.depsFor(organizationId);
  const { env, held } = holdingEvents(deps.env, organizationId);
  const outcome = await store.storage.transaction(async () => {
    const part =
      "part" in arrival ? arrival.part : await store.storage.get<DeliveryPart>(arrival.key);
    if (part === undefined) return null;
    const done = await ingestDeliveryPart({ ...deps, env }, organizationId, part);
    for (const id of done.conversationsToAnswer) await store.queueReply(organizationId, id);
    if (done.voiceNotes.length > 0) await store.queueTranscripts(organizationId, done.voiceNotes);
    if (done.historyHeld) await store.queueJob(organizationId, "history", Date.now());
    if (done.broadcastResultsChanged) {
      await store.queueJob(organizationId, "broadcasts", Date.now() + STATS_DEBOUNCE_MS);
    }
    if (done.followUpWaitStarted) {
      await store.queueJob(organizationId, "follow_ups", Date.now() + FOLLOW_UP_LOOK_MS);
    }
    if ("key" in arrival) await store.storage.delete([arrival.key, failuresKey(arrival.key)]);
    return done;
  });
  await sendHeld(store, organizationId, held);
  return outcome && outcome.storedMessages;
}

/** The transaction's events, in the order they were published, now that it has committed. */
async function sendHeld(store: DeliveryStore, organizationId: string, held: HeldEvents[]) {
  for (const { events, userId } of held) await store.publish(organizationId, events, userId);
}
