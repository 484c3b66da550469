/**
 * The away message (contract section 18, decision 0077): outside the opening hours, when no AI
 * agent answers the conversation, a customer's first message of each closed stretch gets the
 * organization's away message, once. The claim is written with the customer's message, in the
 * delivery's transaction (a stretch is named by when it ends, the next opening, so a second
 * message claims nothing); the store's `away_messages` job sends what was claimed, so that the
 * webhook never waits for Meta.
 */
import { and, eq } from "drizzle-orm";
import { findConversation } from "../conversations/find";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError } from "../../worker/http/errors";
import { sendText } from "../whatsapp/sender";
import { isOpenAt, nextOpening } from "./hours";
import { awayMessageSends } from "../schema";
import { readBookingSettings } from "./settings";

/** The stretch of a business that never opens again (no hours within a year). */
const NO_OPENING = "never";
/** Away messages sent a run, at most; the job runs again at once while more are left. */
const SENDS_A_RUN = 20;

/**
 * Claims the away message for each conversation whose customer wrote at `at` while the business
 * is closed, once per closed stretch. Answers whether any was claimed (the job is then due).
 */
export async function claimAwayMessages(
  deps: StoreDeps,
  organizationId: string,
  conversationIds: string[],
  at: number,
) {
  if (conversationIds.length === 0) return false;
  const { hours, away } = await readBookingSettings(deps.orgDb, organizationId);
  if (!hours || !away.enabled || !away.text || isOpenAt(hours, at)) return false;
  const opening = nextOpening(hours, at);
  const stretchEndsAt = opening === null ? NO_OPENING : new Date(opening).toISOString();
  const claimed = await deps.orgDb
    .insert(awayMessageSends)
    .values(
      conversationIds.map((conversationId) => ({
        conversationId,
        organizationId,
        stretchEndsAt,
        state: "pending" as const,
      })),
    )
    .onConflictDoNothing()
    .returning({ conversationId: awayMessageSends.conversationId });
  return claimed.length > 0;
}

/**
 * The store's `away_messages` job: sends the claimed away messages, each marked sent before
 * Meta is asked (a restart never sends one twice); one the window or the connection refuses is
 * marked failed. Answers when to run again (now while more are left; null: none).
 */
export async function sendAwayMessages(deps: StoreDeps, organizationId: string) {
  const pending = await deps.orgDb
    .select()
    .from(awayMessageSends)
    .where(
      and(
        eq(awayMessageSends.organizationId, organizationId),
        eq(awayMessageSends.state, "pending"),
      ),
    )
    .limit(SENDS_A_RUN);
  if (pending.length === 0) return null;
  const { away } = await readBookingSettings(deps.orgDb, organizationId);
  for (const claim of pending) {
    const key = and(
      eq(awayMessageSends.conversationId, claim.conversationId),
      eq(awayMessageSends.stretchEndsAt, claim.stretchEndsAt),
    );
    const [mine] = await deps.orgDb
      .update(awayMessageSends)
      .set({ state: away.enabled && away.text ? "sent" : "failed" })
      .where(and(key, eq(awayMessageSends.state, "pending")))
      .returning();
    if (mine?.state !== "sent") continue;
    try {
      const conversation = await findConversation(deps.orgDb, organizationId, claim.conversationId);
      await sendText(deps, conversation, { content: away.text!, senderType: "bot" });
    } catch (error) {
      // The window closed or WhatsApp was disconnected meanwhile: nothing was sent.
      if (!(error instanceof AppError)) throw error;
      await deps.orgDb.update(awayMessageSends).set({ state: "failed" }).where(key);
    }
  }
  return pending.length === SENDS_A_RUN ? Date.now() : null;
}
