/**
 * When a booking's reminder is due (contract section 18, decisions 0120-0121): a day before a
 * confirmed booking's start, or, when that moment falls inside the organization's quiet hours,
 * the last minute before they begin. A booking made (or moved) less than a day ahead gets none;
 * one that stops being confirmed, or moves, takes its pending reminder with it. Called where a
 * booking changes (durable-objects/bookings/service.ts), after the change is committed.
 */
import { and, eq, gt } from "drizzle-orm";
import { orgStatements, type OrganizationDb } from "../db";
import { bookings, bookingSettings } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import { quietHoursStart, type QuietHours } from "../../contracts/organizations";
import { organizationQuietHours } from "../organizations/quiet-hours";
import { releaseHandedMessages } from "./retry";

type BookingRow = typeof bookings.$inferSelect;

const MINUTE_MS = 60_000;
/** How long before the start a reminder goes. */
export const REMINDER_LEAD_MS = 24 * 60 * MINUTE_MS;
/**
 * The store's alarm never points further ahead than this for a reminder (decision 0121): a
 * booking further out keeps its row here, and the job, woken at most this far ahead, asks again.
 */
export const SCHEDULE_AHEAD_MS = 20 * 24 * 60 * MINUTE_MS;

/** The organization's reminder template, or null: no template, no reminders. */
export async function readReminderTemplate(db: OrganizationDb, organizationId: string) {
  const [row] = await db
    .select({
      name: bookingSettings.reminderTemplateName,
      language: bookingSettings.reminderTemplateLanguage,
    })
    .from(bookingSettings)
    .where(eq(bookingSettings.organizationId, organizationId));
  return row?.name && row.language ? { name: row.name, language: row.language } : null;
}

/** A day before `start`; inside quiet hours, the last minute before they began. */
export function reminderDueAt(start: number, quiet: QuietHours | null) {
  const due = start - REMINDER_LEAD_MS;
  const began = quiet && quietHoursStart(new Date(due), quiet);
  return began ? began.getTime() - MINUTE_MS : due;
}

/** What the store's job is asked for: the reminder's time, or sooner (decision 0121). */
export const jobTimeFor = (dueAt: number, now: number) => Math.min(dueAt, now + SCHEDULE_AHEAD_MS);

/**
 * `?1` booking, `?2` organization, `?3` conversation, `?4` start, `?5` due, `?6` now. A booking
 * whose start changed (or that was cancelled and confirmed again) gets a new reminder; the same
 * start keeps the one it has, sent or not, so that nothing is sent twice.
 */
const UPSERT_REMINDER = `
  INSERT INTO booking_reminders (booking_id, organization_id, conversation_id, starts_at, due_at,
    state, attempts, created_at, updated_at)
  VALUES (?1, ?2, ?3, ?4, ?5, 'pending', 0, ?6, ?6)
  ON CONFLICT (booking_id) DO UPDATE SET
    conversation_id = excluded.conversation_id, starts_at = excluded.starts_at,
    due_at = excluded.due_at, state = 'pending', message_id = NULL, error_code = NULL,
    attempts = 0, sent_at = NULL, confirmed_at = NULL, updated_at = excluded.updated_at
  WHERE booking_reminders.starts_at != excluded.starts_at
    OR booking_reminders.state = 'cancelled'`;

/**
 * A pending reminder of the booking (or every one of the organization's) is not sent; one a
 * person had handed back to the job shows its message failed again.
 */
async function cancelPending(deps: StoreDeps, organizationId: string, bookingId?: string) {
  const [cancelled] = orgStatements(deps.orgDb, [
    {
      sql: `UPDATE booking_reminders SET state = 'cancelled', updated_at = ?3
        WHERE organization_id = ?1 AND state = 'pending' AND (?2 IS NULL OR booking_id = ?2)
        RETURNING message_id`,
      params: [organizationId, bookingId ?? null, new Date().toISOString()],
    },
  ]);
  await releaseHandedMessages(
    deps,
    cancelled!.map((row) => row.message_id as string | null),
  );
}

/** The booking's reminder as its change leaves it: planned, moved, or no longer sent. */
export async function planReminder(deps: StoreDeps, booking: BookingRow) {
  const now = Date.now();
  const start = Date.parse(booking.startsAt);
  if (booking.status !== "confirmed" || start - now < REMINDER_LEAD_MS) {
    await cancelPending(deps, booking.organizationId, booking.id);
    return;
  }
  if (!(await readReminderTemplate(deps.orgDb, booking.organizationId))) return;
  const quiet = await organizationQuietHours(deps);
  await plan(deps, [booking], quiet, now);
}

async function plan(deps: StoreDeps, rows: BookingRow[], quiet: QuietHours | null, now: number) {
  if (rows.length === 0) return;
  const stamp = new Date(now).toISOString();
  // A moment quiet hours moved before now goes at once (the job waits out quiet hours itself).
  const dues = rows.map((row) => Math.max(reminderDueAt(Date.parse(row.startsAt), quiet), now));
  orgStatements(
    deps.orgDb,
    rows.map((row, i) => ({
      sql: UPSERT_REMINDER,
      params: [row.id, row.organizationId, row.conversationId, row.startsAt, dues[i]!, stamp],
    })),
  );
  await deps.schedule("booking_reminders", jobTimeFor(Math.min(...dues), now));
}

/**
 * The organization chose a template (every confirmed booking still more than a day ahead gets
 * its reminder) or took it away (no pending reminder is sent).
 */
export async function replanReminders(deps: StoreDeps, organizationId: string, enabled: boolean) {
  if (!enabled) {
    await cancelPending(deps, organizationId);
    return;
  }
  const now = Date.now();
  const ahead = await deps.orgDb
    .select()
    .from(bookings)
    .where(
      and(
        eq(bookings.organizationId, organizationId),
        eq(bookings.status, "confirmed"),
        gt(bookings.startsAt, new Date(now + REMINDER_LEAD_MS).toISOString()),
      ),
    );
  const quiet = await organizationQuietHours(deps);
  await plan(deps, ahead, quiet, now);
}
