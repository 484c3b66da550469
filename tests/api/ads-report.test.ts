// The Anuncios tab's numbers (GET /tracking/ads): conversations started per ad from the
// webhook's ad clicks, leads and sales attributed through the click, spend read from the
// Marketing API's ad-level insights (kept per day), and the ratios, against hand-computed
// figures; another organization's ads are absent. What a view asks of Meta and writes is
// bounded and counted, and a span Meta failed on is not asked for again for a while.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { MAX_INSIGHT_PAGES } from "../../durable-objects/tracking/ads-service";
import {
  FAILED_LATELY,
  META_READS,
  READS_SPENT,
  WRITES_SPENT,
} from "../../durable-objects/tracking/daily-figures";
import { ORGANIZATION_WRITES } from "../../worker/http/write-limits";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { connectWhatsapp } from "../support/db";
import { createOwner } from "../support/factories";
import { advertiser, messageFromAd, setInsights } from "../support/ads";
import { book, createService, newConversation, NINE_TO_TEN, setHours } from "../support/bookings";
import { orgSql } from "../support/org-data";
import { answer, api } from "../support/api";
import { failNext, graphRequests } from "../support/webhooks";

const F = GRAPH_FIXTURES;
type Owner = Awaited<ReturnType<typeof createOwner>>;
const today = new Date().toISOString().slice(0, 10);
const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString().slice(0, 10);

const customerFromAd = (
  connection: { phoneNumberId: string },
  ad: { adId: string; headline: string },
) => messageFromAd(connection, ad).then(({ from }) => from);

const record = (
  owner: Owner,
  event_name: "lead" | "purchase",
  phone_number: string,
  value?: number,
) =>
  answer(
    api(owner.token).tracking.conversions.$post({
      json: {
        event_name,
        phone_number,
        ...(value !== undefined && { conversion_value: value, currency: "EUR" }),
      },
    }),
  );

const report = (owner: Owner, query: { date_from?: string; date_to?: string } = {}) =>
  answer(api(owner.token).tracking.ads.$get({ query }));

/** The Anuncios tab's report through the typed client. */
async function view(owner: Owner, query: { date_from: string; date_to: string }) {
  const res = await api(owner.token).tracking.ads.$get({ query });
  return { status: res.status, body: await res.json() };
}

/** Meta's insights requests for a period from or to that day (each test asks for its own). */
const insightsFrom = async (day: string) =>
  (await graphRequests("/insights")).filter((r) => JSON.stringify(r).includes(day)).length;

/** Meta's pricing analytics requests for a period starting that day. */
const pricingFrom = async (day: string) =>
  (await graphRequests(F.wabaId)).filter((r) =>
    String(r.query.fields).includes(`start(${Date.parse(`${day}T00:00:00Z`) / 1000})`),
  ).length;

/** A rate-limit window of the organization, as full as `count`. */
async function fillWindow(key: string, count: number) {
  await env.DB.prepare("INSERT OR REPLACE INTO rate_limits (key, count, reset_at) VALUES (?, ?, ?)")
    .bind(key, count, Date.now() + 600_000)
    .run();
}
const windowCount = async (key: string) =>
  (
    await env.DB.prepare("SELECT count FROM rate_limits WHERE key = ?")
      .bind(key)
      .first<{ count: number }>()
  )?.count ?? 0;

describe("ads report", () => {
  it("counts each ad's kept bookings: confirmed, not cancelled, by the click that brought them", async () => {
    const { owner, connection } = await advertiser();
    await setHours(owner, NINE_TO_TEN);
    const service = await createService(owner);
    const summer = { adId: "120200000000111", headline: "Blanqueamiento" };
    const winter = { adId: "120200000000222", headline: "Revisión" };
    const conversationOf = async (phone: string) =>
      (
        await orgSql<{ id: string }>(
          owner.organization.id,
          "SELECT id FROM conversations WHERE phone_number = ?",
          phone,
        )
      )[0]!.id;
    const kept = await conversationOf(await customerFromAd(connection, summer));
    const cancelled = await conversationOf(await customerFromAd(connection, summer));
    const fromWinter = await conversationOf(await customerFromAd(connection, winter));
    const fromNoAd = await newConversation(owner);
    const days = ["2031-01-07", "2031-01-08", "2031-01-09", "2031-01-10"];
    const made = [];
    for (const [i, conversation_id] of [kept, cancelled, fromWinter, fromNoAd].entries()) {
      const res = await book(owner, {
        service_id: service.id,
        conversation_id,
        start: `${days[i]}T08:00:00.000Z`,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
      made.push((res.body as { data: { id: string } }).data.id);
    }
    const cancel = await api(owner.token).bookings[":id"].$patch({
      param: { id: made[1]! },
      json: { status: "cancelled", reason: "No puede venir" },
    });
    expect(cancel.status).toBe(200);

    const { body } = await view(owner, { date_from: daysAgo(1), date_to: today });
    const bookingsOf = (adId: string) =>
      (body as { data: { ads: { ad_id: string; bookings: number }[] } }).data.ads.find(
        (ad) => ad.ad_id === adId,
      )?.bookings;
    expect(bookingsOf(summer.adId)).toBe(1);
    expect(bookingsOf(winter.adId)).toBe(1);
    // Another organization's booking from the same ad is not counted here.
    const other = await advertiser();
    await setHours(other.owner, NINE_TO_TEN);
    const theirs = await book(other.owner, {
      service_id: (await createService(other.owner)).id,
      conversation_id: (
        await orgSql<{ id: string }>(
          other.owner.organization.id,
          "SELECT id FROM conversations WHERE phone_number = ?",
          await customerFromAd(other.connection, summer),
        )
      )[0]!.id,
      start: "2031-01-07T08:00:00.000Z",
    });
    expect(theirs.status).toBe(201);
    const again = await view(owner, { date_from: daysAgo(1), date_to: today });
    expect(again.body).toEqual(body);
  });

  it("matches hand-computed conversations, leads, sales, revenue, spend and ratios", async () => {
    const { owner, connection } = await advertiser();
    const summer = { adId: "120200000000101", headline: "Oferta de verano" };
    const winter = { adId: "120200000000202", headline: "Rebajas de invierno" };
    const a1 = await customerFromAd(connection, summer);
    const a2 = await customerFromAd(connection, summer);
    await customerFromAd(connection, summer);
    await customerFromAd(connection, winter);
    // Summer: 3 conversations, 2 leads, 2 sales (120 + 30). Winter: 1 conversation, 0 leads.
    expect((await record(owner, "lead", a1)).status).toBe(201);
    expect((await record(owner, "lead", a2)).status).toBe(201);
    expect((await record(owner, "purchase", a1, 120)).status).toBe(201);
    expect((await record(owner, "purchase", a1, 30)).status).toBe(201);
    // A conversion not from an ad counts for no ad.
    expect((await record(owner, "purchase", "34911222333", 999)).status).toBe(201);
    await setInsights([
      { ad_id: summer.adId, ad_name: "Verano", date: daysAgo(1), spend: 40 },
      { ad_id: summer.adId, ad_name: "Verano", date: today, spend: 10.5 },
      { ad_id: winter.adId, ad_name: "Invierno", date: today, spend: 20 },
      // Spent, but no conversation yet: still a row, so money that brought nothing shows.
      { ad_id: "120200000000303", ad_name: "Primavera", date: today, spend: 5 },
      // Outside the range asked for.
      { ad_id: summer.adId, ad_name: "Verano", date: daysAgo(40), spend: 1000 },
    ]);

    const res = await report(owner, { date_from: daysAgo(6), date_to: today });
    expect(res.status).toBe(200);
    expect(res.body.data.currency).toBe("EUR");
    expect(res.body.data.spend_error).toBeUndefined();
    expect(res.body.data.ads).toEqual([
      {
        ad_id: summer.adId,
        headline: "Oferta de verano",
        source_url: "https://fb.me/abc",
        conversations: 3,
        leads: 2,
        bookings: 0,
        sales: 2,
        revenue: 150,
        spend: 50.5,
        message_cost: 0,
        profit: 150 - 50.5,
        cost_per_conversation: 50.5 / 3,
        cost_per_lead: 50.5 / 2,
        roas: 150 / 50.5,
      },
      {
        ad_id: winter.adId,
        headline: "Rebajas de invierno",
        source_url: "https://fb.me/abc",
        conversations: 1,
        leads: 0,
        bookings: 0,
        sales: 0,
        revenue: 0,
        spend: 20,
        message_cost: 0,
        profit: -20,
        cost_per_conversation: 20,
        cost_per_lead: null,
        roas: 0,
      },
      {
        ad_id: "120200000000303",
        headline: "Primavera",
        source_url: null,
        conversations: 0,
        leads: 0,
        bookings: 0,
        sales: 0,
        revenue: 0,
        spend: 5,
        message_cost: 0,
        profit: -5,
        cost_per_conversation: null,
        cost_per_lead: null,
        roas: 0,
      },
    ]);

    // The spend is kept per day: a second view in the same hour does not ask Meta again.
    const asked = (await graphRequests("/insights")).length;
    await report(owner, { date_from: daysAgo(6), date_to: today });
    expect((await graphRequests("/insights")).length).toBe(asked);

    // Another organization sees none of these ads.
    const other = await createOwner();
    const theirs = await report(other);
    expect(theirs.body.data.ads).toEqual([]);
  });

  it("reads every page of insights, and keeps the last figures when Meta fails", async () => {
    const { owner, connection } = await advertiser();
    const ad = { adId: "120200000000404", headline: "Muchas filas" };
    await customerFromAd(connection, ad);
    // 30 days × 20 ads = 600 rows: more than one page of 500.
    const rows = [];
    for (let d = 0; d < 30; d++) {
      for (let i = 0; i < 20; i++) {
        rows.push({
          ad_id: i === 0 ? ad.adId : `1202000000005${String(i).padStart(2, "0")}`,
          ad_name: `Anuncio ${i}`,
          date: daysAgo(d),
          spend: 1,
        });
      }
    }
    await setInsights(rows);
    const res = await report(owner, { date_from: daysAgo(29), date_to: today });
    expect(res.body.data.ads).toHaveLength(20);
    const row = res.body.data.ads.find((a: { ad_id: string }) => a.ad_id === ad.adId);
    expect(row).toMatchObject({ conversations: 1, spend: 30, cost_per_conversation: 30 });

    // Days before the range already kept are not asked for again; a failing Meta keeps them.
    await failNext("graph", {
      path: `/v25.0/${F.adAccountId}/insights`,
      status: 500,
      error: { message: "boom", code: 2 },
    });
    const longer = await report(owner, { date_from: daysAgo(35), date_to: today });
    expect(longer.status).toBe(200);
    expect(longer.body.data.spend_error).toEqual(expect.any(String));
    expect(longer.body.data.ads.find((a) => a.ad_id === ad.adId)!.spend).toBe(30);

    // The failure is remembered a while: the next views of the period do not ask Meta again.
    const asked = await insightsFrom(daysAgo(35));
    const again = await view(owner, { date_from: daysAgo(35), date_to: today });
    expect(again.body.data.spend_error).toBe(FAILED_LATELY);
    expect(again.body.data.ads.find((a) => a.ad_id === ad.adId)?.spend).toBe(30);
    expect(await insightsFrom(daysAgo(35))).toBe(asked);
  });

  it("has no spend or ratios without an ad account, and refuses bad dates", async () => {
    const owner = await createOwner();
    const connection = await connectWhatsapp(owner.organization.id, {
      businessAccountId: F.wabaId,
    });
    await customerFromAd(connection, { adId: "120200000000606", headline: "Sin cuenta" });
    const res = await report(owner);
    expect(res.body.data.ads).toEqual([
      expect.objectContaining({
        ad_id: "120200000000606",
        conversations: 1,
        spend: null,
        cost_per_conversation: null,
        cost_per_lead: null,
        roas: null,
      }),
    ]);
    expect((await report(owner, { date_from: "ayer" })).status).toBe(400);
  });

  it("refuses a period longer than Meta's 90 days, and stops reading past its pages", async () => {
    const { owner, connection } = await advertiser();
    const tooLong = await report(owner, { date_from: daysAgo(90), date_to: today });
    expect(tooLong.status).toBe(400);
    expect(JSON.stringify(tooLong.body)).toContain("El periodo no puede superar 90 días.");
    expect((await report(owner, { date_from: daysAgo(89), date_to: today })).status).toBe(200);

    // 21 pages of 500 rows on one day: the view reads its pages, says so, and keeps nothing
    // partial; with the message costs' one call, it asks Meta at most five times.
    const ad = { adId: "120200000000707", headline: "Demasiados" };
    await customerFromAd(connection, ad);
    const day = daysAgo(95);
    const rows = Array.from({ length: 10_500 }, (_, i) => ({
      ad_id: i === 0 ? ad.adId : `1203${String(i).padStart(11, "0")}`,
      ad_name: `Anuncio ${i}`,
      date: day,
      spend: 1,
    }));
    await setInsights(rows);
    const res = await report(owner, { date_from: day, date_to: day });
    expect(res.status).toBe(200);
    expect(res.body.data.spend_error).toBe(
      "Meta devolvió demasiados anuncios para este periodo: elige un periodo más corto.",
    );
    expect(await insightsFrom(day)).toBe(MAX_INSIGHT_PAGES);
    expect((await insightsFrom(day)) + (await pricingFrom(day))).toBeLessThanOrEqual(5);
    expect(res.body.data.ads).toEqual([]);

    // Reloading the same period does not read those pages again for a while.
    const again = await view(owner, { date_from: day, date_to: day });
    expect(again.body.data.spend_error).toBe(FAILED_LATELY);
    expect(await insightsFrom(day)).toBe(MAX_INSIGHT_PAGES);
  });

  it("asks Meta nothing once the organization's Meta calls or writes are spent, and says so", async () => {
    const { owner, connection } = await advertiser();
    const organizationId = owner.organization.id;
    await customerFromAd(connection, { adId: "120200000000909", headline: "Sin cupo" });
    const period = { date_from: daysAgo(25), date_to: today };

    // Meta calls of the organization's window spent (other views of its members used them).
    await fillWindow(`meta-reads:org:${organizationId}`, META_READS.max);
    const noCalls = await view(owner, period);
    expect(noCalls.status).toBe(200);
    expect(noCalls.body.data).toMatchObject({
      spend_error: READS_SPENT,
      message_cost_error: READS_SPENT,
      ads: [expect.objectContaining({ ad_id: "120200000000909", conversations: 1 })],
    });
    expect(await insightsFrom(daysAgo(25))).toBe(0);

    // Figures read from Meta are writes: with the organization's writes spent, none are read.
    await env.DB.prepare("DELETE FROM rate_limits WHERE key = ?")
      .bind(`meta-reads:org:${organizationId}`)
      .run();
    await fillWindow(`writes:org:${organizationId}`, ORGANIZATION_WRITES.max);
    const noWrites = await view(owner, period);
    expect(noWrites.body.data).toMatchObject({
      spend_error: WRITES_SPENT,
      message_cost_error: WRITES_SPENT,
    });
    expect(await insightsFrom(daysAgo(25))).toBe(0);

    // With room again, the view reads and keeps them, counting its writes and Meta calls.
    await env.DB.prepare("DELETE FROM rate_limits WHERE key = ?")
      .bind(`writes:org:${organizationId}`)
      .run();
    const read = await view(owner, period);
    expect(read.body.data.spend_error).toBeUndefined();
    expect(read.body.data.message_cost_error).toBeUndefined();
    expect(await insightsFrom(daysAgo(25))).toBe(1);
    // Spend and message costs: a write each, and a Meta call each.
    expect(await windowCount(`writes:org:${organizationId}`)).toBe(2);
    expect(await windowCount(`meta-reads:org:${organizationId}`)).toBe(2);
  });
});
