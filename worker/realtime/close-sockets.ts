import type { Env } from "../env";
import type { SocketOwners } from "../../contracts/realtime";
import { organizationStore } from "../stores/registry";

/**
 * Closes open console sockets in one organization after a revocation (code 4001). Call it
 * after the revocation is stored: a reconnect racing the close is then refused by `/ws`.
 * A failure is logged, never raised: the revocation itself already happened in D1, and the
 * route re-checks a socket it has just opened (`worker/realtime/routes.ts`).
 */
export async function closeSockets(env: Env, organizationId: string, owners: SocketOwners) {
  try {
    return await (
      await organizationStore(env, organizationId)
    ).closeSockets(organizationId, owners);
  } catch (error) {
    console.error("closing revoked sockets failed", error);
    return 0;
  }
}
