// Payment links (contract section 18, decisions 0091-0093): connecting a provider (checked
// with it first, sealed, never returned; owners and admins), and sending a link: validated
// against the organization's own data (currency, max_payment_amount, a booking's own amount),
// `Idempotency-Key` honoured, a provider's failure keeping nothing; both providers' wire
// formats; the "Pagar" button through WhatsApp; two organizations never meet.
import { describe, expect, it } from "vitest";
import { api, answer } from "../support/api";
import {
  book,
  bookingOf,
  bookingOrganization,
  newConversation,
  patchOrganization,
} from "../support/bookings";
import { addMember, createConversation, createOwner } from "../support/factories";
import { orgSql } from "../support/org-data";
import { graphRequests } from "../support/webhooks";
import { REFUSED_STRIPE_KEY } from "../fakes/stripe-server.mjs";
import { REFUSED_MERCADOPAGO_TOKEN } from "../fakes/mercadopago-server.mjs";
import {
  chargeable,
  connectProvider,
  failProvider,
  paymentOf,
  providerRequests,
  readyToCharge,
  sendLink,
} from "../support/payments";

type Row = Record<string, any>;
const NINE = "2031-01-07T08:00:00.000Z";

const integrationOf = async (token: string) =>
  (await answer(api(token).integrations.payments.$get())).body as { data: any };

async function chargingOrganization(provider: "stripe" | "mercadopago" = "stripe") {
  const org = await bookingOrganization({ price: "50", payment: "deposit", deposit: "20" });
  await readyToCharge(org.owner, provider);
  const conversationId = await newConversation(org.owner);
  await chargeable(org.owner, conversationId);
  return { ...org, conversationId };
}

describe("connecting a provider", () => {
  it("checks the key with Stripe, keeps it sealed and never returns it", async () => {
    const owner = await createOwner();
    const refused = await connectProvider(owner, "stripe", { secret: REFUSED_STRIPE_KEY });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      error: "invalid_payment_key",
      message: "Stripe no aceptó la clave secreta: revísala y vuelve a intentarlo.",
    });
    expect((await integrationOf(owner.token)).data).toBeNull();
    expect(await orgSql(owner.organization.id, "SELECT * FROM payment_settings")).toEqual([]);

    const secret = "sk_test_clinica_sonrisa";
    const res = await connectProvider(owner, "stripe", { secret, webhook_secret: "whsec_abc" });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const read = await integrationOf(owner.token);
    expect(read.data).toMatchObject({
      provider: "stripe",
      account_id: expect.stringMatching(/^acct_/),
      connected_by: owner.user.id,
      webhook_url: `http://localhost:5173/webhooks/payments/stripe?organization=${owner.organization.id}`,
    });
    expect(JSON.stringify([res.body, read])).not.toMatch(/sk_test_clinica|whsec_abc/);
    const [row] = await orgSql<Row>(owner.organization.id, "SELECT * FROM payment_settings");
    expect(row!.secret_encrypted).toMatch(/^v1\./);
    expect(JSON.stringify(row)).not.toMatch(/sk_test_clinica|whsec_abc/);
    const [checked] = await providerRequests("stripe", "/v1/account").then((all) =>
      all.filter((r) => r.headers.authorization === `Bearer ${secret}`),
    );
    expect(checked).toBeDefined();
    const audit = await orgSql<Row>(
      owner.organization.id,
      "SELECT metadata FROM audit_events WHERE action = 'organization.update'",
    );
    expect(audit.map((a) => JSON.parse(a.metadata))).toContainEqual(
      expect.objectContaining({ fields: ["payments"], provider: "stripe" }),
    );

    const removed = await answer(api(owner.token).integrations.payments.$delete());
    expect(removed.status).toBe(200);
    expect((await integrationOf(owner.token)).data).toBeNull();
    expect((await answer(api(owner.token).integrations.payments.$delete())).status).toBe(404);
  });

  it("checks a Mercado Pago token with /users/me", async () => {
    const owner = await createOwner();
    const refused = await connectProvider(owner, "mercadopago", {
      secret: REFUSED_MERCADOPAGO_TOKEN,
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({ error: "invalid_payment_key" });
    const res = await connectProvider(owner, "mercadopago");
    expect(res.status).toBe(200);
    expect((await integrationOf(owner.token)).data).toMatchObject({ provider: "mercadopago" });
  });

  it("is for owners and admins; every member sees whether one is connected", async () => {
    const owner = await createOwner();
    const admin = await addMember(owner.organization.id, "admin");
    const agent = await addMember(owner.organization.id, "agent");
    expect((await connectProvider({ ...owner, token: agent.token }, "stripe")).status).toBe(403);
    expect((await answer(api(agent.token).integrations.payments.$delete())).status).toBe(403);
    expect((await connectProvider({ ...owner, token: admin.token }, "stripe")).status).toBe(200);
    expect((await integrationOf(agent.token)).data).toMatchObject({ provider: "stripe" });
  });

  it("refuses bad input in Spanish and keeps nothing", async () => {
    const owner = await createOwner();
    const res = await answer(
      api(owner.token).integrations.payments.$put({
        json: { provider: "paypal", secret: "", webhook_secret: "x" } as never,
      }),
    );
    expect(res.status).toBe(422);
    const details = (res.body as unknown as { details: { path: string }[] }).details.map(
      (d) => d.path,
    );
    expect(details).toEqual(expect.arrayContaining(["provider", "secret"]));
    expect(await orgSql(owner.organization.id, "SELECT * FROM payment_settings")).toEqual([]);
  });
});

describe("sending a link", () => {
  it("opens a Stripe Checkout Session and sends its URL as a Pagar button", async () => {
    const { owner, conversationId } = await chargingOrganization();
    const res = await sendLink(owner, conversationId, {
      amount: "25.50",
      currency: "EUR",
      description: "Blanqueamiento",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const payment = paymentOf(res);
    expect(payment).toMatchObject({
      conversation_id: conversationId,
      booking_id: null,
      provider: "stripe",
      provider_ref: expect.stringMatching(/^cs_test_/),
      amount: "25.50",
      currency: "EUR",
      status: "pending",
      paid_at: null,
    });
    const [session] = (await providerRequests("stripe", "/v1/checkout/sessions")).filter((r) =>
      String(r.body).includes(payment.id),
    );
    const form = new URLSearchParams(session.body);
    expect(session.headers["content-type"]).toContain("application/x-www-form-urlencoded");
    expect(form.get("mode")).toBe("payment");
    expect(form.get("line_items[0][price_data][unit_amount]")).toBe("2550");
    expect(form.get("line_items[0][price_data][currency]")).toBe("eur");
    expect(form.get("metadata[payment_id]")).toBe(payment.id);
    expect(Number(form.get("expires_at")) * 1000).toBe(
      Date.parse(payment.expires_at) - (Date.parse(payment.expires_at) % 1000),
    );

    const [sent] = (await graphRequests("/messages")).filter((r) =>
      JSON.stringify(r.body).includes(payment.url),
    );
    expect(sent.body).toMatchObject({
      type: "interactive",
      interactive: {
        type: "cta_url",
        action: { name: "cta_url", parameters: { display_text: "Pagar", url: payment.url } },
      },
    });
    const list = await answer(
      api(owner.token).conversations[":id"].payments.$get({ param: { id: conversationId } }),
    );
    expect((list.body as { data: unknown[] }).data).toMatchObject([{ id: payment.id }]);
  });

  it("opens a Mercado Pago preference that names the payment and where to notify", async () => {
    const { owner, orgId, conversationId } = await chargingOrganization("mercadopago");
    const res = await sendLink(owner, conversationId, {
      amount: "20",
      currency: "EUR",
      description: "Señal",
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const payment = paymentOf(res);
    expect(payment.url).toContain(payment.provider_ref);
    const [preference] = (await providerRequests("mercadopago", "/checkout/preferences")).filter(
      (r) => r.body?.external_reference === payment.id,
    );
    expect(preference.body).toMatchObject({
      items: [{ unit_price: 20, currency_id: "EUR", quantity: 1 }],
      notification_url: `http://localhost:5173/webhooks/payments/mercadopago?organization=${orgId}`,
      expiration_date_to: payment.expires_at,
    });
  });

  it("is checked against the organization's currency, maximum and connection", async () => {
    const { owner, orgId, conversationId } = await chargingOrganization();
    const link = { amount: "10", currency: "EUR", description: "Consulta" };
    const wrongCurrency = await sendLink(owner, conversationId, { ...link, currency: "USD" });
    expect(wrongCurrency.status).toBe(422);
    expect(wrongCurrency.body).toMatchObject({ details: [{ path: "currency" }] });
    const tooMuch = await sendLink(owner, conversationId, { ...link, amount: "1000.01" });
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body).toMatchObject({ details: [{ path: "amount" }] });
    const bad = await sendLink(owner, conversationId, { amount: "-3", currency: "EUR" } as never);
    expect(bad.status).toBe(422);

    const raised = await patchOrganization(owner, { max_payment_amount: 1500 });
    expect(raised.status).toBe(200);
    expect(raised.body).toMatchObject({ data: { max_payment_amount: 1500 } });
    expect((await sendLink(owner, conversationId, { ...link, amount: "1000.01" })).status).toBe(
      201,
    );
    expect((await patchOrganization(owner, { max_payment_amount: -1 })).status).toBe(422);

    await answer(api(owner.token).integrations.payments.$delete());
    const unconnected = await sendLink(owner, conversationId, link);
    expect(unconnected.status).toBe(422);
    expect(unconnected.body).toMatchObject({ error: "payments_not_connected" });
    expect(await orgSql(orgId, "SELECT id FROM payments")).toHaveLength(1);
  });

  it("answers a retry with the same Idempotency-Key with the same payment, once", async () => {
    const { owner, orgId, conversationId } = await chargingOrganization();
    const link = { amount: "30", currency: "EUR", description: "Revisión" };
    const key = `link-${crypto.randomUUID()}`;
    const first = paymentOf(await sendLink(owner, conversationId, link, key));
    const again = await sendLink(owner, conversationId, link, key);
    expect(again.status).toBe(201);
    expect(paymentOf(again)).toEqual(first);
    expect(await orgSql(orgId, "SELECT id FROM payments")).toHaveLength(1);
    const other = await sendLink(owner, conversationId, { ...link, amount: "31" }, key);
    expect(other.status).toBe(422);
    expect(other.body).toMatchObject({ error: "idempotency_key_reused" });
  });

  it("keeps nothing when the provider fails, and the same key can try again", async () => {
    const { owner, orgId, conversationId } = await chargingOrganization();
    const description = `Ortodoncia ${crypto.randomUUID()}`;
    await failProvider("stripe", {
      path: "/v1/checkout/sessions",
      status: 500,
      contains: encodeURIComponent(description).replaceAll("%20", "+"),
    });
    const link = { amount: "40", currency: "EUR", description };
    const key = `link-${crypto.randomUUID()}`;
    const failed = await sendLink(owner, conversationId, link, key);
    expect(failed.status).toBe(502);
    expect(failed.body).toMatchObject({ error: "payment_provider_error" });
    expect((failed.body as { message: string }).message).toMatch(/^Stripe no pudo crear el enlace/);
    expect(await orgSql(orgId, "SELECT id FROM payments")).toEqual([]);
    expect(await orgSql(orgId, "SELECT id FROM messages WHERE type = 'interactive'")).toEqual([]);
    const retried = await sendLink(owner, conversationId, link, key);
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    expect(await orgSql(orgId, "SELECT id FROM payments")).toHaveLength(1);
  });

  it("asks a booking's own deposit, and keeps the booking held while the link can be paid", async () => {
    const { owner, orgId, service, conversationId } = await chargingOrganization();
    const booking = bookingOf(
      await book(owner, { service_id: service.id, conversation_id: conversationId, start: NINE }),
    );
    expect(booking.status).toBe("pending_payment");
    const link = { currency: "EUR", description: "Señal de la cita", booking_id: booking.id };
    const price = await sendLink(owner, conversationId, { ...link, amount: "50" });
    expect(price.status).toBe(422);
    expect(price.body).toMatchObject({
      details: [{ path: "amount", message: expect.stringContaining("20,00 EUR") }],
    });
    const other = await createConversation(owner);
    const elsewhere = await sendLink(owner, other.id, { ...link, amount: "20" });
    expect(elsewhere.status).toBe(422);
    expect(elsewhere.body).toMatchObject({ details: [{ path: "booking_id" }] });

    const res = await sendLink(owner, conversationId, { ...link, amount: "20.00" });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const payment = paymentOf(res);
    expect(payment.booking_id).toBe(booking.id);
    const [held] = await orgSql<Row>(
      orgId,
      "SELECT expires_at FROM bookings WHERE id = ?",
      booking.id,
    );
    expect(held!.expires_at >= payment.expires_at).toBe(true);
  });

  it("needs the customer's window open, before the provider is asked", async () => {
    const { owner, orgId } = await bookingOrganization();
    await readyToCharge(owner, "stripe");
    const conversationId = await newConversation(owner);
    const res = await sendLink(owner, conversationId, {
      amount: "10",
      currency: "EUR",
      description: "Consulta",
    });
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: "window_closed" });
    expect(await orgSql(orgId, "SELECT id FROM payments")).toEqual([]);
  });
});

describe("two organizations", () => {
  it("never see each other's payments or provider", async () => {
    const a = await chargingOrganization();
    const payment = paymentOf(
      await sendLink(a.owner, a.conversationId, {
        amount: "15",
        currency: "EUR",
        description: "Limpieza",
      }),
    );
    const b = await createOwner();
    expect((await integrationOf(b.token)).data).toBeNull();
    const list = await answer(
      api(b.token).conversations[":id"].payments.$get({ param: { id: a.conversationId } }),
    );
    expect(list.status).toBe(404);
    await readyToCharge(b, "stripe");
    const stolen = await sendLink(b, a.conversationId, {
      amount: "15",
      currency: "EUR",
      description: "Limpieza",
    });
    expect(stolen.status).toBe(404);
    expect(await orgSql(b.organization.id, "SELECT id FROM payments")).toEqual([]);
    expect(JSON.stringify(list.body)).not.toContain(payment.id);
  });
});
