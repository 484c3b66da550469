// Bookings (contract section 18, decision 0078): made in one transaction of the store, so two
// live bookings of one calendar never overlap whatever races (409 `slot_taken` with the nearest
// slots); `Idempotency-Key` honoured; held while a payment is awaited and released by the
// store's job; moved, cancelled and marked; each change audited, in the thread, on the socket;
// a confirmed booking makes the conversation a lead; two organizations never meet.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Booking } from "../../contracts/bookings";
import { api, answer } from "../support/api";
import {
  book,
  bookingOf,
  bookingOrganization,
  createService,
  newConversation,
  slotsOf,
  type Owner,
} from "../support/bookings";
import { addMember } from "../support/factories";
import { orgSql } from "../support/org-data";
import { connect } from "../support/sockets";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { messageFromAd, settledConversion } from "../support/ads";
import { connectWhatsapp } from "../support/db";
import { graphRequests } from "../support/webhooks";

type Row = Record<string, any>;
const NINE = "2031-01-07T08:00:00.000Z"; // 09:00 in Madrid, a Tuesday
const NINE_FIFTEEN = "2031-01-07T08:15:00.000Z";

const patchBooking = (owner: Owner, id: string, json: Record<string, unknown>) =>
  answer(api(owner.token).bookings[":id"].$patch({ param: { id }, json }));

const listBookings = async (owner: Owner, query: Record<string, string>) =>
  (
    (await answer(api(owner.token).bookings.$get({ query }))).body as {
      data: { bookings: Booking[]; total: number; page: number; limit: number };
    }
  ).data;

describe("booking", () => {
  it("confirms a service without payment, in the thread, the trail, the socket and the lead", async () => {
    const { owner, orgId, service } = await bookingOrganization();
    const conversationId = await newConversation(owner);
    const socket = await connect(owner.token);
    const res = await book(owner, {
      service_id: service.id,
      conversation_id: conversationId,
      start: NINE,
      note: "Primera visita",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const booking = bookingOf(res);
    expect(booking).toMatchObject({
      service_id: service.id,
      service_name: "Limpieza dental",
      conversation_id: conversationId,
      staff_user_id: null,
      start: NINE,
      end: "2031-01-07T08:30:00.000Z",
      status: "confirmed",
      expires_at: null,
      note: "Primera visita",
      created_by: owner.user.id,
    });
    const event = await socket.receive((e) => e.type === "booking_update");
    expect(event.data.booking).toMatchObject({ id: booking.id, status: "confirmed" });

    const thread = await orgSql<Row>(
      orgId,
      "SELECT content, direction FROM messages WHERE conversation_id = ? AND type = 'note'",
      conversationId,
    );
    expect(thread).toEqual([
      {
        content: "Cita reservada: Limpieza dental el 7 de enero a las 09:00.",
        direction: "internal",
      },
    ]);
    const audit = await orgSql<Row>(
      orgId,
      "SELECT action, target, metadata FROM audit_events WHERE action LIKE 'booking.%'",
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "booking.create", target: conversationId });
    expect(JSON.parse(audit[0]!.metadata)).toMatchObject({
      booking_id: booking.id,
      change: "created",
    });

    // The conversation is a lead, recorded once however many bookings follow.
    const leads = () =>
      orgSql<Row>(
        orgId,
        "SELECT id FROM conversions WHERE conversation_id = ? AND event_name = 'lead'",
        conversationId,
      );
    expect(await leads()).toHaveLength(1);
    const [conversation] = await orgSql<Row>(
      orgId,
      "SELECT stage FROM conversations WHERE id = ?",
      conversationId,
    );
    expect(conversation!.stage).toBe("lead");
    const again = await book(owner, {
      service_id: service.id,
      conversation_id: conversationId,
      start: "2031-01-08T08:00:00Z",
    });
    expect(again.status).toBe(201);
    expect(await leads()).toHaveLength(1);
    socket.socket.close();
  });

  it("sends LeadSubmitted to Meta once for a customer who came from an ad", async () => {
    const { owner, orgId, service } = await bookingOrganization();
    const connection = await connectWhatsapp(orgId, {
      businessAccountId: GRAPH_FIXTURES.wabaId,
    });
    const { from, ctwaClid } = await messageFromAd(connection);
    const [conversation] = await orgSql<Row>(
      orgId,
      "SELECT id FROM conversations WHERE phone_number = ?",
      from,
    );
    for (const start of [NINE, "2031-01-08T08:00:00Z"]) {
      const res = await book(owner, {
        service_id: service.id,
        conversation_id: conversation!.id,
        start,
      });
      expect(res.status).toBe(201);
    }
    const [lead] = await orgSql<Row>(
      orgId,
      "SELECT id FROM conversions WHERE conversation_id = ? AND event_name = 'lead'",
      conversation!.id,
    );
    const sent = await settledConversion(orgId, lead!.id);
    expect(sent).toMatchObject({ capiStatus: "sent", ctwaClid, customData: { source: "booking" } });
    const events = (await graphRequests("/events")).flatMap((r) =>
      (r.body?.data ?? []).filter((e: any) => e.event_id === sent.eventId),
    );
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      event_name: "LeadSubmitted",
      user_data: { ctwa_clid: ctwaClid },
    });
  });

  it("holds a slot paid ahead as pending_payment for 30 minutes, which makes no lead yet", async () => {
    const { owner, orgId, service } = await bookingOrganization({ price: "40", payment: "full" });
    const conversationId = await newConversation(owner);
    const before = Date.now();
    const res = await book(owner, {
      service_id: service.id,
      conversation_id: conversationId,
      start: NINE,
    });
    expect(res.status).toBe(201);
    const booking = bookingOf(res);
    expect(booking.status).toBe("pending_payment");
    const holds = Date.parse(booking.expires_at!) - before;
    expect(holds).toBeGreaterThanOrEqual(30 * 60_000 - 1000);
    expect(holds).toBeLessThanOrEqual(30 * 60_000 + 5000);
    const leads = await orgSql(orgId, "SELECT id FROM conversions WHERE event_name = 'lead'");
    expect(leads).toEqual([]);
    const [note] = await orgSql<Row>(orgId, "SELECT content FROM messages WHERE type = 'note'");
    expect(note!.content).toBe(
      "Cita reservada, pendiente de pago: Limpieza dental el 7 de enero a las 09:00.",
    );
  });

  it("is checked against the organization's own data, with Spanish messages", async () => {
    const { owner, service } = await bookingOrganization();
    const conversationId = await newConversation(owner);
    const outside = await book(owner, {
      service_id: service.id,
      conversation_id: conversationId,
      start: "2031-01-07T09:45:00Z",
    });
    expect(outside.status).toBe(422);
    expect(outside.body).toMatchObject({
      details: [{ path: "start", message: "Ese horario está fuera del horario de atención" }],
    });
    const overClosing = await book(owner, {
      service_id: service.id,
      conversation_id: conversationId,
      start: "2031-01-07T08:45:00Z",
    });
    expect(overClosing.status).toBe(422);
    const past = await book(owner, {
      service_id: service.id,
      conversation_id: conversationId,
      start: "2020-01-07T08:00:00Z",
    });
    expect(past.status).toBe(422);
    expect(past.body).toMatchObject({
      details: [{ path: "start", message: expect.stringMatching(/antelación/) }],
    });
    const malformed = await book(owner, {
      service_id: "",
      conversation_id: conversationId,
      start: "mañana a las 9",
    });
    expect(malformed.status).toBe(422);
    expect(
      (malformed.body as unknown as { details: { path: string }[] }).details
        .map((d) => d.path)
        .sort(),
    ).toEqual(["service_id", "start"]);
    const noConversation = await book(owner, {
      service_id: service.id,
      conversation_id: crypto.randomUUID(),
      start: NINE,
    });
    expect(noConversation.status).toBe(404);
    const noService = await book(owner, {
      service_id: crypto.randomUUID(),
      conversation_id: conversationId,
      start: NINE,
    });
    expect(noService.status).toBe(404);
    const notStaff = await book(owner, {
      service_id: service.id,
      conversation_id: conversationId,
      start: NINE,
      staff_user_id: owner.user.id,
    });
    expect(notStaff.body).toMatchObject({
      details: [{ path: "staff_user_id", message: "Esa persona no atiende este servicio" }],
    });
    await answer(
      api(owner.token).services[":id"].$patch({
        param: { id: service.id },
        json: { active: false },
      }),
    );
    const inactive = await book(owner, {
      service_id: service.id,
      conversation_id: conversationId,
      start: NINE,
    });
    expect(inactive.body).toMatchObject({
      details: [{ path: "service_id", message: "Este servicio no está activo" }],
    });
    expect((await listBookings(owner, {})).total).toBe(0);
  });

  it("gives a contested slot to one request only: the others hear slot_taken with the nearest slots", async () => {
    const { owner, orgId, service } = await bookingOrganization({ buffer_minutes: 15 });
    const conversations = await Promise.all(
      Array.from({ length: 6 }, () => newConversation(owner)),
    );
    const answers = await Promise.all(
      conversations.map((conversationId) =>
        book(owner, { service_id: service.id, conversation_id: conversationId, start: NINE }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409, 409, 409]);
    const lost = answers.find((a) => a.status === 409)!;
    expect(lost.body.error).toBe("slot_taken");
    expect(lost.body.message).toBe(
      "Ese horario ya está ocupado. Elige otro de los huecos libres más cercanos.",
    );
    const { slots } = lost.body as unknown as { slots: { start: string }[] };
    // 09:00-09:30 and its 15 minutes' buffer: the nearest free starts are 09:45's neighbours.
    expect(slots.length).toBeGreaterThan(0);
    expect(slots.map((s) => s.start)).not.toContain(NINE);
    expect(slots.map((s) => s.start)).not.toContain(NINE_FIFTEEN);
    const live = await orgSql(orgId, "SELECT id FROM bookings WHERE status = 'confirmed'");
    expect(live).toHaveLength(1);
    // A start inside the first booking's buffer is taken too.
    const inBuffer = await book(owner, {
      service_id: service.id,
      conversation_id: conversations[1]!,
      start: "2031-01-07T08:30:00Z",
    });
    expect(inBuffer.status).toBe(409);
  });

  it("gives each staff member one of a contested time, and refuses once all are taken", async () => {
    const { owner } = await bookingOrganization();
    const admin = await addMember(owner.organization.id, "admin");
    const service = await createService(owner, {
      name: "Ortodoncia",
      staff_user_ids: [owner.user.id, admin.user.id],
    });
    const conversations = await Promise.all(
      Array.from({ length: 4 }, () => newConversation(owner)),
    );
    const answers = await Promise.all(
      conversations.map((conversationId) =>
        book(owner, { service_id: service.id, conversation_id: conversationId, start: NINE }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, 409, 409]);
    const staff = answers.filter((a) => a.status === 201).map((a) => bookingOf(a).staff_user_id);
    expect(staff.sort()).toEqual([owner.user.id, admin.user.id].sort());
  });

  it("honours Idempotency-Key: a retry answers the same booking, another body is refused", async () => {
    const { owner, orgId, service } = await bookingOrganization();
    const conversationId = await newConversation(owner);
    const input = { service_id: service.id, conversation_id: conversationId, start: NINE };
    const [first, second] = await Promise.all([
      book(owner, input, "reserva-1"),
      book(owner, input, "reserva-1"),
    ]);
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(bookingOf(second).id).toBe(bookingOf(first).id);
    const third = await book(owner, input, "reserva-1");
    expect(bookingOf(third).id).toBe(bookingOf(first).id);
    expect(await orgSql(orgId, "SELECT id FROM bookings")).toHaveLength(1);
    expect(await orgSql(orgId, "SELECT id FROM messages WHERE type = 'note'")).toHaveLength(1);
    const other = await book(owner, { ...input, start: NINE_FIFTEEN }, "reserva-1");
    expect(other.status).toBe(422);
    expect(other.body.error).toBe("idempotency_key_reused");
  });
});

describe("a booking's changes", () => {
  it("cancel it, freeing its slot, and mark it; a finished booking stays finished", async () => {
    const { owner, orgId, service } = await bookingOrganization();
    const agent = await addMember(owner.organization.id, "agent");
    const conversationId = await newConversation(owner);
    const booking = bookingOf(
      await book(owner, { service_id: service.id, conversation_id: conversationId, start: NINE }),
    );
    const cancelled = await patchBooking(agent as unknown as Owner, booking.id, {
      status: "cancelled",
      reason: "El cliente no puede venir",
    });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body).toMatchObject({
      data: { status: "cancelled", reason: "El cliente no puede venir" },
    });
    expect(
      (await slotsOf(owner, { service_id: service.id, from: "2031-01-07", to: "2031-01-07" }))[0]!
        .start,
    ).toBe(NINE);
    const reopened = await patchBooking(owner, booking.id, { status: "completed" });
    expect(reopened.status).toBe(409);

    const next = bookingOf(
      await book(owner, { service_id: service.id, conversation_id: conversationId, start: NINE }),
    );
    expect((await patchBooking(owner, next.id, { status: "no_show" })).body).toMatchObject({
      data: { status: "no_show" },
    });
    const notes = await orgSql<Row>(
      orgId,
      "SELECT content FROM messages WHERE type = 'note' ORDER BY id",
    );
    expect(notes.map((n) => n.content)).toEqual([
      "Cita reservada: Limpieza dental el 7 de enero a las 09:00.",
      "Cita cancelada: Limpieza dental el 7 de enero a las 09:00 (El cliente no puede venir).",
      "Cita reservada: Limpieza dental el 7 de enero a las 09:00.",
      "No se presentó a la cita: Limpieza dental el 7 de enero a las 09:00.",
    ]);
    const bad = await patchBooking(owner, next.id, { status: "confirmed" });
    expect(bad.status).toBe(422);
    const empty = await patchBooking(owner, next.id, {});
    expect(empty.status).toBe(422);
  });

  it("move it to a free time, never onto another booking", async () => {
    const { owner, service } = await bookingOrganization();
    const first = bookingOf(
      await book(owner, {
        service_id: service.id,
        conversation_id: await newConversation(owner),
        start: NINE,
      }),
    );
    const second = bookingOf(
      await book(owner, {
        service_id: service.id,
        conversation_id: await newConversation(owner),
        start: "2031-01-07T08:30:00Z",
      }),
    );
    // A quarter later it would run into the 09:30 booking.
    const moved = await patchBooking(owner, first.id, { start: NINE_FIFTEEN });
    expect(moved.status, JSON.stringify(moved.body)).toBe(409);
    expect(moved.body.error).toBe("slot_taken");
    const back = await patchBooking(owner, second.id, { start: "2031-01-08T08:00:00Z" });
    expect(back.body).toMatchObject({
      data: { start: "2031-01-08T08:00:00.000Z", end: "2031-01-08T08:30:00.000Z" },
    });
    // Once that one moved away, it may: its own time does not count against it.
    const now = await patchBooking(owner, first.id, { start: NINE_FIFTEEN });
    expect(now.body).toMatchObject({ data: { start: NINE_FIFTEEN, status: "confirmed" } });
  });
});

describe("a hold whose payment never comes", () => {
  it("is cancelled by the store's job as payment_expired, and its slot is free again", async () => {
    const { owner, orgId, store, service } = await bookingOrganization({
      price: "25",
      payment: "deposit",
      deposit: "5",
    });
    const conversationId = await newConversation(owner);
    const booking = bookingOf(
      await book(owner, { service_id: service.id, conversation_id: conversationId, start: NINE }),
    );
    expect(
      await slotsOf(owner, { service_id: service.id, from: "2031-01-07", to: "2031-01-07" }),
    ).toHaveLength(1);
    // Thirty minutes later.
    await orgSql(
      orgId,
      "UPDATE bookings SET expires_at = ? WHERE id = ?",
      new Date(Date.now() - 1000).toISOString(),
      booking.id,
    );
    // An ended hold frees its slot at once, before the job has run.
    expect(
      await slotsOf(owner, { service_id: service.id, from: "2031-01-07", to: "2031-01-07" }),
    ).toHaveLength(3);
    await store.scheduleJob(orgId, "booking_holds", Date.now());
    await runDurableObjectAlarm(store);
    const [row] = await orgSql<Row>(
      orgId,
      "SELECT status, reason FROM bookings WHERE id = ?",
      booking.id,
    );
    expect(row).toEqual({ status: "cancelled", reason: "payment_expired" });
    expect(
      await slotsOf(owner, { service_id: service.id, from: "2031-01-07", to: "2031-01-07" }),
    ).toHaveLength(3);
    const notes = await orgSql<Row>(
      orgId,
      "SELECT content FROM messages WHERE type = 'note' ORDER BY id",
    );
    expect(notes.at(-1)!.content).toBe(
      "Cita cancelada: Limpieza dental el 7 de enero a las 09:00. No se recibió el pago a tiempo.",
    );
    const audit = await orgSql<Row>(
      orgId,
      "SELECT user_id, metadata FROM audit_events WHERE action = 'booking.update'",
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]!.user_id).toBeNull();
  });
});

describe("the bookings list", () => {
  it("filters and pages by start, and another organization sees none of it", async () => {
    const { owner, service } = await bookingOrganization();
    const conversationId = await newConversation(owner);
    for (const day of ["07", "08", "09"]) {
      expect(
        (
          await book(owner, {
            service_id: service.id,
            conversation_id: conversationId,
            start: `2031-01-${day}T08:00:00Z`,
          })
        ).status,
      ).toBe(201);
    }
    const page = await listBookings(owner, { limit: "2", page: "2" });
    expect(page).toMatchObject({ total: 3, page: 2, limit: 2 });
    expect(page.bookings.map((b) => b.start)).toEqual(["2031-01-09T08:00:00.000Z"]);
    const ranged = await listBookings(owner, {
      from: "2031-01-08T00:00:00Z",
      to: "2031-01-09T00:00:00Z",
      status: "confirmed",
    });
    expect(ranged.bookings.map((b) => b.start)).toEqual(["2031-01-08T08:00:00.000Z"]);

    const other = await bookingOrganization();
    expect((await listBookings(other.owner, {})).total).toBe(0);
    expect((await listBookings(other.owner, { conversation_id: conversationId })).total).toBe(0);
    const foreign = await book(other.owner, {
      service_id: service.id,
      conversation_id: await newConversation(other.owner),
      start: NINE,
    });
    expect(foreign.status).toBe(404);
    const theirs = await book(other.owner, {
      service_id: other.service.id,
      conversation_id: conversationId,
      start: NINE,
    });
    expect(theirs.status).toBe(404);
    const change = await patchBooking(other.owner, page.bookings[0]!.id, { status: "cancelled" });
    expect(change.status).toBe(404);
  });
});
