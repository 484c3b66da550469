import type { Env } from "../env";
import type { RealtimeEvent } from "./contract";

/** Sends an event to every console socket of one organization (and only that one). */
export async function publish(env: Env, organizationId: string, event: RealtimeEvent) {
  return env.ORGANIZATION_HUB.getByName(organizationId).publish(event);
}
