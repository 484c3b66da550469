/**
 * What starts and ends a follow-up's wait (contract section 17, decision 0062): the business
 * wrote, the rules changed, a sale was recorded. Apart from the job that sends them
 * (sending.ts), since sending a message is what starts a wait.
 */
import { and, eq } from "drizzle-orm";
import { conversations, followUps } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import type { ConversationRow } from "../conversations/mappers";

/** After the business writes, the job looks again this much later: the shortest wait there is. */
export const FOLLOW_UP_LOOK_MS = 60_000;

/**
 * The business wrote (a person or the AI): the job looks again when the shortest wait a rule
 * may have is over, and works out then when each rule is due. Without an enabled rule there is
 * nothing to look at (a call to the store saved on every message); a rule enabled later looks
 * at the waits already begun (`followUpsChanged`).
 */
export async function followUpWaitStarted(deps: StoreDeps, organizationId: string) {
  const [enabled] = await deps.orgDb
    .select({ id: followUps.id })
    .from(followUps)
    .where(and(eq(followUps.organizationId, organizationId), eq(followUps.enabled, true)))
    .limit(1);
  if (!enabled) return;
  await deps.schedule("follow_ups", Date.now() + FOLLOW_UP_LOOK_MS);
}

/** Rules changed: the job works out again what is due. */
export async function followUpsChanged(deps: StoreDeps) {
  await deps.schedule("follow_ups", Date.now());
}

/** A sale ends the wait: nothing pending is sent. */
export async function endFollowUpWait(deps: StoreDeps, conversation: Pick<ConversationRow, "id">) {
  await deps.orgDb
    .update(conversations)
    .set({ followUpSince: null })
    .where(eq(conversations.id, conversation.id));
}
