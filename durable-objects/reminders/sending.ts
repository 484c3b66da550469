/**
 * The store's `booking_reminders` job (contract section 18, decisions 0121-0123): first it acts
 * on the customers' presses of a reminder's buttons, then it sends the reminders that are due,
 * never inside quiet hours, each claimed (`sending`) before Meta is asked so that a run that
 * repeats sends nothing twice. A send that fails is tried again later, as the same message of
 * the thread, a few times; the thread shows it failed as any other send.
 */
import { and, asc, eq, inArray, isNull, lte } from "drizzle-orm";
import { retryDelay } from "../scheduler";
import { recordAudit } from "../audit/service";
import { findConversation } from "../conversations/find";
import { orgStatements } from "../db";
import { bookingReminderAnswers, bookingReminders, bookings, messages } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError } from "../../worker/http/errors";
import { quietHoursEnd } from "../../contracts/organizations";
import { organizationQuietHours } from "../organizations/quiet-hours";
import { readBookingSettings } from "../bookings/settings";
import { publishBooking, spokenDate, updateBooking } from "../bookings/service";
import { sendBookingFlow } from "../flows/sending";
import { systemNote } from "../team-inbox/notes-service";
import { connectedSender } from "../whatsapp/connection-service";
import { fillTemplate } from "../../contracts/whatsapp";
import { sendOutbound, type Outbound } from "../whatsapp/sender";
import { REMINDER_ACTIONS, type ReminderAction } from "../../contracts/reminders";
import { reminderPayload } from "./payloads";
import { jobTimeFor, readReminderTemplate } from "./planning";
import { releaseHandedMessages, resendHanded } from "./retry";
import { usableReminderTemplate } from "./service";

type ReminderRow = typeof bookingReminders.$inferSelect;
type BookingRow = typeof bookings.$inferSelect;
type Template = Awaited<ReturnType<typeof usableReminderTemplate>>;

/** Reminders (and presses) taken a run; the job goes on at once while more are due. */
const A_RUN = 20;
/** Sends of one reminder, the first included; then it stays failed. */
export const REMINDER_ATTEMPTS = 3;
/** What a cancellation from the reminder says as its reason. */
export const CANCELLED_BY_CUSTOMER = "El cliente la canceló desde el recordatorio";

/** One run: the presses, then the due reminders; answers when it is next due (null: never). */
export async function runReminders(deps: StoreDeps, organizationId: string, at: Date) {
  const pressesLeft = await actOnPresses(deps, organizationId);
  await markInterrupted(deps, organizationId);
  const quiet = await organizationQuietHours(deps);
  const quietEnd = quiet && quietHoursEnd(at, quiet);
  const sent = quietEnd ? 0 : await sendDue(deps, organizationId, at);
  if (pressesLeft || sent === A_RUN) return Date.now();
  const [next] = await deps.orgDb
    .select({ dueAt: bookingReminders.dueAt })
    .from(bookingReminders)
    .where(
      and(
        eq(bookingReminders.organizationId, organizationId),
        eq(bookingReminders.state, "pending"),
      ),
    )
    .orderBy(asc(bookingReminders.dueAt))
    .limit(1);
  if (!next) return null;
  // What falls due inside quiet hours waits for their end.
  const dueAt = quietEnd ? Math.max(next.dueAt, +quietEnd) : next.dueAt;
  return jobTimeFor(dueAt, Date.now());
}

/**
 * Reminders a dead run left `sending` (the store restarted while Meta was asked): whether Meta
 * took them is unknown, so they count as failed and are never asked again. Runs never overlap.
 */
async function markInterrupted(deps: StoreDeps, organizationId: string) {
  await deps.orgDb
    .update(bookingReminders)
    .set({ state: "failed", errorCode: "interrupted", updatedAt: new Date().toISOString() })
    .where(
      and(
        eq(bookingReminders.organizationId, organizationId),
        eq(bookingReminders.state, "sending"),
      ),
    );
}

// ---------------------------------------------------------------------------------------------
// Sending.

/** Sends what is due at `at` (a page of it); answers how many rows it took. */
async function sendDue(deps: StoreDeps, organizationId: string, at: Date) {
  const due = await deps.orgDb
    .select()
    .from(bookingReminders)
    .where(
      and(
        eq(bookingReminders.organizationId, organizationId),
        eq(bookingReminders.state, "pending"),
        lte(bookingReminders.dueAt, +at),
      ),
    )
    .orderBy(asc(bookingReminders.dueAt))
    .limit(A_RUN);
  if (due.length === 0) return 0;
  const template = await reminderTemplate(deps, organizationId);
  if (!template) {
    await settle(deps, due, { state: "skipped", errorCode: "template_unusable" });
    return due.length;
  }
  const sender = await connectedSender(deps, organizationId);
  const settings = await readBookingSettings(deps.orgDb, organizationId);
  const timeZone = settings.hours?.timeZone ?? "UTC";
  for (const reminder of due) {
    await sendReminder(deps, reminder, { template, sender, timeZone });
  }
  return due.length;
}

/** The chosen template, checked again (Meta may have paused it); null: none usable. */
async function reminderTemplate(deps: StoreDeps, organizationId: string) {
  const chosen = await readReminderTemplate(deps.orgDb, organizationId);
  if (!chosen) return null;
  try {
    return await usableReminderTemplate(deps, organizationId, chosen);
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    console.warn("reminder template unusable", organizationId, chosen.name, error.message);
    return null;
  }
}

/** Reminders the job will not send (now or ever): a person's handed message is failed again. */
async function settle(
  deps: StoreDeps,
  rows: ReminderRow[],
  change: Partial<typeof bookingReminders.$inferInsert>,
) {
  await releaseHandedMessages(
    deps,
    rows.map((row) => row.messageId),
  );
  await deps.orgDb
    .update(bookingReminders)
    .set({ ...change, updatedAt: new Date().toISOString() })
    .where(
      inArray(
        bookingReminders.bookingId,
        rows.map((row) => row.bookingId),
      ),
    );
}

/** The template message of one booking's reminder: its body filled, its buttons' payloads. */
function reminderOutbound(template: Template, booking: BookingRow, timeZone: string): Outbound {
  const values = [booking.serviceName, spokenDate(booking.startsAt, timeZone)];
  const parameters = values.slice(0, template.parameters);
  return {
    type: "template",
    anyTime: true,
    senderType: "reminder",
    content: fillTemplate(template.row, parameters),
    part: {
      name: template.row.name,
      language: { code: template.row.language },
      components: [
        ...(parameters.length > 0
          ? [{ type: "body", parameters: parameters.map((text) => ({ type: "text", text })) }]
          : []),
        ...REMINDER_ACTIONS.map((action) => ({
          type: "button",
          sub_type: "quick_reply",
          index: String(template.buttons[action]),
          parameters: [{ type: "payload", payload: reminderPayload(booking.id, action) }],
        })),
      ],
    },
  };
}

interface RunContext {
  template: Template;
  sender: Awaited<ReturnType<typeof connectedSender>>;
  timeZone: string;
}

/** One due reminder: claimed, sent (or sent again), and how it went recorded. */
async function sendReminder(deps: StoreDeps, reminder: ReminderRow, run: RunContext) {
  const [booking] = await deps.orgDb
    .select()
    .from(bookings)
    .where(
      and(
        eq(bookings.id, reminder.bookingId),
        eq(bookings.organizationId, reminder.organizationId),
      ),
    );
  // A change the planning did not see (it always should) still never sends a stale reminder.
  if (!booking || booking.status !== "confirmed" || booking.startsAt !== reminder.startsAt) {
    await settle(deps, [reminder], { state: "cancelled" });
    return;
  }
  if (Date.parse(booking.startsAt) <= Date.now()) {
    await settle(deps, [reminder], { state: "skipped", errorCode: "past" });
    return;
  }
  const [claimed] = orgStatements(deps.orgDb, [
    {
      sql: `UPDATE booking_reminders SET state = 'sending', updated_at = ?3
        WHERE booking_id = ?1 AND state = 'pending' AND starts_at = ?2 RETURNING booking_id`,
      params: [reminder.bookingId, reminder.startsAt, new Date().toISOString()],
    },
  ]);
  if (claimed!.length === 0) return;
  const conversation = await findConversation(
    deps.orgDb,
    reminder.organizationId,
    reminder.conversationId,
  );
  const outbound = reminderOutbound(run.template, booking, run.timeZone);
  const earlier = reminder.messageId
    ? await deps.orgDb.query.messages.findFirst({ where: eq(messages.id, reminder.messageId) })
    : undefined;
  // Sent again as the same message, after the job's failed attempt or a person's "Reintentar".
  const message = earlier
    ? await resendHanded(deps, conversation, earlier, outbound)
    : await sendOutbound(deps, conversation, outbound, {
        sender: run.sender,
        callbackData: `booking_reminder:${booking.id}`,
      });
  const attempts = reminder.attempts + 1;
  const sentAgain = message.status === "failed" && attempts < REMINDER_ATTEMPTS;
  const change =
    message.status !== "failed"
      ? { state: "sent" as const, sentAt: new Date().toISOString(), errorCode: null }
      : sentAgain
        ? { state: "pending" as const, dueAt: Date.now() + retryDelay(attempts) }
        : { state: "failed" as const };
  await deps.orgDb
    .update(bookingReminders)
    .set({
      ...change,
      messageId: message.id,
      attempts,
      ...(message.status === "failed" && { errorCode: message.error_code }),
      updatedAt: new Date().toISOString(),
    })
    .where(
      and(
        eq(bookingReminders.bookingId, reminder.bookingId),
        eq(bookingReminders.state, "sending"),
      ),
    ); // The Agenda shows where the booking's reminder stands.
  await publishBooking(deps, booking);
}

// ---------------------------------------------------------------------------------------------
// The customer's presses.

/**
 * Acts on the presses the deliveries stored (a page of them; true when more are left). Each is
 * taken before it is acted on: a run that dies loses a press rather than acting twice.
 */
async function actOnPresses(deps: StoreDeps, organizationId: string) {
  const presses = await deps.orgDb
    .select()
    .from(bookingReminderAnswers)
    .where(eq(bookingReminderAnswers.organizationId, organizationId))
    .orderBy(asc(bookingReminderAnswers.createdAt), asc(bookingReminderAnswers.messageId))
    .limit(A_RUN);
  for (const press of presses) {
    const [taken] = await deps.orgDb
      .delete(bookingReminderAnswers)
      .where(eq(bookingReminderAnswers.messageId, press.messageId))
      .returning();
    if (taken) await actOnPress(deps, taken);
  }
  return presses.length === A_RUN;
}

type Press = typeof bookingReminderAnswers.$inferSelect;

/**
 * A press acts only on a booking of the conversation it came from, still confirmed: another
 * conversation's or organization's booking, an unknown or finished one, changes nothing (the
 * press is in the thread as the customer's message, and that is all).
 */
async function actOnPress(deps: StoreDeps, press: Press) {
  const { organizationId, conversationId } = press;
  const [booking] = await deps.orgDb
    .select()
    .from(bookings)
    .where(
      and(
        eq(bookings.id, press.bookingId),
        eq(bookings.organizationId, organizationId),
        eq(bookings.conversationId, conversationId),
      ),
    );
  if (!booking || booking.status !== "confirmed") return;
  const settings = await readBookingSettings(deps.orgDb, organizationId);
  const what = `${booking.serviceName} el ${spokenDate(booking.startsAt, settings.hours?.timeZone ?? "UTC")}`;
  const acts: Record<ReminderAction, () => Promise<void>> = {
    confirm: () => confirmByCustomer(deps, booking, what),
    cancel: async () => {
      await updateBooking(
        deps,
        { organizationId },
        { id: booking.id, changes: { status: "cancelled", reason: CANCELLED_BY_CUSTOMER } },
      );
    },
    reschedule: () => askToReschedule(deps, booking, what),
  };
  try {
    await acts[press.action]();
  } catch (error) {
    // The booking changed meanwhile (409), or the Flow could not go (422): said in the thread.
    if (!(error instanceof AppError) || error.status >= 500) throw error;
    await systemNote(
      deps,
      organizationId,
      conversationId,
      `El cliente pulsó un botón del recordatorio, pero no se pudo atender: ${error.message}`,
    );
  }
}

/** "Confirmar": the reminder keeps when, a line in the thread and the trail say so, once. */
async function confirmByCustomer(deps: StoreDeps, booking: BookingRow, what: string) {
  const [confirmed] = await deps.orgDb
    .update(bookingReminders)
    .set({ confirmedAt: new Date().toISOString(), updatedAt: new Date().toISOString() })
    .where(
      and(
        eq(bookingReminders.bookingId, booking.id),
        eq(bookingReminders.startsAt, booking.startsAt),
        inArray(bookingReminders.state, ["sent", "failed"]),
        isNull(bookingReminders.confirmedAt),
      ),
    )
    .returning();
  if (!confirmed) return;
  await recordAudit(deps.orgDb, {
    action: "booking.update",
    organizationId: booking.organizationId,
    target: booking.conversationId,
    metadata: { booking_id: booking.id, change: "customer_confirmed", start: booking.startsAt },
  });
  await systemNote(
    deps,
    booking.organizationId,
    booking.conversationId,
    `El cliente confirmó la cita: ${what}.`,
  );
  await publishBooking(deps, booking);
}

/**
 * "Cambiar": the booking Flow (or the list of free slots) for the booking's service goes to the
 * customer, and the thread says so; the booking stays until the team moves or cancels it.
 */
async function askToReschedule(deps: StoreDeps, booking: BookingRow, what: string) {
  await sendBookingFlow(
    deps,
    { organizationId: booking.organizationId, reminderOf: booking.id },
    { conversationId: booking.conversationId, serviceId: booking.serviceId ?? undefined },
  );
  await systemNote(
    deps,
    booking.organizationId,
    booking.conversationId,
    `El cliente pidió cambiar la cita de ${what}: se le enviaron los horarios para elegir otro. La cita sigue en pie hasta que se mueva o se cancele.`,
  );
}
