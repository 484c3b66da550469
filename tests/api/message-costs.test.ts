// What messages cost (server-contract §13): Meta's pricing analytics kept per day, category
// and country; each billable message of an ad's conversations costs its day's unit cost for
// its category and customer's country; the Anuncios tab's message cost and profit, and the
// dashboard's period total, against hand-computed figures. Only the organization's own number
// of a shared WhatsApp Business Account is read, and a large answer is kept in bounded batches.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { delivery, statusUpdate } from "../fakes/whatsapp-payloads.mjs";
import { advertiser, messageFromAd, setInsights } from "../support/ads";
import { createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { orgFirst } from "../support/org-data";
import { deliver, failNext, graphRequests } from "../support/webhooks";

type Owner = Awaited<ReturnType<typeof createOwner>>;
type Connection = { phoneNumberId: string };
const today = new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);
const monthStart = `${today.slice(0, 8)}01`;

/** Numbers of the fake account other than the fixtures' (digits, as analytics name them). */
const SHOP_A = "34611111111";
const SHOP_B = "34622222222";
const BUSY = "34633333333";
/** The busy number's figures: 60 days of two categories in 50 countries (6,000 rows kept). */
const BUSY_DAYS = 60;
const BUSY_COUNTRIES = Array.from({ length: 50 }, (_, i) =>
  String.fromCharCode(65 + Math.floor(i / 26), 65 + (i % 26)),
);

/**
 * Meta's figures for the fake account, set once for the file (other files read only the
 * fixtures' number, and set none): on the fixtures' number, service in Spain at 0.02 a
 * message and in Mexico at 0.01, today; free messages (no cost) beside them; marketing only on
 * an older day. Other numbers of the same account have figures of their own.
 */
beforeAll(async () => {
  const busy = Array.from({ length: BUSY_DAYS }, (_, d) =>
    BUSY_COUNTRIES.flatMap((country) =>
      ["service", "marketing"].map((category) => ({
        date: daysAgo(d),
        phone: BUSY,
        category,
        country,
        volume: 1,
        cost: 0.01,
      })),
    ),
  ).flat();
  await fetch(`${new URL(env.META_GRAPH_URL).origin}/__fake/pricing`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({
      points: [
        ...busy,
        { date: today, phone: SHOP_A, category: "service", country: "ES", volume: 3, cost: 0.3 },
        { date: today, phone: SHOP_B, category: "marketing", country: "ES", volume: 5, cost: 2.5 },
        { date: today, category: "service", country: "ES", volume: 4, cost: 0.08 },
        { date: today, category: "service", country: "MX", volume: 2, cost: 0.02 },
        {
          date: today,
          category: "service",
          type: "free_customer_service",
          country: "ES",
          volume: 9,
          cost: 0,
        },
        { date: daysAgo(3), category: "marketing", country: "ES", volume: 10, cost: 0.6 },
      ],
    }),
  });
});

/** An advertiser whose number (one of the fake account's) is `digits`. */
async function advertiserWithNumber(digits: string) {
  const { owner, connection } = await advertiser();
  await env.DB.prepare("UPDATE whatsapp_connections SET phone_number = ? WHERE id = ?")
    .bind(`+${digits}`, connection.id)
    .run();
  return owner;
}

const organizationWrites = async (owner: Owner) =>
  (
    await env.DB.prepare("SELECT count FROM rate_limits WHERE key = ?")
      .bind(`writes:org:${owner.organization.id}`)
      .first<{ count: number }>()
  )?.count ?? 0;

async function conversationOf(owner: Owner, phone: string) {
  const res = await answer(api(owner.token).conversations.$get({ query: { search: phone } }));
  return res.body.data.conversations[0] as { id: string };
}

/** A reply from the console whose `sent` status carries Meta's pricing. */
async function pricedReply(
  owner: Owner,
  connection: Connection,
  phone: string,
  pricing: { billable: boolean; category: string; type: string },
) {
  const conversation = await conversationOf(owner, phone);
  const sent = await answer(
    api(owner.token).conversations.messages.$post({
      json: { conversation_id: conversation.id, content: `Hola ${crypto.randomUUID()}` },
    }),
  );
  expect(sent.status).toBe(201);
  const { wamid } = (await orgFirst<{ wamid: string }>(
    owner.organization.id,
    "SELECT wamid FROM messages WHERE id = ?",
    sent.body.data.id,
  ))!;
  await deliver(
    delivery(
      statusUpdate({
        phoneNumberId: connection.phoneNumberId,
        id: wamid,
        recipientId: phone,
        status: "sent",
        pricing: { pricing_model: "PMP", ...pricing },
      }),
    ),
  );
}

const billed = { billable: true, category: "service", type: "regular" };
type Range = { date_from: string; date_to: string };
/** The Anuncios tab's report and the dashboard's costs, through the typed client. */
async function report(owner: Owner, query: Range) {
  const res = await api(owner.token).tracking.ads.$get({ query });
  return { status: res.status, body: await res.json() };
}
async function costs(owner: Owner, query: Range) {
  const res = await api(owner.token).tracking["message-costs"].$get({ query });
  return { status: res.status, body: await res.json() };
}

describe("message costs", () => {
  it("prices each ad's billable messages by category and country, and gives its profit", async () => {
    const { owner, connection } = await advertiser();
    const summer = { adId: "120200000000811", headline: "Verano" };
    const winter = { adId: "120200000000822", headline: "Invierno" };
    const { from: spain } = await messageFromAd(connection, summer);
    const { from: mexico } = await messageFromAd(connection, summer, "5215512345678");
    const { from: free } = await messageFromAd(connection, winter);
    await pricedReply(owner, connection, spain, billed);
    await pricedReply(owner, connection, spain, billed);
    await pricedReply(owner, connection, mexico, billed);
    await pricedReply(owner, connection, free, {
      billable: false,
      category: "service",
      type: "free_customer_service",
    });
    const purchase = await answer(
      api(owner.token).tracking.conversions.$post({
        json: {
          event_name: "purchase",
          phone_number: spain,
          conversion_value: 100,
          currency: "EUR",
        },
      }),
    );
    expect(purchase.status).toBe(201);
    await setInsights([
      { ad_id: summer.adId, ad_name: "Verano", date: today, spend: 10 },
      { ad_id: winter.adId, ad_name: "Invierno", date: today, spend: 4 },
    ]);

    const res = await report(owner, { date_from: today, date_to: today });
    expect(res.status).toBe(200);
    const row = (adId: string) => {
      const found = res.body.data.ads.find((ad) => ad.ad_id === adId);
      if (!found) throw new Error(`no row for ad ${adId}`);
      return found;
    };
    // Two Spanish service messages at 0.02 and one Mexican at 0.01.
    expect(row(summer.adId).message_cost).toBeCloseTo(0.05, 10);
    expect(row(summer.adId).profit).toBeCloseTo(100 - 10 - 0.05, 10);
    expect(row(winter.adId)).toMatchObject({ message_cost: 0, profit: -4 });
    expect(res.body.data.message_cost_total).toBeCloseTo(0.05, 10);
    expect(res.body.data.message_cost_error).toBeUndefined();

    // The day is kept: a second view within the hour does not ask Meta again.
    const asked = (await graphRequests(GRAPH_FIXTURES.wabaId)).filter((r) =>
      JSON.stringify(r).includes("pricing_analytics"),
    ).length;
    await report(owner, { date_from: today, date_to: today });
    const askedAgain = (await graphRequests(GRAPH_FIXTURES.wabaId)).filter((r) =>
      JSON.stringify(r).includes("pricing_analytics"),
    ).length;
    expect(askedAgain).toBe(asked);
  });

  it("says a cost is not known yet instead of showing 0, and keeps the last figures when Meta fails", async () => {
    const { owner, connection } = await advertiser();
    const ad = { adId: "120200000000833", headline: "Sin precio" };
    const { from } = await messageFromAd(connection, ad);
    // Meta has no marketing figure for today yet.
    await pricedReply(owner, connection, from, { ...billed, category: "marketing" });
    await setInsights([{ ad_id: ad.adId, ad_name: "Sin precio", date: today, spend: 7 }]);
    const res = await report(owner, { date_from: today, date_to: today });
    expect(res.body.data.ads).toEqual([
      expect.objectContaining({ ad_id: ad.adId, spend: 7, message_cost: null, profit: -7 }),
    ]);
    expect(res.body.data.message_cost_total).toBeNull();

    // Meta failing: the report still answers, with the figures kept and Meta's refusal.
    await failNext("graph", {
      path: `/v25.0/${GRAPH_FIXTURES.wabaId}`,
      contains: "",
      status: 500,
      error: { message: "boom", code: 2 },
    });
    const failed = await report(owner, { date_from: daysAgo(5), date_to: today });
    expect(failed.status).toBe(200);
    expect(failed.body.data.message_cost_error).toEqual(expect.any(String));
  });

  it("gives the period's total per category as Meta reports it, for the dashboard", async () => {
    const { owner } = await advertiser();
    const res = await costs(owner, { date_from: daysAgo(6), date_to: today });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ currency: "EUR", billable_messages: 16 });
    expect(res.body.data.total).toBeCloseTo(0.7, 10);
    expect(res.body.data.by_category.service).toBeCloseTo(0.1, 10);
    expect(res.body.data.by_category.marketing).toBeCloseTo(0.6, 10);
    const month = await costs(owner, { date_from: monthStart, date_to: today });
    expect(month.body.data.total).toBeGreaterThan(0);

    // Without a WhatsApp number there is nothing to read: not known, not 0.
    const other = await createOwner();
    const none = await costs(other, { date_from: daysAgo(6), date_to: today });
    expect(none.body.data).toMatchObject({ total: null, billable_messages: 0, by_category: {} });
    // And another organization never sees this one's costs.
    expect(JSON.stringify(none.body)).not.toContain("0.6");

    const tooLong = await costs(owner, { date_from: daysAgo(120), date_to: today });
    expect(tooLong.status).toBe(400);
  });

  it("covers only the organization's own number when its WhatsApp Business Account is shared", async () => {
    // Two organizations, each with its own number of the same account.
    const shopA = await advertiserWithNumber(SHOP_A);
    const shopB = await advertiserWithNumber(SHOP_B);
    const day = { date_from: today, date_to: today };
    const a = await costs(shopA, day);
    const b = await costs(shopB, day);
    expect(a.body.data).toMatchObject({ billable_messages: 3, by_category: { service: 0.3 } });
    expect(a.body.data.total).toBeCloseTo(0.3, 10);
    expect(b.body.data).toMatchObject({ billable_messages: 5, by_category: { marketing: 2.5 } });
    expect(b.body.data.total).toBeCloseTo(2.5, 10);
    for (const asked of (await graphRequests(GRAPH_FIXTURES.wabaId)).filter((r) =>
      JSON.stringify(r).includes("pricing_analytics"),
    )) {
      expect(asked.query.fields).toMatch(/\.phone_numbers\(\["\d+"\]\)/);
    }

    // A connection whose number is not known reads nothing rather than the whole account.
    const { owner: unknown, connection } = await advertiser();
    await env.DB.prepare("UPDATE whatsapp_connections SET phone_number = NULL WHERE id = ?")
      .bind(connection.id)
      .run();
    const none = await costs(unknown, day);
    expect(none.body.data).toMatchObject({ total: null, error: expect.any(String) });
  });

  it("keeps a large answer whole, in bounded batches each counted as a write", async () => {
    const owner = await advertiserWithNumber(BUSY);
    const res = await costs(owner, { date_from: daysAgo(BUSY_DAYS - 1), date_to: today });
    expect(res.body.data.error).toBeUndefined();
    expect(res.body.data.billable_messages).toBe(BUSY_DAYS * BUSY_COUNTRIES.length * 2);
    expect(res.body.data.total).toBeCloseTo(BUSY_DAYS * BUSY_COUNTRIES.length * 2 * 0.01, 6);
    // 6,000 rows at 14 a statement, at most 50 statements a batch: nine batches or more.
    expect(await organizationWrites(owner)).toBeGreaterThanOrEqual(Math.ceil(6000 / 14 / 50));
  });
});
