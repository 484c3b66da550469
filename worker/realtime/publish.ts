import type { Env } from "../env";
import type { RealtimeEvent } from "./contract";
import { organizationStore } from "../stores/registry";

/**
 * Sends events, in order, to every console socket of one organization (and only that one):
 * one call to its store however many events. A failed broadcast is logged, never raised: the
 * changes it announces are already stored.
 */
export async function publish(env: Env, organizationId: string, ...events: RealtimeEvent[]) {
  if (events.length === 0) return 0;
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
  try {
    return await (
      await organizationStore(env, organizationId)
    ).publish(organizationId, events, userId);
  } catch (error) {
    console.error("realtime publish failed", events[0]!.type, error);
    return 0;
  }
}
