import type { Env } from "../env";
import type { RealtimeEvent } from "./contract";

/**
 * Sends an event to every console socket of one organization (and only that one).
 * A failed broadcast is logged, never raised: the change it announces is already stored.
 */
export async function publish(env: Env, organizationId: string, event: RealtimeEvent) {
  try {
    return await env.ORGANIZATION_HUB.getByName(organizationId).publish(event);
  } catch (error) {
    console.error("realtime publish failed", event.type, error);
    return 0;
  }
}
