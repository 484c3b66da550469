// Hand-built requests here are the subject: the providers' signed deliveries, raw bodies and
// their signature headers.
// The providers' webhooks (contract section 18, decisions 0091 and 0093): Stripe's
// `Stripe-Signature` and Mercado Pago's `x-signature` checked with the organization's own
// secret within five minutes (a bad or stale one is 401 and changes nothing); a repeated or
// late event changes nothing; a paid link confirms its booking, records one sale, sends one
// `Purchase` to Meta and makes the conversation a lead once; two organizations never meet.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { Payment } from "../../contracts/payments";
import { messageFromAd, settledConversion } from "../support/ads";
import { book, bookingOf, bookingOrganization, newConversation } from "../support/bookings";
import { createOwner, randomIp } from "../support/factories";
import { call } from "../support/http";
import { orgSql } from "../support/org-data";
import { connect } from "../support/sockets";
import { graphRequests } from "../support/webhooks";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { stripeSignature } from "../fakes/stripe-server.mjs";
import { mercadoPagoSignature } from "../fakes/mercadopago-server.mjs";
import {
  chargeable,
  paymentOf,
  playCustomer,
  postWebhook,
  readyToCharge,
  sendLink,
  webhookSecretOf,
  type PaymentProviderName,
} from "../support/payments";

type Row = Record<string, any>;
const NINE = "2031-01-07T08:00:00.000Z";

/** An organization with a provider, a held booking and its link sent. */
async function linkForBooking(provider: PaymentProviderName, fromAd = false) {
  const org = await bookingOrganization({ price: "50", payment: "deposit", deposit: "20" });
  const connection = await readyToCharge(org.owner, provider, GRAPH_FIXTURES.wabaId);
  let conversationId: string;
  let ctwaClid: string | null = null;
  if (fromAd) {
    const ad = await messageFromAd(connection);
    ctwaClid = ad.ctwaClid;
    const [row] = await orgSql<Row>(
      org.orgId,
      "SELECT id FROM conversations WHERE phone_number = ?",
      ad.from,
    );
    conversationId = row!.id;
  } else {
    conversationId = await newConversation(org.owner);
  }
  await chargeable(org.owner, conversationId);
  const booking = bookingOf(
    await book(org.owner, {
      service_id: org.service.id,
      conversation_id: conversationId,
      start: NINE,
    }),
  );
  const res = await sendLink(org.owner, conversationId, {
    amount: "20",
    currency: "EUR",
    description: "Señal de Limpieza dental",
    booking_id: booking.id,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return {
    ...org,
    conversationId,
    ctwaClid,
    booking,
    payment: paymentOf(res),
    secret: webhookSecretOf(org.orgId),
  };
}

const paymentRow = async (orgId: string, payment: Payment) =>
  (await orgSql<Row>(orgId, "SELECT status, paid_at FROM payments WHERE id = ?", payment.id))[0]!;
const bookingStatus = async (orgId: string, id: string) =>
  (await orgSql<Row>(orgId, "SELECT status, reason FROM bookings WHERE id = ?", id))[0]!;
const purchases = (orgId: string, conversationId: string) =>
  orgSql<Row>(
    orgId,
    "SELECT id, conversion_value, currency FROM conversions WHERE conversation_id = ? AND event_name = 'purchase'",
    conversationId,
  );
const leads = (orgId: string, conversationId: string) =>
  orgSql<Row>(
    orgId,
    "SELECT id FROM conversions WHERE conversation_id = ? AND event_name = 'lead'",
    conversationId,
  );

describe("Stripe's webhook", () => {
  it("marks a paid link paid: its booking confirmed, one sale, one Purchase, one lead", async () => {
    const { owner, orgId, conversationId, booking, payment, secret, ctwaClid } =
      await linkForBooking("stripe", true);
    const socket = await connect(owner.token);
    const paid = await playCustomer("stripe", "pay", payment, secret);
    const res = await postWebhook(paid);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ received: true, changed: true });
    expect(await paymentRow(orgId, payment)).toMatchObject({
      status: "paid",
      paid_at: expect.any(String),
    });
    expect(await bookingStatus(orgId, booking.id)).toEqual({ status: "confirmed", reason: null });
    const event = await socket.receive((e) => e.type === "payment_update");
    expect(event.data.payment).toMatchObject({ id: payment.id, status: "paid" });
    socket.socket.close();

    // Repeated, as Stripe retries: nothing more.
    const again = await postWebhook(paid);
    expect(again.status).toBe(200);
    expect(again.body).toEqual({ received: true, changed: false });

    const sales = await purchases(orgId, conversationId);
    expect(sales).toEqual([{ id: expect.any(String), conversion_value: 20, currency: "EUR" }]);
    expect(await leads(orgId, conversationId)).toHaveLength(1);
    const [conversation] = await orgSql<Row>(
      orgId,
      "SELECT stage FROM conversations WHERE id = ?",
      conversationId,
    );
    expect(conversation!.stage).toBe("customer");
    const sent = await settledConversion(orgId, sales[0]!.id);
    expect(sent).toMatchObject({ capiStatus: "sent", ctwaClid });
    const events = (await graphRequests("/events")).flatMap((r) =>
      (r.body?.data ?? []).filter((e: any) => e.user_data?.ctwa_clid === ctwaClid),
    );
    expect(events.filter((e: any) => e.event_name === "Purchase")).toHaveLength(1);
    expect(events.filter((e: any) => e.event_name === "Purchase")[0]).toMatchObject({
      custom_data: { value: 20, currency: "EUR" },
    });
    expect(events.filter((e: any) => e.event_name === "LeadSubmitted")).toHaveLength(1);

    const notes = await orgSql<Row>(
      orgId,
      "SELECT content FROM messages WHERE conversation_id = ? AND type = 'note' ORDER BY id",
      conversationId,
    );
    expect(notes.map((n) => n.content)).toEqual(
      expect.arrayContaining([
        "Cita confirmada con el pago: Limpieza dental el 7 de enero a las 09:00.",
        "Pago recibido: 20,00 EUR.",
      ]),
    );
    expect(notes.filter((n) => n.content.startsWith("Pago recibido"))).toHaveLength(1);
  });

  it("refuses a bad or stale signature with 401 and changes nothing", async () => {
    const { orgId, payment, secret } = await linkForBooking("stripe");
    const paid = await playCustomer("stripe", "pay", payment, secret);
    const forged = await postWebhook(paid, {
      "Stripe-Signature": stripeSignature(paid.body, "whsec_someone_else"),
    });
    expect(forged.status).toBe(401);
    expect(forged.body).toMatchObject({ error: "unauthorized" });
    const stale = await postWebhook(paid, {
      "Stripe-Signature": stripeSignature(paid.body, secret, Math.floor(Date.now() / 1000) - 301),
    });
    expect(stale.status).toBe(401);
    const missing = await call("POST", paid.path, {
      rawBody: paid.body,
      headers: { "Content-Type": "application/json" },
    });
    expect(missing.status).toBe(401);
    const tampered = await postWebhook({ ...paid, body: paid.body.replace('"paid"', '"paid" ') });
    expect(tampered.status).toBe(401);
    expect(await paymentRow(orgId, payment)).toMatchObject({ status: "pending", paid_at: null });
  });

  it("answers 429 to an address that keeps failing, never to the provider's signed events", async () => {
    const { orgId, payment, secret } = await linkForBooking("stripe");
    const paid = await playCustomer("stripe", "pay", payment, secret);
    const ip = { "CF-Connecting-IP": randomIp() };
    const forged = { ...ip, "Stripe-Signature": stripeSignature(paid.body, "whsec_guess") };
    const statuses: number[] = [];
    for (let i = 0; i < 22; i++) statuses.push((await postWebhook(paid, forged)).status);
    expect(statuses.slice(0, 19).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(19)).toEqual([429, 429, 429]);
    // An event for no organization is counted the same.
    const nowhere = { ...paid, path: "/webhooks/payments/stripe?organization=nadie" };
    expect((await postWebhook(nowhere, ip)).status).toBe(429);
    expect(await paymentRow(orgId, payment)).toMatchObject({ status: "pending" });

    // Stripe's own signed event from the same address still goes through.
    expect((await postWebhook(paid, ip)).status).toBe(200);
    expect(await paymentRow(orgId, payment)).toMatchObject({ status: "paid" });
  });

  it("expires an unpaid link; a late expiry of a paid one and a refund of an unpaid one change nothing", async () => {
    const paidLink = await linkForBooking("stripe");
    const paid = await playCustomer("stripe", "pay", paidLink.payment, paidLink.secret);
    expect((await postWebhook(paid)).status).toBe(200);
    const late = await playCustomer("stripe", "expire", paidLink.payment, paidLink.secret);
    expect((await postWebhook(late)).body).toEqual({ received: true, changed: false });
    expect((await paymentRow(paidLink.orgId, paidLink.payment)).status).toBe("paid");

    const refund = await playCustomer("stripe", "refund", paidLink.payment, paidLink.secret);
    expect((await postWebhook(refund)).body).toEqual({ received: true, changed: true });
    expect((await paymentRow(paidLink.orgId, paidLink.payment)).status).toBe("refunded");
    // The sale stays: it was made, and its refund is the team's to tell Meta nothing more.
    expect(await purchases(paidLink.orgId, paidLink.conversationId)).toHaveLength(1);

    const unpaid = await linkForBooking("stripe");
    const expired = await playCustomer("stripe", "expire", unpaid.payment, unpaid.secret);
    expect((await postWebhook(expired)).body).toEqual({ received: true, changed: true });
    expect((await paymentRow(unpaid.orgId, unpaid.payment)).status).toBe("expired");
  });

  it("confirms a booking again when its payment arrives after the hold ended and the slot is free", async () => {
    const { orgId, store, booking, payment, secret, conversationId } =
      await linkForBooking("stripe");
    await orgSql(
      orgId,
      "UPDATE bookings SET expires_at = ? WHERE id = ?",
      new Date(Date.now() - 1000).toISOString(),
      booking.id,
    );
    await store.scheduleJob(orgId, "booking_holds", Date.now());
    await runDurableObjectAlarm(store);
    expect(await bookingStatus(orgId, booking.id)).toEqual({
      status: "cancelled",
      reason: "payment_expired",
    });
    const res = await postWebhook(await playCustomer("stripe", "pay", payment, secret));
    expect(res.status).toBe(200);
    expect(await bookingStatus(orgId, booking.id)).toEqual({ status: "confirmed", reason: null });
    expect(await purchases(orgId, conversationId)).toHaveLength(1);
  });

  it("keeps a cancelled booking cancelled when its slot was taken, and says so in the thread", async () => {
    const { owner, orgId, store, service, booking, payment, secret, conversationId } =
      await linkForBooking("stripe");
    await orgSql(
      orgId,
      "UPDATE bookings SET expires_at = ? WHERE id = ?",
      new Date(Date.now() - 1000).toISOString(),
      booking.id,
    );
    await store.scheduleJob(orgId, "booking_holds", Date.now());
    await runDurableObjectAlarm(store);
    const other = await newConversation(owner);
    const taken = await book(owner, {
      service_id: service.id,
      conversation_id: other,
      start: NINE,
    });
    expect(taken.status).toBe(201);
    await postWebhook(await playCustomer("stripe", "pay", payment, secret));
    expect((await paymentRow(orgId, payment)).status).toBe("paid");
    expect((await bookingStatus(orgId, booking.id)).status).toBe("cancelled");
    const [note] = await orgSql<Row>(
      orgId,
      "SELECT content FROM messages WHERE conversation_id = ? AND content LIKE 'Pago recibido%'",
      conversationId,
    );
    expect(note!.content).toBe(
      "Pago recibido: 20,00 EUR. La cita ya estaba cancelada y su hueco no está libre: reserva otra o devuelve el pago.",
    );
  });
});

describe("Mercado Pago's webhook", () => {
  it("asks Mercado Pago for the payment's status and marks it paid once", async () => {
    const { orgId, booking, payment, secret, conversationId } = await linkForBooking("mercadopago");
    const paid = await playCustomer("mercadopago", "pay", payment, secret);
    expect(paid.path).toContain(`organization=${orgId}`);
    const res = await postWebhook(paid);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toEqual({ received: true, changed: true });
    expect((await paymentRow(orgId, payment)).status).toBe("paid");
    expect((await bookingStatus(orgId, booking.id)).status).toBe("confirmed");
    expect((await postWebhook(paid)).body).toEqual({ received: true, changed: false });
    expect(await purchases(orgId, conversationId)).toHaveLength(1);

    const refund = await playCustomer("mercadopago", "refund", payment, secret);
    expect((await postWebhook(refund)).body).toEqual({ received: true, changed: true });
    expect((await paymentRow(orgId, payment)).status).toBe("refunded");
  });

  it("refuses a bad x-signature with 401 and changes nothing", async () => {
    const { orgId, payment, secret } = await linkForBooking("mercadopago");
    const paid = await playCustomer("mercadopago", "pay", payment, secret);
    const dataId = new URL(paid.path, "http://x").searchParams.get("data.id")!;
    const requestId = paid.headers["x-request-id"]!;
    const forged = await postWebhook(paid, {
      "x-signature": mercadoPagoSignature(dataId, requestId, "someone-else"),
    });
    expect(forged.status).toBe(401);
    const otherRequest = await postWebhook(paid, { "x-request-id": crypto.randomUUID() });
    expect(otherRequest.status).toBe(401);
    expect((await paymentRow(orgId, payment)).status).toBe("pending");
  });

  it("expires an unpaid link by the store's job (Mercado Pago says nothing), and a payment after it still counts", async () => {
    const { orgId, store, payment, secret, conversationId } = await linkForBooking("mercadopago");
    await orgSql(
      orgId,
      "UPDATE payments SET expires_at = ? WHERE id = ?",
      new Date(Date.now() - 1000).toISOString(),
      payment.id,
    );
    await store.scheduleJob(orgId, "payment_links", Date.now());
    await runDurableObjectAlarm(store);
    expect((await paymentRow(orgId, payment)).status).toBe("expired");
    const [note] = await orgSql<Row>(
      orgId,
      "SELECT content FROM messages WHERE conversation_id = ? AND content LIKE 'Enlace de pago%'",
      conversationId,
    );
    expect(note!.content).toBe("Enlace de pago caducado sin pagar: 20,00 EUR.");
    await postWebhook(await playCustomer("mercadopago", "pay", payment, secret));
    expect((await paymentRow(orgId, payment)).status).toBe("paid");
    expect(await purchases(orgId, conversationId)).toHaveLength(1);
  });

  it("marks a refused payment failed, and a later approval still pays it", async () => {
    const { orgId, payment, secret } = await linkForBooking("mercadopago");
    await postWebhook(await playCustomer("mercadopago", "reject", payment, secret));
    expect((await paymentRow(orgId, payment)).status).toBe("failed");
    await postWebhook(await playCustomer("mercadopago", "pay", payment, secret));
    expect((await paymentRow(orgId, payment)).status).toBe("paid");
  });
});

describe("two organizations", () => {
  it("an event signed by another organization's secret, or naming no organization, changes nothing", async () => {
    const a = await linkForBooking("stripe");
    const b = await createOwner();
    await readyToCharge(b, "stripe");
    const paid = await playCustomer("stripe", "pay", a.payment, webhookSecretOf(b.organization.id));
    // Signed with B's secret and sent to B: B has no such payment.
    const toB = await postWebhook({
      ...paid,
      path: `${paid.path}?organization=${b.organization.id}`,
    });
    expect(toB.status).toBe(200);
    expect(toB.body).toEqual({ received: true, changed: false });
    // Signed with B's secret, naming A (its metadata): A's secret refuses it.
    const toA = await postWebhook(paid);
    expect(toA.status).toBe(401);
    expect((await paymentRow(a.orgId, a.payment)).status).toBe("pending");
    const nowhere = await postWebhook({
      ...paid,
      path: `${paid.path}?organization=${crypto.randomUUID()}`,
    });
    expect(nowhere.status).toBe(401);
    expect(await orgSql(b.organization.id, "SELECT id FROM payments")).toEqual([]);
  });
});
