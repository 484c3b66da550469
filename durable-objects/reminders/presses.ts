/**
 * A delivery's presses of a reminder's buttons (decision 0122), kept with the messages stored
 * just now (a redelivery stores none, so presses nothing again) for the store's
 * `booking_reminders` job to act on, at once, outside the delivery's transaction.
 */
import { bookingReminderAnswers } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import type { ReminderAction } from "../../contracts/reminders";

export interface ReminderPressStored {
  /** The stored inbound message's id. */
  messageId: string;
  conversationId: string;
  bookingId: string;
  action: ReminderAction;
}

export async function recordReminderPresses(
  deps: StoreDeps,
  organizationId: string,
  presses: ReminderPressStored[],
) {
  if (presses.length === 0) return;
  await deps.orgDb
    .insert(bookingReminderAnswers)
    .values(presses.map((press) => ({ ...press, organizationId })))
    .onConflictDoNothing();
  await deps.schedule("booking_reminders", Date.now());
}
