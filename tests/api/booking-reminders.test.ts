// Booking reminders (contract sections 17 and 18, decisions 0120-0123): the organization's
// UTILITY template with the three quick-reply buttons; a reminder a day before a confirmed
// booking, earlier for quiet hours, none for one made less than a day ahead; it follows a
// cancelled or moved booking; sent once however often the job runs, a failure sent again as the
// same message; each button acts on that booking only from its own conversation, and "Cancelar
// cita" never opts anyone out; a second organization never sees or acts on the first one's.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import type { Booking } from "../../contracts/bookings";
import type { ReminderSettings } from "../../contracts/reminders";
import { GRAPH_VERSION, UNLISTED_TEMPLATES } from "../fakes/graph-server.mjs";
import { delivery, inboundMessage, listReply } from "../fakes/whatsapp-payloads.mjs";
import { api, answer } from "../support/api";
import {
  ALWAYS,
  book,
  bookingOf,
  bookingOrganization,
  createService,
  setHours,
  type Owner,
} from "../support/bookings";
import { connectWhatsapp } from "../support/db";
import { addMember, createAgent } from "../support/factories";
import { setQuietHours } from "../support/marketing";
import { orgFirst, orgSql, orgSqlBatch } from "../support/org-data";
import { keysUnder, workOf } from "../support/scheduled-work";
import { customerPhone, deliver, failNext, graphRequests } from "../support/webhooks";

type Row = Record<string, any>;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;
const REMINDER = { name: "recordatorio_cita", language: "es" };

/** A whole hour `days` and `hours` from now (UTC), as a booking's start. */
const startIn = (days: number, hours = 0) =>
  new Date(Math.ceil(Date.now() / HOUR_MS) * HOUR_MS + days * DAY_MS + hours * HOUR_MS);

/** A member as the API client needs one: their session's token. */
type Caller = Pick<Owner, "token">;

const putTemplate = (owner: Caller, template: { name: string; language: string } | null) =>
  answer(api(owner.token)["booking-reminders"].$put({ json: { template } }));

async function settingsOf(owner: Caller) {
  const res = await answer(api(owner.token)["booking-reminders"].$get());
  expect(res.status).toBe(200);
  return (res.body as { data: ReminderSettings }).data;
}

/** Puts the fake Meta's templates, the reminder's among them, in the organization's list. */
async function keepTemplates(orgId: string) {
  const rows = [
    ...UNLISTED_TEMPLATES,
    {
      name: "seguimiento_cita",
      language: "es",
      status: "APPROVED",
      category: "UTILITY",
      components: [{ type: "BODY", text: "Hola {{1}}, ¿te confirmamos la cita?" }],
    },
    {
      name: "bienvenida",
      language: "es",
      status: "APPROVED",
      category: "MARKETING",
      components: [{ type: "BODY", text: "¡Gracias por escribirnos!" }],
    },
    {
      name: "promo_rechazada",
      language: "es",
      status: "REJECTED",
      category: "MARKETING",
      components: [{ type: "BODY", text: "Oferta" }],
    },
  ];
  await orgSqlBatch(
    orgId,
    rows.map((t) => ({
      sql: `INSERT INTO whatsapp_templates (id, organization_id, meta_template_id, name, language,
              category, status, components, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      params: [
        crypto.randomUUID(),
        orgId,
        `tpl-${t.name}`,
        t.name,
        t.language,
        t.category,
        t.status,
        JSON.stringify(t.components),
        new Date().toISOString(),
      ],
    })),
  );
}

/**
 * An organization open at every hour (UTC), without quiet hours, with a connected number, its
 * templates, a service, the reminder's template chosen, and a customer who wrote.
 */
async function reminderOrganization({ chosen = true, withAgent = false } = {}) {
  const { owner, orgId, service, store } = await bookingOrganization();
  await setHours(owner, ALWAYS, { timeZone: "UTC", minNotice: 5 });
  await setQuietHours(owner, "00:00", "00:00", "UTC");
  const agent = withAgent ? await createAgent(owner, { name: "Sofía" }) : null;
  const { phoneNumberId } = await connectWhatsapp(orgId, {
    phoneNumberId: `pn-${crypto.randomUUID().slice(0, 8)}`,
    ...(agent && { defaultAgentId: agent.id }),
  });
  await keepTemplates(orgId);
  if (chosen) expect((await putTemplate(owner, REMINDER)).status).toBe(200);
  const org = { owner, orgId, service, store, phoneNumberId };
  return { ...org, customer: await customerOf(org) };
}
type Org = Awaited<ReturnType<typeof reminderOrganization>>;

/** A customer who wrote to the organization's number, and their conversation. */
async function customerOf(org: { orgId: string; phoneNumberId: string }) {
  const phone = customerPhone();
  await deliver(delivery(inboundMessage({ phoneNumberId: org.phoneNumberId, from: phone })));
  const conversation = await vi.waitFor(async () => {
    const row = await orgFirst<Row>(
      org.orgId,
      "SELECT id FROM conversations WHERE phone_number = ?",
      phone,
    );
    expect(row).toBeDefined();
    return row!;
  });
  return { phone, conversationId: conversation.id as string };
}

async function bookAt(org: Org, start: Date, conversationId = org.customer.conversationId) {
  const res = await book(org.owner, {
    service_id: org.service.id,
    conversation_id: conversationId,
    start: start.toISOString(),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return bookingOf(res);
}

const reminderOf = async (org: Org, bookingId: string) =>
  (await orgFirst<Row>(
    org.orgId,
    "SELECT * FROM booking_reminders WHERE booking_id = ?",
    bookingId,
  )) ?? undefined;

/** Runs the job at once (its reminders made due first, when asked), and waits for it to end. */
async function runJob(org: Org, { makeDue = true } = {}) {
  if (makeDue) {
    await orgSqlBatch(org.orgId, [
      {
        sql: "UPDATE booking_reminders SET due_at = ? WHERE state = 'pending'",
        params: [Date.now() - 1],
      },
    ]);
  }
  await org.store.scheduleJob(org.orgId, "booking_reminders", Date.now());
  await runDurableObjectAlarm(org.store);
  await vi.waitFor(async () => {
    const job = await workOf(org.store, "job:booking_reminders");
    expect(job?.leaseUntil ?? null).toBeNull();
  });
}

/** The reminders the fake Meta was asked to send to this phone. */
async function remindersTo(phone: string) {
  return (await graphRequests("/messages")).filter(
    (r) => r.method === "POST" && r.body?.to === phone && r.body?.template?.name === REMINDER.name,
  );
}

/** A booking whose reminder's first send Meta refused: the job will try it again later. */
async function failedReminder(org: Org) {
  const booking = await bookAt(org, startIn(3));
  await failNext("graph", {
    path: `/${GRAPH_VERSION}/${org.phoneNumberId}/messages`,
    contains: REMINDER.name,
    status: 500,
    error: { message: "(#1) An unknown error occurred", code: 1 },
  });
  await runJob(org);
  const reminder = await reminderOf(org, booking.id);
  expect(reminder).toMatchObject({ state: "pending", attempts: 1 });
  return { booking, messageId: reminder!.message_id as string };
}

/**
 * The failed reminder's second attempt went out as its first message: the reminder sent on that
 * attempt, and the thread holding that one message, sent.
 */
async function expectSentAsTheSameMessage(org: Org, bookingId: string, messageId: string) {
  expect(await reminderOf(org, bookingId)).toMatchObject({
    state: "sent",
    attempts: 2,
    message_id: messageId,
  });
  const templates = await orgSql<Row>(
    org.orgId,
    "SELECT id, status FROM messages WHERE conversation_id = ? AND type = 'template'",
    org.customer.conversationId,
  );
  expect(templates).toEqual([{ id: messageId, status: "sent" }]);
}

/** The customer presses a reminder's button (a template's quick reply, as Meta delivers it). */
async function press(org: Org, phone: string, text: string, payload: string) {
  await deliver(
    delivery(
      inboundMessage({
        phoneNumberId: org.phoneNumberId,
        from: phone,
        type: "button",
        part: { text, payload },
      }),
    ),
  );
}

async function bookingNow(owner: Owner, id: string) {
  const res = await answer(api(owner.token).bookings.$get({ query: {} }));
  const list = (res.body as { data: { bookings: Booking[] } }).data.bookings;
  return list.find((b) => b.id === id);
}

const notesOf = (org: Org, conversationId = org.customer.conversationId) =>
  orgSql<Row>(
    org.orgId,
    "SELECT content FROM messages WHERE conversation_id = ? AND type = 'note' ORDER BY created_at",
    conversationId,
  ).then((rows) => rows.map((r) => r.content as string));

describe("the reminder's template", () => {
  it("is chosen by managers, read by every member, and refused unless it is an approved UTILITY one with the three buttons", async () => {
    const { owner, orgId } = await reminderOrganization({ chosen: false });
    expect(await settingsOf(owner)).toEqual({
      template: null,
      parameters: ["el servicio", "la fecha y la hora"],
      buttons: ["Confirmar", "Cambiar", "Cancelar cita"],
    });
    const refusals: [string, { name: string; language: string }, string][] = [
      ["no buttons", { name: "seguimiento_cita", language: "es" }, "template_buttons"],
      ["marketing", { name: "bienvenida", language: "es" }, "template_category"],
      ["rejected", { name: "promo_rechazada", language: "es" }, "template_not_approved"],
      ["unknown", { name: "no_existe", language: "es" }, "template_not_found"],
    ];
    for (const [what, template, code] of refusals) {
      const res = await putTemplate(owner, template);
      expect(res.status, what).toBe(422);
      expect((res.body as { error: string }).error, what).toBe(code);
    }
    expect((await settingsOf(owner)).template).toBeNull();
    const bad = await answer(
      api(owner.token)["booking-reminders"].$put({ json: { template: { name: "" } } as never }),
    );
    expect(bad.status).toBe(422);

    const agent = await addMember(orgId, "agent");
    expect((await putTemplate(agent, REMINDER)).status).toBe(403);
    expect((await putTemplate(owner, REMINDER)).status).toBe(200);
    expect((await settingsOf(agent)).template).toEqual(REMINDER);
    const audit = await orgSql<Row>(
      orgId,
      "SELECT metadata FROM audit_events WHERE action = 'booking.update'",
    );
    expect(audit.map((a) => JSON.parse(a.metadata).change)).toEqual(["reminder_template"]);
  });

  it("without one, no reminder is planned; once chosen, the bookings ahead get theirs", async () => {
    const org = await reminderOrganization({ chosen: false });
    const booking = await bookAt(org, startIn(3));
    expect(await reminderOf(org, booking.id)).toBeUndefined();
    expect((await putTemplate(org.owner, REMINDER)).status).toBe(200);
    expect(await reminderOf(org, booking.id)).toMatchObject({
      state: "pending",
      due_at: Date.parse(booking.start) - DAY_MS,
    });
    // Taken away: nothing pending is sent.
    expect((await putTemplate(org.owner, null)).status).toBe(200);
    expect((await reminderOf(org, booking.id))!.state).toBe("cancelled");
  });
});

describe("planning", () => {
  it("is a day before a confirmed booking, the store's job asked by then; none less than a day ahead", async () => {
    const org = await reminderOrganization();
    const start = startIn(3);
    const booking = await bookAt(org, start);
    const reminder = await reminderOf(org, booking.id);
    expect(reminder).toMatchObject({
      state: "pending",
      due_at: +start - DAY_MS,
      starts_at: booking.start,
      conversation_id: org.customer.conversationId,
    });
    const job = await workOf(org.store, "job:booking_reminders");
    expect(job!.dueAt).toBeLessThanOrEqual(+start - DAY_MS);

    const soon = await bookAt(org, startIn(0, 20));
    expect(await reminderOf(org, soon.id)).toBeUndefined();
  });

  it("falls before quiet hours when a day before is inside them", async () => {
    const org = await reminderOrganization();
    const start = startIn(3);
    const due = new Date(+start - DAY_MS);
    const hour = (h: number) => `${String((h + 24) % 24).padStart(2, "0")}:00`;
    // Quiet from an hour before the reminder's moment to two hours after it.
    await setQuietHours(org.owner, hour(due.getUTCHours() - 1), hour(due.getUTCHours() + 2), "UTC");
    const booking = await bookAt(org, start);
    expect((await reminderOf(org, booking.id))!.due_at).toBe(+due - HOUR_MS - MINUTE_MS);
  });

  it("follows its booking: cancelled with it, moved with it, gone when moved within a day", async () => {
    const org = await reminderOrganization();
    const first = await bookAt(org, startIn(3));
    const patch = (id: string, json: Record<string, unknown>) =>
      answer(api(org.owner.token).bookings[":id"].$patch({ param: { id }, json }));
    const moved = startIn(5, 2);
    expect((await patch(first.id, { start: moved.toISOString() })).status).toBe(200);
    expect(await reminderOf(org, first.id)).toMatchObject({
      state: "pending",
      due_at: +moved - DAY_MS,
      starts_at: moved.toISOString(),
    });
    expect((await patch(first.id, { start: startIn(0, 10).toISOString() })).status).toBe(200);
    expect((await reminderOf(org, first.id))!.state).toBe("cancelled");

    const second = await bookAt(org, startIn(4));
    expect((await patch(second.id, { status: "cancelled", reason: "Enfermo" })).status).toBe(200);
    expect((await reminderOf(org, second.id))!.state).toBe("cancelled");
    await runJob(org);
    expect(await remindersTo(org.customer.phone)).toEqual([]);
  });

  it("waits in the store for a booking more than 20 days ahead, the job asked no later than 20 days from now", async () => {
    const org = await reminderOrganization();
    const start = startIn(40);
    const booking = await bookAt(org, start);
    expect((await reminderOf(org, booking.id))!.due_at).toBe(+start - DAY_MS);
    const job = await workOf(org.store, "job:booking_reminders");
    expect(job!.dueAt).toBeLessThanOrEqual(Date.now() + 20 * DAY_MS);
    expect(job!.dueAt).toBeGreaterThan(Date.now() + 19 * DAY_MS);
  });
});

describe("sending", () => {
  it("sends the template with the booking's service, time and three buttons, once however often the job runs", async () => {
    const org = await reminderOrganization();
    const start = startIn(3);
    const booking = await bookAt(org, start);
    await runJob(org);
    await runJob(org);
    const sent = await remindersTo(org.customer.phone);
    expect(sent).toHaveLength(1);
    const { template } = sent[0]!.body;
    expect(template.components[0]).toEqual({
      type: "body",
      parameters: [
        { type: "text", text: "Limpieza dental" },
        { type: "text", text: expect.stringMatching(/ a las \d\d:00$/) },
      ],
    });
    expect(template.components.slice(1)).toEqual(
      ["confirm", "reschedule", "cancel"].map((action, index) => ({
        type: "button",
        sub_type: "quick_reply",
        index: String(index),
        parameters: [{ type: "payload", payload: `booking:${booking.id}:${action}` }],
      })),
    );
    expect(await reminderOf(org, booking.id)).toMatchObject({ state: "sent", attempts: 1 });
    const thread = await orgSql<Row>(
      org.orgId,
      "SELECT content, sender_type, status FROM messages WHERE conversation_id = ? AND type = 'template'",
      org.customer.conversationId,
    );
    expect(thread).toEqual([
      {
        content: expect.stringMatching(/^Te recordamos tu cita de Limpieza dental el /),
        sender_type: "reminder",
        status: "sent",
      },
    ]);
  });

  it("waits out quiet hours at the moment it is due", async () => {
    const org = await reminderOrganization();
    const booking = await bookAt(org, startIn(3));
    const hour = (h: number) => `${String((h + 24) % 24).padStart(2, "0")}:00`;
    const now = new Date().getUTCHours();
    await setQuietHours(org.owner, hour(now - 1), hour(now + 2), "UTC");
    await runJob(org);
    expect(await remindersTo(org.customer.phone)).toEqual([]);
    expect((await reminderOf(org, booking.id))!.state).toBe("pending");
    const quietEnd = Math.floor(Date.now() / HOUR_MS) * HOUR_MS + 2 * HOUR_MS;
    expect((await workOf(org.store, "job:booking_reminders"))!.dueAt).toBe(quietEnd);
  });

  it("sends a failed reminder again later as the same message of the thread", async () => {
    const org = await reminderOrganization();
    const { booking, messageId } = await failedReminder(org);
    expect((await reminderOf(org, booking.id))!.due_at).toBeGreaterThan(Date.now());
    const [message] = await orgSql<Row>(
      org.orgId,
      "SELECT status FROM messages WHERE id = ?",
      messageId,
    );
    expect(message!.status).toBe("failed");

    await runJob(org);
    await expectSentAsTheSameMessage(org, booking.id, messageId);
  });
});

describe("Reintentar on a failed reminder", () => {
  const retry = (org: Org, messageId: string) =>
    answer(
      api(org.owner.token).conversations[":id"].messages[":messageId"].retry.$post({
        param: { id: org.customer.conversationId, messageId },
      }),
    );

  const statusOf = async (org: Org, messageId: string) =>
    (await orgFirst<Row>(org.orgId, "SELECT status FROM messages WHERE id = ?", messageId))!.status;

  it("hands it to the job, which sends it at once as the same message, its buttons' payloads kept", async () => {
    const org = await reminderOrganization();
    const { booking, messageId } = await failedReminder(org);
    const before = (await remindersTo(org.customer.phone)).length;

    const retried = await retry(org, messageId);
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(retried.body).toMatchObject({ data: { id: messageId, status: "pending" } });
    // Sent (by the job the hand-off asked for now, or by this run) once, however they meet;
    // its planned later attempt would not be due yet.
    await runJob(org, { makeDue: false });
    const sent = await remindersTo(org.customer.phone);
    expect(sent).toHaveLength(before + 1);
    expect(sent.at(-1)!.body.template.components.slice(1)).toEqual(
      ["confirm", "reschedule", "cancel"].map((action, index) => ({
        type: "button",
        sub_type: "quick_reply",
        index: String(index),
        parameters: [{ type: "payload", payload: `booking:${booking.id}:${action}` }],
      })),
    );
    await expectSentAsTheSameMessage(org, booking.id, messageId);
  });

  it("is refused in quiet hours and for a booking that changed, and the message stays failed", async () => {
    const org = await reminderOrganization();
    const { booking, messageId } = await failedReminder(org);
    const hour = (h: number) => `${String((h + 24) % 24).padStart(2, "0")}:00`;
    const now = new Date().getUTCHours();
    await setQuietHours(org.owner, hour(now - 1), hour(now + 2), "UTC");
    const quiet = await retry(org, messageId);
    expect(quiet.status).toBe(409);
    expect(quiet.body).toMatchObject({ error: "quiet_hours" });
    expect(quiet.body.message).toMatch(/los recordatorios no se envían/);

    await setQuietHours(org.owner, "00:00", "00:00", "UTC");
    const patch = await answer(
      api(org.owner.token).bookings[":id"].$patch({
        param: { id: booking.id },
        json: { start: startIn(4).toISOString() },
      }),
    );
    expect(patch.status).toBe(200);
    const changed = await retry(org, messageId);
    expect(changed.status).toBe(409);
    expect(changed.body).toMatchObject({
      error: "not_retriable",
      message: "La cita cambió o ya pasó: este recordatorio no se reenvía.",
    });
    expect(await statusOf(org, messageId)).toBe("failed");
  });

  it("goes back to failed when its booking is cancelled before the job sends it", async () => {
    const org = await reminderOrganization();
    const { booking, messageId } = await failedReminder(org);
    // As a hand-off leaves them, the job not yet run (in the product it runs at once).
    await orgSqlBatch(org.orgId, [
      { sql: "UPDATE messages SET status = 'pending' WHERE id = ?", params: [messageId] },
      {
        sql: "UPDATE booking_reminders SET due_at = ? WHERE booking_id = ?",
        params: [Date.now() + HOUR_MS, booking.id],
      },
    ]);
    const cancelled = await answer(
      api(org.owner.token).bookings[":id"].$patch({
        param: { id: booking.id },
        json: { status: "cancelled", reason: "Enfermo" },
      }),
    );
    expect(cancelled.status).toBe(200);
    expect(await statusOf(org, messageId)).toBe("failed");
    expect((await reminderOf(org, booking.id))!.state).toBe("cancelled");
  });
});

describe("the buttons", () => {
  async function remindedBooking(org: Org, start = startIn(3)) {
    const booking = await bookAt(org, start);
    await runJob(org);
    expect((await reminderOf(org, booking.id))!.state).toBe("sent");
    return booking;
  }

  it("Confirmar marks the booking confirmed by the customer, once", async () => {
    const org = await reminderOrganization();
    const booking = await remindedBooking(org);
    // As an interactive button reply first, then as the template's quick reply.
    await deliver(
      delivery(
        inboundMessage({
          phoneNumberId: org.phoneNumberId,
          from: org.customer.phone,
          type: "interactive",
          part: {
            type: "button_reply",
            button_reply: { id: `booking:${booking.id}:confirm`, title: "Confirmar" },
          },
        }),
      ),
    );
    await runJob(org, { makeDue: false });
    expect((await reminderOf(org, booking.id))!.confirmed_at).not.toBeNull();
    await press(org, org.customer.phone, "Confirmar", `booking:${booking.id}:confirm`);
    await runJob(org, { makeDue: false });
    const confirmations = (await notesOf(org)).filter((n) => n.startsWith("El cliente confirmó"));
    expect(confirmations).toEqual([
      expect.stringMatching(/^El cliente confirmó la cita: Limpieza dental el /),
    ]);
    expect((await bookingNow(org.owner, booking.id))!.status).toBe("confirmed");
  });

  it("show on the booking: planned for its time, sent, then confirmed by the customer", async () => {
    const org = await reminderOrganization();
    const start = startIn(3);
    const booking = await bookAt(org, start);
    expect(booking.reminder).toEqual({
      state: "pending",
      due_at: new Date(+start - DAY_MS).toISOString(),
      sent_at: null,
      confirmed_at: null,
    });
    expect((await bookAt(org, startIn(0, 20))).reminder).toBeNull();

    await runJob(org);
    const sent = (await bookingNow(org.owner, booking.id))!.reminder;
    expect(sent).toMatchObject({ state: "sent", sent_at: expect.any(String), confirmed_at: null });
    await press(org, org.customer.phone, "Confirmar", `booking:${booking.id}:confirm`);
    await runJob(org, { makeDue: false });
    expect((await bookingNow(org.owner, booking.id))!.reminder).toMatchObject({
      state: "sent",
      confirmed_at: expect.any(String),
    });
  });

  it("Cancelar cita cancels the booking as a person would, frees the slot, and opts nobody out", async () => {
    const org = await reminderOrganization();
    const start = startIn(3);
    const booking = await remindedBooking(org, start);
    await press(org, org.customer.phone, "Cancelar cita", `booking:${booking.id}:cancel`);
    // Even a button that reads like an opt-out word is the reminder's when its payload is.
    await press(org, org.customer.phone, "CANCELAR", `booking:${booking.id}:cancel`);
    await runJob(org, { makeDue: false });
    expect(await bookingNow(org.owner, booking.id)).toMatchObject({
      status: "cancelled",
      reason: "El cliente la canceló desde el recordatorio",
    });
    expect((await notesOf(org)).at(-1)).toMatch(/^Cita cancelada: Limpieza dental el /);
    const audit = await orgSql<Row>(
      org.orgId,
      "SELECT metadata FROM audit_events WHERE action = 'booking.update'",
    );
    expect(audit.map((a) => JSON.parse(a.metadata).change)).toContain("cancelled");
    // The slot is free again: another booking takes it.
    await bookAt(org, start);
    const conversation = await orgFirst<Row>(
      org.orgId,
      "SELECT marketing_opted_out_at FROM conversations WHERE id = ?",
      org.customer.conversationId,
    );
    expect(conversation!.marketing_opted_out_at).toBeNull();
    const consents = await orgSql<Row>(org.orgId, "SELECT * FROM marketing_consents");
    expect(consents.filter((c) => c.opted_out_at !== null)).toEqual([]);
  });

  it("are not questions for the AI: a press schedules no answer, a message does", async () => {
    const org = await reminderOrganization({ withAgent: true });
    const booking = await remindedBooking(org);
    const replyKey = `reply:${org.customer.conversationId}`;
    await runInDurableObject(org.store, (_, state) => {
      state.storage.sql.exec("DELETE FROM scheduled_work WHERE key = ?", replyKey);
    });
    await press(org, org.customer.phone, "Confirmar", `booking:${booking.id}:confirm`);
    expect(await keysUnder(org.store, replyKey)).toEqual([]);
    await deliver(
      delivery(
        inboundMessage({
          phoneNumberId: org.phoneNumberId,
          from: org.customer.phone,
          text: "Gracias",
        }),
      ),
    );
    expect(await keysUnder(org.store, replyKey)).toEqual([replyKey]);
  });

  it("Cambiar sends the customer the free slots to pick a new one", async () => {
    const org = await reminderOrganization();
    const booking = await remindedBooking(org);
    await press(org, org.customer.phone, "Cambiar", `booking:${booking.id}:reschedule`);
    await runJob(org, { makeDue: false });
    const offers = (await graphRequests(`/${org.phoneNumberId}/messages`)).filter(
      (r) => r.body?.to === org.customer.phone && r.body?.type === "interactive",
    );
    expect(offers).toHaveLength(1);
    expect(offers[0]!.body.interactive.type).toBe("list");
    expect((await notesOf(org)).at(-1)).toMatch(/^El cliente pidió cambiar la cita de /);
    expect((await bookingNow(org.owner, booking.id))!.status).toBe("confirmed");

    // The customer picks a slot: the new booking is made, and the one it replaces cancelled.
    const row = offers[0]!.body.interactive.action.sections[0].rows[0];
    await deliver(
      delivery(
        listReply({
          phoneNumberId: org.phoneNumberId,
          from: org.customer.phone,
          replyId: row.id,
          title: row.title,
        }),
      ),
    );
    await vi.waitFor(async () => {
      expect(await bookingNow(org.owner, booking.id)).toMatchObject({
        status: "cancelled",
        reason: "El cliente la cambió por otra desde el recordatorio",
      });
    });
    const res = await answer(
      api(org.owner.token).bookings.$get({
        query: { conversation_id: org.customer.conversationId, status: "confirmed" },
      }),
    );
    const live = (res.body as { data: { bookings: Booking[] } }).data.bookings;
    expect(live).toHaveLength(1);
    expect(live[0]!.id).not.toBe(booking.id);
  });

  it("do nothing for another conversation's booking, another organization's, or one already cancelled", async () => {
    const org = await reminderOrganization();
    const booking = await remindedBooking(org);
    // Another customer of the same organization presses this booking's buttons.
    const other = await customerOf(org);
    await press(org, other.phone, "Cancelar cita", `booking:${booking.id}:cancel`);
    await press(org, other.phone, "Confirmar", `booking:${booking.id}:confirm`);
    // A customer of another organization names it too.
    const second = await reminderOrganization();
    await press(second, second.customer.phone, "Cancelar cita", `booking:${booking.id}:cancel`);
    await runJob(org, { makeDue: false });
    await runJob(second, { makeDue: false });
    expect(await bookingNow(org.owner, booking.id)).toMatchObject({ status: "confirmed" });
    expect((await reminderOf(org, booking.id))!.confirmed_at).toBeNull();
    expect(await notesOf(org, other.conversationId)).toEqual([]);
    // The presses are in the threads as the customers' messages, and that is all.
    const shown = await orgSql<Row>(
      org.orgId,
      "SELECT content FROM messages WHERE conversation_id = ? AND type = 'button'",
      other.conversationId,
    );
    expect(shown.map((m) => m.content)).toEqual(["Cancelar cita", "Confirmar"]);

    // The second organization sees none of the first one's bookings or reminders.
    const theirs = await answer(api(second.owner.token).bookings.$get({ query: {} }));
    expect((theirs.body as { data: { bookings: Booking[] } }).data.bookings).toEqual([]);
    expect(await orgSql(second.orgId, "SELECT * FROM booking_reminders")).toEqual([]);

    // Cancelled, its buttons change nothing more.
    const patch = await answer(
      api(org.owner.token).bookings[":id"].$patch({
        param: { id: booking.id },
        json: { status: "cancelled" },
      }),
    );
    expect(patch.status).toBe(200);
    const notes = await notesOf(org);
    await press(org, org.customer.phone, "Confirmar", `booking:${booking.id}:confirm`);
    await press(org, org.customer.phone, "Cambiar", `booking:${booking.id}:reschedule`);
    await runJob(org, { makeDue: false });
    expect(await notesOf(org)).toEqual(notes);
  });
});

describe("a second organization", () => {
  it("has its own template and reminders, and never sends the first one's", async () => {
    const first = await reminderOrganization();
    const { owner } = await bookingOrganization();
    expect((await settingsOf(owner)).template).toBeNull();
    const booking = await bookAt(first, startIn(3));
    const service = await createService(owner, { name: "Corte" });
    expect(service.id).not.toBe(first.service.id);
    const reminders = await orgSql<Row>(owner.organization.id, "SELECT * FROM booking_reminders");
    expect(reminders).toEqual([]);
    expect((await reminderOf(first, booking.id))!.state).toBe("pending");
  });
});
