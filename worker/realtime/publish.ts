import type { Env } from "../env";
import type { RealtimeEvent } from "./contract";
import { organizationStore } from "../stores/registry";

/** Events published during a store's transaction, and the member they are for (all: none). */
export interface HeldEvents {
  events: RealtimeEvent[];
  userId?: string;
}

/** Work a store runs in one transaction, by the env it was given: its organization's events. */
const heldByStore = new WeakMap<Env, { organizationId: string; held: HeldEvents[] }>();

/**
 * An env for work an organization's store runs in one transaction. While that transaction runs
 * the store takes no other call, its own included: publishing to itself would wait for the
 * transaction, which waits for the publish. Its organization's events published with this env
 * are kept in `held` instead, for the store to send once the work has committed (so a
 * transaction rolled back announces nothing).
 */
export function holdingEvents(env: Env, organizationId: string) {
  const held: HeldEvents[] = [];
  const holding: Env = { ...env };
  heldByStore.set(holding, { organizationId, held });
  return { env: holding, held };
}

/** Keeps the events when they belong to the transaction `env` was made for. */
function heldForStore(env: Env, organizationId: string, events: RealtimeEvent[], userId?: string) {
  const store = heldByStore.get(env);
  if (store?.organizationId !== organizationId) return false;
  store.held.push({ events, ...(userId && { userId }) });
  return true;
}

/**
 * Sends events, in order, to every console socket of one organization (and only that one):
 * one call to its store however many events. A failed broadcast is logged, never raised: the
 * changes it announces are already stored.
 */
export async function publish(env: Env, organizationId: string, ...events: RealtimeEvent[]) {
  if (events.length === 0) return 0;
  if (heldForStore(env, organizationId, events)) return 0;
  try {
    return await (await organizationStore(env, organizationId)).publish(organizationId, events);
  } catch (error) {
    console.error("realtime publish failed", events[0]!.type, error);
    return 0;
  }
}

/** Sends events to one member's sockets only (a mention is for the person named). */
export async function publishToUser(
  env: Env,
  organizationId: string,
  userId: string,
  ...events: RealtimeEvent[]
) {
  if (heldForStore(env, organizationId, events, userId)) return 0;
  try {
    return await (
      await organizationStore(env, organizationId)
    ).publish(organizationId, events, userId);
  } catch (error) {
    console.error("realtime publish failed", events[0]!.type, error);
    return 0;
  }
}
