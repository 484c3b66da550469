/**
 * "Reintentar" on a reminder that failed (decision 0129): the reminders job sends it again, as
 * it sends its own retries, so the template keeps its buttons' payloads (a reminder rebuilt
 * from the message's text would lose them, and its buttons would then do nothing). The message
 * is on its way (`pending`) from the moment a person asks; the job's run, at once, sends it.
 * Should the job no longer send it (the booking changed, the template was paused) the message
 * goes back to failed, and every console sees it so.
 */
import { and, eq, inArray } from "drizzle-orm";
import { orgBatch } from "../db";
import { bookingReminders, bookings, messages } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError } from "../../worker/http/errors";
import { toMessage, type ConversationRow, type MessageRow } from "../conversations/mappers";
import { organizationQuietHoursEnd } from "../organizations/quiet-hours";
import { notFailed, resendOutbound, type Outbound } from "../whatsapp/sender";

/** The booking moved (its reminder is a new one), was cancelled, or has begun. */
const bookingChanged = () =>
  new AppError(409, "not_retriable", "La cita cambió o ya pasó: este recordatorio no se reenvía.");

export const REMINDER_QUIET_HOURS =
  "Es el horario de descanso de tu organización: los recordatorios no se envían hasta que termine. Reintenta después.";

/** Hands a failed reminder message to the reminders job; answers the message, now pending. */
export async function handReminderToJob(deps: StoreDeps, failed: MessageRow) {
  const { organizationId } = failed;
  const reminder = await deps.orgDb.query.bookingReminders.findFirst({
    where: and(
      eq(bookingReminders.organizationId, organizationId),
      eq(bookingReminders.messageId, failed.id),
    ),
  });
  if (!reminder) throw bookingChanged();
  if (reminder.state === "sending") throw notFailed();
  const booking = await deps.orgDb.query.bookings.findFirst({
    where: and(eq(bookings.id, reminder.bookingId), eq(bookings.organizationId, organizationId)),
  });
  const current =
    booking?.status === "confirmed" &&
    booking.startsAt === reminder.startsAt &&
    Date.parse(booking.startsAt) > Date.now();
  if (!current) throw bookingChanged();
  if (await organizationQuietHoursEnd(deps, new Date())) {
    throw new AppError(409, "quiet_hours", REMINDER_QUIET_HOURS);
  }
  const now = Date.now();
  const [[handed]] = orgBatch(deps.orgDb, [
    deps.orgDb
      .update(messages)
      .set({ status: "pending" })
      .where(
        and(
          eq(messages.id, failed.id),
          eq(messages.organizationId, organizationId),
          eq(messages.status, "failed"),
        ),
      )
      .returning(),
    deps.orgDb
      .update(bookingReminders)
      .set({ state: "pending", dueAt: now, updatedAt: new Date(now).toISOString() })
      .where(
        and(
          eq(bookingReminders.bookingId, reminder.bookingId),
          eq(bookingReminders.messageId, failed.id),
          inArray(bookingReminders.state, ["pending", "failed"]),
        ),
      )
      .returning({ bookingId: bookingReminders.bookingId }),
  ]);
  if (!handed) throw notFailed();
  await deps.schedule("booking_reminders", now);
  const message = toMessage(handed);
  await deps.publish({ type: "message_status", data: { message } });
  return message;
}

/**
 * The job's next attempt at a reminder it sent before, as the same message: `failed` by the
 * job's last attempt, or `pending` when a person handed it back (`handReminderToJob`), the only
 * way a reminder's message waits pending.
 */
export function resendHanded(
  deps: StoreDeps,
  conversation: ConversationRow,
  earlier: MessageRow,
  outbound: Outbound,
) {
  const from = earlier.status === "pending" ? "pending" : "failed";
  return resendOutbound(deps, conversation, earlier, outbound, from);
}

/**
 * The messages a person handed to the job that it will not send after all (`messageIds` of
 * reminders it settles or cancels): failed again, as they were, and said to every console.
 * A reminder's message is `pending` while its reminder waits only when a person handed it.
 */
export async function releaseHandedMessages(deps: StoreDeps, messageIds: (string | null)[]) {
  const ids = messageIds.filter((id): id is string => id !== null);
  if (ids.length === 0) return;
  const released = await deps.orgDb
    .update(messages)
    .set({ status: "failed" })
    .where(and(inArray(messages.id, ids), eq(messages.status, "pending")))
    .returning();
  if (released.length === 0) return;
  await deps.publish(
    ...released.map((row) => ({
      type: "message_status" as const,
      data: { message: toMessage(row) },
    })),
  );
}
