/**
 * Bookings (contract section 18, decision 0078): made, moved, cancelled and marked by members,
 * held while a payment is awaited and released by the store's `booking_holds` job. A slot is
 * checked and taken in one transaction of the organization's store, so two live bookings of one
 * calendar never overlap whatever races; the loser hears `slot_taken` with the nearest slots.
 * Every change is audited, told to the consoles (`booking_update`) and written in the thread.
 */
import { and, asc, count, eq, gte, inArray, lt, lte, ne } from "drizzle-orm";
import { recordAudit } from "../audit/service";
import { bookingChanged } from "../integrations/google/events";
import type { OrganizationDb } from "../db";
import { findConversation } from "../conversations/find";
import type { ConversationRow } from "../conversations/mappers";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError, conflict, fieldError, notFound } from "../../worker/http/errors";
import { moveToStage, recordLead } from "../sales/service";
import { systemNote } from "../team-inbox/notes-service";
import {
  HOLD_MINUTES,
  PAYMENT_EXPIRED,
  type Booking,
  type BookingInput,
  type BookingUpdate,
  type bookingListQuery,
} from "../../contracts/bookings";
import type { z } from "zod/mini";
import {
  OWN_CALENDAR,
  busyOf,
  calendarsOf,
  earliestStart,
  busyDuring,
  nearestSlots,
} from "./availability";
import { openIntervals } from "./hours";
import { bookingReminders, bookings } from "../schema";
import { findService, type ServiceRow } from "./services";
import { readBookingSettings, type BookingSettings } from "./settings";
import { zonedFormat } from "../../contracts/zoned-time";
import { planReminder } from "../reminders/planning";

type BookingRow = typeof bookings.$inferSelect;

/** Who books: a member, or the customer through the booking Flow or its list (no user, no ip). */
export type Booker = Pick<Member, "organizationId"> & Partial<Pick<Member, "userId" | "ip">>;
/** The store's SQLite as drizzle reaches it there: every statement answers at once. */
/** The store's database inside one of its transactions. */
type StoreDb = Parameters<Parameters<OrganizationDb["transaction"]>[0]>[0];

const MINUTE_MS = 60_000;

export const bookingNotFound = () => notFound("Cita no encontrada.");

/**
 * The conversation's AI agent acting on its own conversation (decision 0109): it books only
 * there and sees, moves and cancels only that conversation's bookings.
 */
export interface AgentActor {
  organizationId: string;
  agentId: string;
  conversationId: string;
}
/**
 * Who changes a booking: a member through the API, the customer through the booking Flow or its
 * list (a `Booker` without a user), or the conversation's AI agent.
 */
export type BookingActor = Booker | AgentActor;
export const isAgent = (actor: BookingActor | null): actor is AgentActor =>
  actor !== null && "agentId" in actor;

/**
 * Whose message one sent for `actor` is: a member's own (`agent`), or the AI's, as its replies
 * are (`bot`, no user). `userId` is also the author of what the message brings (a token, a link).
 */
export const authorOf = (actor: Member | AgentActor) =>
  isAgent(actor)
    ? { senderType: "bot" as const, userId: null }
    : { senderType: "agent" as const, userId: actor.userId };

type ReminderRow = typeof bookingReminders.$inferSelect;

/** A booking as the API shows it, with its reminder when it has one for its start. */
export const toBooking = (row: BookingRow, reminder: ReminderRow | null = null): Booking => ({
  id: row.id,
  service_id: row.serviceId,
  service_name: row.serviceName,
  conversation_id: row.conversationId,
  staff_user_id: row.staffUserId,
  start: row.startsAt,
  end: row.endsAt,
  status: row.status,
  expires_at: row.status === "pending_payment" ? row.expiresAt : null,
  note: row.note,
  reason: row.reason,
  created_by: row.createdBy,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
  reminder:
    reminder && reminder.startsAt === row.startsAt && reminder.state !== "cancelled"
      ? {
          state: reminder.state,
          due_at: new Date(reminder.dueAt).toISOString(),
          sent_at: reminder.sentAt,
          confirmed_at: reminder.confirmedAt,
        }
      : null,
});

/** Bookings with their reminders, read in one query. */
export async function withReminders(db: OrganizationDb, rows: BookingRow[]) {
  const reminders =
    rows.length === 0
      ? []
      : await db
          .select()
          .from(bookingReminders)
          .where(
            inArray(
              bookingReminders.bookingId,
              rows.map((row) => row.id),
            ),
          );
  const byBooking = new Map(reminders.map((reminder) => [reminder.bookingId, reminder]));
  return rows.map((row) => toBooking(row, byBooking.get(row.id)));
}

/** One booking with its reminder. */
export const bookingOut = async (db: OrganizationDb, row: BookingRow) =>
  (await withReminders(db, [row]))[0]!;

/** Tells the consoles how a booking is now (its reminder included). */
export async function publishBooking(deps: StoreDeps, row: BookingRow) {
  await deps.publish({
    type: "booking_update",
    data: { booking: await bookingOut(deps.orgDb, row) },
  });
}

/**
 * Runs `work` as one transaction of the organization's store. Its SQLite answers synchronously,
 * so nothing else the store serves runs between the check of a slot and the write it allows.
 */
function inOneTransaction<T>(db: OrganizationDb, work: (tx: StoreDb) => T): T {
  return db.transaction((tx) => work(tx));
}

/** Whether a calendar has a live booking (other than `except`) in the interval. */
function calendarTaken(
  tx: StoreDb,
  organizationId: string,
  calendar: string,
  needed: { start: number; end: number },
  now: number,
  except?: string,
) {
  const taken = tx
    .select({ id: bookings.id })
    .from(bookings)
    .where(
      and(
        eq(bookings.organizationId, organizationId),
        eq(bookings.calendar, calendar),
        busyDuring(needed, now),
        except ? ne(bookings.id, except) : undefined,
      ),
    )
    .limit(1)
    .get();
  return taken !== undefined;
}

/**
 * A start the organization's data allows: the service's duration inside one opening interval,
 * no earlier than the notice. (Whether the calendar is free is the transaction's to say.)
 */
function checkStart(service: ServiceRow, settings: BookingSettings, start: number, now: number) {
  if (!settings.hours) {
    throw new AppError(
      422,
      "no_business_hours",
      "Configura el horario de atención (business_hours) antes de reservar citas.",
    );
  }
  const { end } = busyOf(service, start);
  const inside = openIntervals(settings.hours, start, end).some(
    (open) => open.start <= start && end <= open.end,
  );
  if (!inside) throw fieldError("start", "Ese horario está fuera del horario de atención");
  if (start < earliestStart(settings, now)) {
    throw fieldError(
      "start",
      `Las citas se reservan con al menos ${settings.minNoticeMinutes} minutos de antelación`,
    );
  }
}

/** 409 `slot_taken`, with the free slots nearest to the one asked for. */
async function slotTaken(
  deps: StoreDeps,
  organizationId: string,
  service: ServiceRow,
  settings: BookingSettings,
  { start, staffUserId }: { start: number; staffUserId?: string | null },
) {
  const slots = await nearestSlots(deps.orgDb, organizationId, service, settings, {
    start,
    staffUserId,
    now: Date.now(),
  });
  return new AppError(
    409,
    "slot_taken",
    "Ese horario ya está ocupado. Elige otro de los huecos libres más cercanos.",
    undefined,
    undefined,
    { slots },
  );
}

// ---------------------------------------------------------------------------------------------
// What every change does: the trail, the consoles, the thread.

/** "3 de diciembre a las 10:00", in the organization's time zone. */
export function spokenDate(iso: string, timeZone: string) {
  const parts = zonedFormat("es-ES", {
    timeZone,
    day: "numeric",
    month: "long",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(new Date(iso));
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)!.value;
  return `${part("day")} de ${part("month")} a las ${part("hour")}:${part("minute")}`;
}

/** The thread's line for a booking's change, as people read it. */
function threadLine(booking: BookingRow, change: BookingChange, timeZone: string, byAi: boolean) {
  const when = spokenDate(booking.startsAt, timeZone);
  const what = `${booking.serviceName} el ${when}`;
  const because = booking.reason ? ` (${booking.reason})` : "";
  if (byAi) {
    // The AI's own acts say so: the team reads what it did in the customer's name.
    switch (change) {
      case "created":
        return booking.status === "pending_payment"
          ? `La IA reservó ${what}, pendiente de pago.`
          : `La IA reservó ${what}.`;
      case "moved":
        return `La IA movió la cita de ${booking.serviceName} al ${when}.`;
      case "cancelled":
        return `La IA canceló la cita de ${booking.serviceName} del ${when}${because}.`;
    }
  }
  switch (change) {
    case "created":
      return booking.status === "pending_payment"
        ? `Cita reservada, pendiente de pago: ${what}.`
        : `Cita reservada: ${what}.`;
    case "moved":
      return `Cita movida: ${what}.`;
    case "expired":
      return `Cita cancelada: ${what}. No se recibió el pago a tiempo.`;
    case "cancelled":
      return `Cita cancelada: ${what}${because}.`;
    case "no_show":
      return `No se presentó a la cita: ${what}${because}.`;
    case "completed":
      return `Cita completada: ${what}.`;
    case "paid":
      return `Cita confirmada con el pago: ${what}.`;
  }
}

type BookingChange =
  "created" | "moved" | "expired" | "cancelled" | "no_show" | "completed" | "paid";

/** After a booking's change is committed: the audit trail, the thread, the consoles, the lead. */
async function announce(
  deps: StoreDeps,
  booking: BookingRow,
  change: BookingChange,
  { actor, timeZone }: { actor: BookingActor | null; timeZone: string },
) {
  const { organizationId } = booking;
  const byAi = isAgent(actor);
  const person = actor && !isAgent(actor) ? actor : null;
  await recordAudit(deps.orgDb, {
    action: change === "created" ? "booking.create" : "booking.update",
    organizationId,
    userId: person?.userId ?? null,
    target: booking.conversationId,
    metadata: {
      booking_id: booking.id,
      change,
      status: booking.status,
      start: booking.startsAt,
      ...(booking.reason && { reason: booking.reason }),
      ...(byAi && { agent_id: actor.agentId }),
    },
    ip: person?.ip ?? null,
  });
  await systemNote(
    deps,
    organizationId,
    booking.conversationId,
    threadLine(booking, change, timeZone, byAi),
  );
  // Its Google Calendar event is owed, written by the store's job (decision 0127).
  await bookingChanged(deps, booking);
  await planReminder(deps, booking);
  await publishBooking(deps, booking);
  if ((change === "created" || change === "paid") && booking.status === "confirmed") {
    const conversation = await findConversation(deps.orgDb, organizationId, booking.conversationId);
    await becomesLead(deps, conversation);
  }
}

/**
 * A confirmed booking makes the conversation a lead (contract sections 10 and 18): a new one
 * moves to Interesado, and its one lead conversion (`LeadSubmitted` to Meta) is recorded.
 */
async function becomesLead(deps: StoreDeps, conversation: ConversationRow) {
  const moved =
    conversation.stage === "new" ? await moveToStage(deps, conversation, "lead") : conversation;
  await recordLead(deps, moved, { source: "booking" });
}

// ---------------------------------------------------------------------------------------------
// Reading.

const scoped = (organizationId: string, id: string) =>
  and(eq(bookings.id, id), eq(bookings.organizationId, organizationId));

/** A booking the actor may change: any of the organization's, or the agent's conversation's. */
const reachable = (actor: BookingActor, id: string) =>
  and(
    scoped(actor.organizationId, id),
    isAgent(actor) ? eq(bookings.conversationId, actor.conversationId) : undefined,
  );

/** `GET /bookings`: by start, earliest first (the agenda's order), a page at a time. */
export async function listBookings(
  { orgDb }: StoreDeps,
  member: Member,
  query: z.output<typeof bookingListQuery>,
) {
  const where = and(
    eq(bookings.organizationId, member.organizationId),
    query.from ? gte(bookings.startsAt, query.from) : undefined,
    query.to ? lt(bookings.startsAt, query.to) : undefined,
    query.status ? eq(bookings.status, query.status) : undefined,
    query.service_id ? eq(bookings.serviceId, query.service_id) : undefined,
    query.conversation_id ? eq(bookings.conversationId, query.conversation_id) : undefined,
  );
  const [rows, [total]] = await Promise.all([
    orgDb
      .select()
      .from(bookings)
      .where(where)
      .orderBy(asc(bookings.startsAt), asc(bookings.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    orgDb.select({ n: count() }).from(bookings).where(where),
  ]);
  return {
    bookings: await withReminders(orgDb, rows),
    total: total?.n ?? 0,
    page: query.page,
    limit: query.limit,
  };
}

// ---------------------------------------------------------------------------------------------
// Booking.

interface BookingRequest {
  booking: BookingInput;
  idempotencyKey: string | null;
}

/** What a booking request asked, to tell a retry from another request under the same key. */
async function requestHash(input: BookingInput) {
  const asked = [
    input.service_id,
    input.start,
    input.conversation_id,
    input.staff_user_id ?? "",
    input.note ?? "",
  ];
  const digest = await crypto.subtle.digest(
    "SHA-256",
    new TextEncoder().encode(JSON.stringify(asked)),
  );
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The booking an `Idempotency-Key` already made, if any. */
const madeWith = (tx: StoreDb, organizationId: string, idempotencyKey: string | null) =>
  idempotencyKey === null
    ? undefined
    : tx
        .select()
        .from(bookings)
        .where(
          and(
            eq(bookings.organizationId, organizationId),
            eq(bookings.idempotencyKey, idempotencyKey),
          ),
        )
        .get();

/** A retry answers what its key made; the key with another body is refused (Stripe's rule). */
function sameRequest(db: OrganizationDb, earlier: BookingRow, hash: string | null) {
  if (earlier.requestHash !== hash) {
    throw new AppError(
      422,
      "idempotency_key_reused",
      "Esta Idempotency-Key ya se usó para otra cita: usa una clave nueva.",
    );
  }
  return bookingOut(db, earlier);
}

/**
 * `POST /bookings`: checked against the organization's own data (its conversation, service,
 * staff, hours and notice), then taken in one transaction: the first free calendar of the
 * service gets it. A service paid ahead is held as `pending_payment` for `HOLD_MINUTES` (the
 * payment itself is a later slice); one without payment is confirmed at once. A retry with the
 * same `Idempotency-Key` and body answers the same booking and changes nothing.
 */
export async function createBooking(
  deps: StoreDeps,
  actor: BookingActor,
  { booking: input, idempotencyKey }: BookingRequest,
): Promise<Booking> {
  const { organizationId } = actor;
  // The agent books only in its own conversation, whatever it was asked.
  if (isAgent(actor) && input.conversation_id !== actor.conversationId) throw bookingNotFound();
  const now = Date.now();
  const hash = idempotencyKey ? await requestHash(input) : null;
  // A retry is answered before anything is checked again (its slot may be too near by now).
  const earlier = inOneTransaction(deps.orgDb, (tx) =>
    madeWith(tx, organizationId, idempotencyKey),
  );
  if (earlier) return sameRequest(deps.orgDb, earlier, hash);
  const conversation = await findConversation(deps.orgDb, organizationId, input.conversation_id);
  const service = await findService(deps.orgDb, organizationId, input.service_id);
  if (!service.active) throw fieldError("service_id", "Este servicio no está activo");
  if (input.staff_user_id && !service.staffUserIds.includes(input.staff_user_id)) {
    throw fieldError("staff_user_id", "Esa persona no atiende este servicio");
  }
  const settings = await readBookingSettings(deps.orgDb, organizationId);
  const start = Date.parse(input.start);
  checkStart(service, settings, start, now);

  const taking = busyOf(service, start);
  const paidAhead = service.payment !== "none";
  const stamp = new Date(now).toISOString();
  const outcome = inOneTransaction(deps.orgDb, (tx) => {
    // A retry racing its first attempt: the key is checked again where it is written.
    const earlier = madeWith(tx, organizationId, idempotencyKey);
    if (earlier) return { earlier, row: null };
    const calendar = calendarsOf(service, input.staff_user_id).find(
      (name) => !calendarTaken(tx, organizationId, name, { start, end: taking.busyUntil }, now),
    );
    if (calendar === undefined) return null;
    const row = tx
      .insert(bookings)
      .values({
        organizationId,
        serviceId: service.id,
        serviceName: service.name,
        conversationId: conversation.id,
        staffUserId: calendar === OWN_CALENDAR ? null : calendar,
        calendar,
        startsAt: new Date(start).toISOString(),
        endsAt: new Date(taking.end).toISOString(),
        busyUntil: new Date(taking.busyUntil).toISOString(),
        status: paidAhead ? "pending_payment" : "confirmed",
        expiresAt: paidAhead ? new Date(now + HOLD_MINUTES * MINUTE_MS).toISOString() : null,
        note: input.note,
        idempotencyKey,
        requestHash: hash,
        createdBy: isAgent(actor) ? null : (actor.userId ?? null),
        createdAt: stamp,
        updatedAt: stamp,
      })
      .returning()
      .get();
    return { row: row! };
  });
  if (!outcome) {
    throw await slotTaken(deps, organizationId, service, settings, {
      start,
      staffUserId: input.staff_user_id,
    });
  }
  if (outcome.earlier) return sameRequest(deps.orgDb, outcome.earlier, hash);
  const { row } = outcome;
  if (row.expiresAt) {
    await deps.schedule("booking_holds", Date.parse(row.expiresAt));
  }
  await announce(deps, row, "created", { actor, timeZone: settings.hours!.timeZone });
  return bookingOut(deps.orgDb, row);
}

// ---------------------------------------------------------------------------------------------
// Changing.

/** Where each status may go by a person's hand (a finished booking stays as it is). */
const ALLOWED_FROM: Record<NonNullable<BookingUpdate["status"]>, Booking["status"][]> = {
  cancelled: ["pending_payment", "confirmed"],
  no_show: ["confirmed"],
  completed: ["confirmed"],
};

/**
 * `PATCH /bookings/{id}`: a new start (checked and taken as a new booking is, in one
 * transaction, the booking's own time not counting against it) or a new status.
 */
export async function updateBooking(
  deps: StoreDeps,
  actor: BookingActor,
  { id, changes }: { id: string; changes: BookingUpdate },
) {
  const { organizationId } = actor;
  const now = Date.now();
  const [current] = await deps.orgDb.select().from(bookings).where(reachable(actor, id));
  if (!current) throw bookingNotFound();
  const settings = await readBookingSettings(deps.orgDb, organizationId);
  const timeZone = settings.hours?.timeZone ?? "UTC";
  const live = current.status === "confirmed" || current.status === "pending_payment";
  const stamp = new Date(now).toISOString();

  if (changes.status) {
    if (!ALLOWED_FROM[changes.status].includes(current.status)) {
      throw conflict(`Una cita en estado ${current.status} no puede pasar a ${changes.status}.`);
    }
    const [row] = await deps.orgDb
      .update(bookings)
      .set({ status: changes.status, reason: changes.reason || null, updatedAt: stamp })
      .where(and(scoped(organizationId, id), eq(bookings.status, current.status)))
      .returning();
    if (!row) throw conflict("La cita cambió mientras tanto: vuelve a cargarla.");
    await announce(deps, row, changes.status, { actor, timeZone });
    return bookingOut(deps.orgDb, row);
  }

  if (!live) throw conflict("Solo se puede mover una cita pendiente o confirmada.");
  if (!current.serviceId)
    throw conflict("El servicio de esta cita ya no existe: resérvala de nuevo.");
  const service = await findService(deps.orgDb, organizationId, current.serviceId);
  const start = Date.parse(changes.start!);
  checkStart(service, settings, start, now);
  const taking = busyOf(service, start);
  // Moved within its calendar; a service with staff may move to any of them free.
  const candidates = [
    current.calendar,
    ...calendarsOf(service).filter((c) => c !== current.calendar),
  ];
  const row = inOneTransaction(deps.orgDb, (tx) => {
    const calendar = candidates.find(
      (name) => !calendarTaken(tx, organizationId, name, { start, end: taking.busyUntil }, now, id),
    );
    if (calendar === undefined) return null;
    return tx
      .update(bookings)
      .set({
        calendar,
        staffUserId: calendar === OWN_CALENDAR ? null : calendar,
        startsAt: new Date(start).toISOString(),
        endsAt: new Date(taking.end).toISOString(),
        busyUntil: new Date(taking.busyUntil).toISOString(),
        reason: changes.reason || current.reason,
        updatedAt: stamp,
      })
      .where(and(scoped(organizationId, id), eq(bookings.status, current.status)))
      .returning()
      .get();
  });
  if (!row) {
    throw await slotTaken(deps, organizationId, service, settings, {
      start,
      staffUserId: current.staffUserId,
    });
  }
  await announce(deps, row, "moved", { actor, timeZone });
  return bookingOut(deps.orgDb, row);
}

// ---------------------------------------------------------------------------------------------
// Paid.

/**
 * A booking's payment arrived (decision 0093): a held booking is confirmed; one whose hold
 * ended (`payment_expired`) is confirmed again if its slot is still free and still to come.
 * Answers what became of it: `confirmed` now, `already` (a repeated event), `lost` (its slot
 * went to someone else, it passed, or a person cancelled it), or null when it does not exist.
 */
export async function confirmPaidBooking(
  deps: StoreDeps,
  organizationId: string,
  id: string,
): Promise<"confirmed" | "already" | "lost" | null> {
  const now = Date.now();
  const stamp = new Date(now).toISOString();
  const outcome = inOneTransaction(deps.orgDb, (tx) => {
    const current = tx.select().from(bookings).where(scoped(organizationId, id)).get();
    if (!current) return null;
    if (current.status !== "pending_payment") {
      const expired = current.status === "cancelled" && current.reason === PAYMENT_EXPIRED;
      if (!expired) return current.status === "cancelled" ? "lost" : "already";
      const free =
        Date.parse(current.startsAt) > now &&
        !calendarTaken(
          tx,
          organizationId,
          current.calendar,
          { start: Date.parse(current.startsAt), end: Date.parse(current.busyUntil) },
          now,
          id,
        );
      if (!free) return "lost";
    }
    return tx
      .update(bookings)
      .set({ status: "confirmed", reason: null, expiresAt: null, updatedAt: stamp })
      .where(and(scoped(organizationId, id), eq(bookings.status, current.status)))
      .returning()
      .get()!;
  });
  if (outcome === null || typeof outcome === "string") return outcome;
  const settings = await readBookingSettings(deps.orgDb, organizationId);
  await announce(deps, outcome, "paid", {
    actor: null,
    timeZone: settings.hours?.timeZone ?? "UTC",
  });
  return "confirmed";
}

/**
 * A link sent for a held booking keeps it held while the link can be paid (decision 0092): its
 * hold ends no sooner than `until`, and the consoles are told its new end.
 */
export async function holdUntil(deps: StoreDeps, organizationId: string, id: string, until: Date) {
  const [row] = await deps.orgDb
    .update(bookings)
    .set({ expiresAt: until.toISOString(), updatedAt: new Date().toISOString() })
    .where(
      and(
        scoped(organizationId, id),
        eq(bookings.status, "pending_payment"),
        lt(bookings.expiresAt, until.toISOString()),
      ),
    )
    .returning();
  if (!row) return;
  await deps.schedule("booking_holds", until.getTime());
  await publishBooking(deps, row);
}

// ---------------------------------------------------------------------------------------------
// The store's `booking_holds` job.

/** Holds released a run, at most (the job runs again at once while more are due). */
const HOLDS_A_RUN = 50;

/**
 * Cancels the `pending_payment` bookings whose hold has ended (`payment_expired`), freeing their
 * slots; answers when the next hold ends (now again while more are due; null: none held).
 */
export async function releaseExpiredHolds(deps: StoreDeps, organizationId: string, at: Date) {
  const now = at.toISOString();
  const pending = and(
    eq(bookings.organizationId, organizationId),
    eq(bookings.status, "pending_payment"),
  );
  const due = await deps.orgDb
    .select({ id: bookings.id })
    .from(bookings)
    .where(and(pending, lte(bookings.expiresAt, now)))
    .orderBy(asc(bookings.expiresAt))
    .limit(HOLDS_A_RUN);
  const expired =
    due.length === 0
      ? []
      : await deps.orgDb
          .update(bookings)
          .set({ status: "cancelled", reason: PAYMENT_EXPIRED, updatedAt: now })
          .where(
            and(
              pending,
              inArray(
                bookings.id,
                due.map((row) => row.id),
              ),
            ),
          )
          .returning();
  if (expired.length > 0) {
    const settings = await readBookingSettings(deps.orgDb, organizationId);
    const timeZone = settings.hours?.timeZone ?? "UTC";
    for (const row of expired) await announce(deps, row, "expired", { actor: null, timeZone });
  }
  if (due.length === HOLDS_A_RUN) return Date.now();
  const [next] = await deps.orgDb
    .select({ expiresAt: bookings.expiresAt })
    .from(bookings)
    .where(pending)
    .orderBy(asc(bookings.expiresAt))
    .limit(1);
  return next?.expiresAt ? Date.parse(next.expiresAt) : null;
}
