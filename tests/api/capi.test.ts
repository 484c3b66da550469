// Hand-built requests here are the subject: bodies invalid on purpose.
// Conversions API: what reaches Meta, field by field, through the local Graph fake.
import { eq } from "drizzle-orm";
import type { InferRequestType } from "hono/client";
import { describe, expect, it } from "vitest";
import { conversions } from "../../durable-objects/schema";
import { sha256Hex } from "../../worker/auth/tokens";
import { fbcOf, normalizePhone } from "../../durable-objects/tracking/capi-events";
import { sendDueConversions } from "../../durable-objects/tracking/capi-service";
import {
  PUBLIC_KEY_EVENTS,
  type Conversion,
  type RecordedConversion,
} from "../../contracts/tracking";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { connectWhatsapp, db } from "../support/db";
import { createOwner, randomIp } from "../support/factories";
import { messageFromAd, settledConversion } from "../support/ads";
import { answer, api } from "../support/api";
import { call } from "../support/http";
import { withOrgDb, withStoreDeps } from "../support/org-data";
import { customerPhone, failNext, graphRequests } from "../support/webhooks";

const F = GRAPH_FIXTURES;

/**
 * A member's recorded conversion. The route's type names only what the page's public key is
 * answered (id and event): the member's whole conversion is a subtype of it, so the union of
 * the two answers reduces to the smaller one.
 */
const asMember = (data: RecordedConversion) => data as Conversion;
type ConversionInput = InferRequestType<
  ReturnType<typeof api>["tracking"]["conversions"]["$post"]
>["json"];
const BROWSER = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1";

async function ownerWithPixel() {
  const owner = await createOwner();
  const pixel = await answer(
    api(owner.token)["meta-config"].$post({
      json: { pixel_id: F.pixelId, access_token: "test-access-token" },
    }),
  );
  expect(pixel.status).toBe(201);
  return owner;
}

/** The event Meta received with this event_id, and the request that carried it. */
async function sentEvent(eventId: string) {
  const requests = await graphRequests("/events");
  for (const request of requests) {
    const event = request.body?.data?.find((e: any) => e.event_id === eventId);
    if (event) return { request, event };
  }
  return null;
}

/** The Conversions API retries due `at`, run on the organization's data where it is. */
const sendDueConversionsNow = (organizationId: string, at?: Date) =>
  withStoreDeps(organizationId, (storeDeps) => sendDueConversions(storeDeps, organizationId, at));

async function landingSession(key: string, params: Record<string, string>) {
  const response = await answer(
    api().tracking.sessions.$post(
      {
        json: {
          tracking_params: params,
          user_agent: BROWSER,
          landing_page: "https://clinica.example/ortodoncia?fbclid=IwAR1",
        },
      },
      {
        headers: {
          "X-Tracking-Key": key,
          "User-Agent": BROWSER,
          "CF-Connecting-IP": "203.0.113.7",
        },
      },
    ),
  );
  expect(response.status).toBe(201);
  return response.body.data;
}

describe("Conversions API, web events", () => {
  it("sends a lead to the pixel with hashed phone, fbc, browser, page, value and dedup id", async () => {
    const owner = await ownerWithPixel();
    const session = await landingSession(owner.organization.tracking_key, { fbclid: "IwAR1xyz" });
    const recorded = await answer(
      api(owner.token).tracking.conversions.$post(
        {
          json: {
            event_name: "lead",
            phone_number: "+34 600 111 222",
            tracking_session_id: session.id,
            conversion_value: 30,
          },
        },
        { headers: { "User-Agent": BROWSER } },
      ),
    );
    expect(recorded.status).toBe(201);
    expect(asMember(recorded.body.data).capi_status).toBe("pending");

    const row = await settledConversion(owner.organization.id, recorded.body.data.id);
    expect(row.capiStatus).toBe("sent");
    expect(row.capiResult).toMatchObject({ events_received: 1 });
    expect(row.capiResult!.fbtrace_id).toMatch(/^[0-9a-f]{16}$/);

    const sent = await sentEvent(row.eventId);
    expect(sent?.request.path).toBe(`/v25.0/${F.pixelId}/events`);
    expect(sent?.request.headers.authorization).toBe("Bearer test-access-token");
    const { event } = sent!;
    expect(event).toEqual({
      event_name: "Lead",
      event_time: Math.floor(Date.parse(row.eventTime) / 1000),
      event_id: row.eventId,
      action_source: "website" as const,
      event_source_url: "https://clinica.example/ortodoncia?fbclid=IwAR1",
      user_data: {
        client_user_agent: BROWSER,
        client_ip_address: "203.0.113.7",
        // SHA-256 of "34600111222", computed outside the product (sha256sum).
        ph: ["67f01a2b0e2c34277df586b5cc6e35a5f232494e64dc33b5f75f80bf568914f1"],
        fbc: `fb.1.${Date.parse(session.created_at)}.IwAR1xyz`,
      },
      custom_data: { value: 30, currency: "EUR" },
    });
    // The console reads the result on the conversion.
    const list = await answer(api(owner.token).tracking.conversions.$get({ query: {} }));
    expect(list.body.data.conversions[0]).toMatchObject({
      capi_status: "sent",
      event_id: row.eventId,
    });
  });

  it("normalizes and hashes phones as Meta specifies", async () => {
    expect(normalizePhone("+34 (600) 111-222")).toBe("34600111222");
    expect(normalizePhone("0034600111222")).toBe("34600111222");
    expect(await sha256Hex("34600111222")).toBe(
      "67f01a2b0e2c34277df586b5cc6e35a5f232494e64dc33b5f75f80bf568914f1",
    );
    expect(fbcOf(1_700_000_000_123, "IwAR")).toBe("fb.1.1700000000123.IwAR");
  });

  it("maps purchase and contact, carries the test event code and the currency given", async () => {
    const owner = await ownerWithPixel();
    const code = await answer(api(owner.token)["meta-config"]["generate-test-code"].$post());
    const testEventCode = code.body.data.test_event_code;
    const headers = { "User-Agent": BROWSER, Referer: "https://clinica.example/gracias" };
    const purchase = await answer(
      api(owner.token).tracking.conversions.$post(
        { json: { event_name: "purchase", conversion_value: 120.5, currency: "USD" } },
        { headers },
      ),
    );
    const contact = await answer(
      api(owner.token).tracking.conversions.$post({ json: { event_name: "contact" } }, { headers }),
    );
    const [p, c] = [
      await settledConversion(owner.organization.id, purchase.body.data.id),
      await settledConversion(owner.organization.id, contact.body.data.id),
    ];
    const sentPurchase = await sentEvent(p.eventId);
    expect(sentPurchase?.event).toMatchObject({
      event_name: "Purchase",
      event_source_url: "https://clinica.example/gracias",
      custom_data: { value: 120.5, currency: "USD" },
    });
    expect(sentPurchase?.request.body.test_event_code).toBe(testEventCode);
    expect((await sentEvent(c.eventId))?.event).toMatchObject({
      event_name: "Contact",
      custom_data: { currency: "EUR" },
    });
  });

  it("keeps the analytics-only events and organizations without a pixel away from Meta", async () => {
    const withPixel = await ownerWithPixel();
    const click = await answer(
      api(withPixel.token).tracking.conversions.$post({ json: { event_name: "whatsapp_click" } }),
    );
    expect(asMember(click.body.data).capi_status).toBe("not_sent");

    const withoutPixel = await createOwner();
    const lead = await answer(
      api(withoutPixel.token).tracking.conversions.$post({ json: { event_name: "lead" } }),
    );
    expect(asMember(lead.body.data).capi_status).toBe("not_sent");
    expect(await sentEvent(asMember(lead.body.data).event_id)).toBeNull();
  });

  it("sets aside an event Meta would refuse instead of failing the batch", async () => {
    const owner = await ownerWithPixel();
    const purchase = await answer(
      api(owner.token).tracking.conversions.$post(
        { json: { event_name: "purchase" } },
        { headers: { Referer: "https://a.example/" } },
      ),
    );
    const row = await settledConversion(owner.organization.id, purchase.body.data.id);
    expect(row.capiStatus).toBe("failed");
    expect(row.capiNextAttemptAt).toBeNull();
    expect(row.capiResult).toEqual({ error: "Una compra necesita un valor para enviarse a Meta." });
    expect(await sentEvent(row.eventId)).toBeNull();
  });

  it("retries a failed send with backoff from the cron trigger, then expires old events", async () => {
    const owner = await ownerWithPixel();
    await failNext("graph", {
      path: `/v25.0/${F.pixelId}/events`,
      status: 500,
      error: { message: "An unknown error occurred", code: 1, type: "OAuthException" },
    });
    const lead = await answer(
      api(owner.token).tracking.conversions.$post(
        { json: { event_name: "lead" } },
        {
          headers: {
            "User-Agent": BROWSER,
            Referer: "https://clinica.example/",
            "CF-Connecting-IP": randomIp(),
          },
        },
      ),
    );
    const failed = await settledConversion(owner.organization.id, lead.body.data.id);
    expect(failed.capiStatus).toBe("failed");
    expect(failed.capiAttempts).toBe(1);
    expect(failed.capiResult).toMatchObject({ code: 1 });
    const retryAt = Date.parse(failed.capiNextAttemptAt!);
    expect(retryAt - Date.now()).toBeGreaterThan(30_000);

    // Not due yet: a run now leaves it alone.
    await sendDueConversionsNow(owner.organization.id);
    expect((await settledConversion(owner.organization.id, failed.id)).capiStatus).toBe("failed");

    // Due: the next run sends it.
    await sendDueConversionsNow(owner.organization.id, new Date(retryAt + 1000));
    const sent = await settledConversion(owner.organization.id, failed.id);
    expect(sent.capiStatus).toBe("sent");
    expect(sent.capiAttempts).toBe(2);

    // An event older than seven days is never sent: it expires.
    await withOrgDb(owner.organization.id, (orgDb) =>
      orgDb
        .update(conversions)
        .set({
          capiStatus: "failed",
          capiNextAttemptAt: new Date().toISOString(),
          eventTime: new Date(Date.now() - 8 * 24 * 3600_000).toISOString(),
        })
        .where(eq(conversions.id, failed.id)),
    );
    await sendDueConversionsNow(owner.organization.id);
    expect((await settledConversion(owner.organization.id, failed.id)).capiStatus).toBe("expired");
  });
});

/** A customer who wrote from a click-to-WhatsApp ad with this click id. */
async function adCustomer(owner: Awaited<ReturnType<typeof createOwner>>, ctwaClid: string) {
  const connection = await connectWhatsapp(owner.organization.id, {
    businessAccountId: F.wabaId,
  });
  const { from } = await messageFromAd(connection, { ctwaClid });
  return { connection, from };
}

describe("Conversions API, click-to-WhatsApp", () => {
  it("sends a lead from an ad conversation to the account's dataset once per click", async () => {
    const owner = await createOwner();
    const { connection, from } = await adCustomer(owner, "ARAkCTWA42");
    const record = () =>
      answer(
        api(owner.token).tracking.conversions.$post({
          json: { event_name: "lead", phone_number: from, conversion_value: 10 },
        }),
      );
    const first = await settledConversion(owner.organization.id, (await record()).body.data.id);
    expect(first.capiStatus).toBe("sent");
    const sent = await sentEvent(first.eventId);
    expect(sent?.request.path).toBe(`/v25.0/${F.datasetId}/events`);
    expect(sent?.event).toEqual({
      event_name: "LeadSubmitted",
      event_time: Math.floor(Date.parse(first.eventTime) / 1000),
      event_id: first.eventId,
      action_source: "business_messaging",
      messaging_channel: "whatsapp",
      user_data: { whatsapp_business_account_id: F.wabaId, ctwa_clid: "ARAkCTWA42" },
      custom_data: { value: 10, currency: "EUR" },
    });
    // The dataset id was asked of Meta and kept.
    const stored = await db.query.whatsappConnections.findFirst({
      where: (c, { eq }) => eq(c.id, connection.id),
    });
    expect(stored?.datasetId).toBe(F.datasetId);

    // The same lead for the same click again: stored for analytics, not sent twice.
    const second = asMember((await record()).body.data);
    expect(second.capi_status).toBe("not_sent");
    expect(second.capi_result).toEqual({
      error: "Este evento ya se envió a Meta para este clic del anuncio.",
    });
    expect(await sentEvent(second.event_id)).toBeNull();
  });

  it("keeps a contact from an ad click for analytics and never sends it to the dataset", async () => {
    const owner = await createOwner();
    const { from } = await adCustomer(owner, "ARAkCTWA51");
    const contact = await answer(
      api(owner.token).tracking.conversions.$post({
        json: { event_name: "contact", phone_number: from },
      }),
    );
    expect(contact.status).toBe(201);
    expect(asMember(contact.body.data).capi_status).toBe("not_sent");
    expect(await sentEvent(asMember(contact.body.data).event_id)).toBeNull();

    // A lead of the same click, sent alone, is received: no other name sank the request.
    const lead = await answer(
      api(owner.token).tracking.conversions.$post({
        json: { event_name: "lead", phone_number: from },
      }),
    );
    const sent = await settledConversion(owner.organization.id, lead.body.data.id);
    expect(sent.capiStatus).toBe("sent");
    expect((await sentEvent(sent.eventId))?.event.event_name).toBe("LeadSubmitted");
  });

  it("sets aside a legacy contact queued for the dataset instead of sinking the batch", async () => {
    const owner = await createOwner();
    const { from } = await adCustomer(owner, "ARAkCTWA52");
    const lead = await answer(
      api(owner.token).tracking.conversions.$post({
        json: { event_name: "lead", phone_number: from },
      }),
    );
    await settledConversion(owner.organization.id, lead.body.data.id);
    // A contact queued for the click by the code before Meta's rule was known.
    const [legacy] = await withOrgDb(owner.organization.id, (orgDb) =>
      orgDb
        .insert(conversions)
        .values({
          organizationId: owner.organization.id,
          eventName: "contact",
          phoneNumber: from,
          ctwaClid: "ARAkCTWA52",
          eventTime: new Date().toISOString(),
          capiStatus: "pending",
          capiNextAttemptAt: new Date().toISOString(),
        })
        .returning(),
    );
    const purchase = await answer(
      api(owner.token).tracking.conversions.$post({
        json: { event_name: "purchase", phone_number: from, conversion_value: 80 },
      }),
    );
    const bought = await settledConversion(owner.organization.id, purchase.body.data.id);
    expect(bought.capiStatus).toBe("sent");
    const setAside = await settledConversion(owner.organization.id, legacy!.id);
    expect(setAside.capiStatus).toBe("failed");
    expect(setAside.capiResult).toMatchObject({
      error: "Meta no admite este evento en los anuncios que abren WhatsApp.",
    });
    expect(await sentEvent(setAside.eventId)).toBeNull();
  });
});

describe("the public tracking key and a customer's phone", () => {
  const byKey = (key: string, body: ConversionInput) =>
    answer(
      api().tracking.conversions.$post(
        { json: body },
        { headers: { "X-Tracking-Key": key, "CF-Connecting-IP": randomIp() } },
      ),
    );

  it("cannot use up an ad click's one send: a member's lead still reaches the dataset", async () => {
    const owner = await createOwner();
    const { from } = await adCustomer(owner, "ARAkCTWA77");
    const key = owner.organization.tracking_key;

    const lead = await byKey(key, { event_name: "lead", phone_number: from });
    expect(lead.status).toBe(403);
    for (const event_name of PUBLIC_KEY_EVENTS) {
      expect((await byKey(key, { event_name, phone_number: from })).status).toBe(201);
    }
    // What the page recorded is analytics only: not tied to the conversation or its ad click.
    const recorded = await withOrgDb(owner.organization.id, (orgDb) =>
      orgDb.query.conversions.findMany({
        where: (c, { and, eq, isNull }) =>
          and(eq(c.organizationId, owner.organization.id), isNull(c.ctwaClid)),
      }),
    );
    expect(recorded).toHaveLength(PUBLIC_KEY_EVENTS.length);
    for (const row of recorded) {
      expect(row).toMatchObject({
        conversationId: null,
        capiStatus: "not_sent",
        phoneNumber: from,
      });
    }

    const memberLead = await answer(
      api(owner.token).tracking.conversions.$post({
        json: { event_name: "lead", phone_number: from, conversion_value: 25 },
      }),
    );
    const sent = await settledConversion(owner.organization.id, memberLead.body.data.id);
    expect(sent.capiStatus).toBe("sent");
    expect((await sentEvent(sent.eventId))?.event).toMatchObject({
      event_name: "LeadSubmitted",
      user_data: { whatsapp_business_account_id: F.wabaId, ctwa_clid: "ARAkCTWA77" },
    });
  });

  it("answers the same whether or not the phone belongs to a customer", async () => {
    const owner = await createOwner();
    const { from } = await adCustomer(owner, "ARAkCTWA88");
    const stranger = customerPhone();
    const key = owner.organization.tracking_key;

    /** Everything the page can see of the answer, with the new row's id as a placeholder. */
    const seen = async (event_name: ConversionInput["event_name"], phone_number: string) => {
      const response = await byKey(key, { event_name, phone_number });
      return {
        status: response.status,
        contentType: response.headers.get("Content-Type"),
        body: { ...response.body, data: { ...response.body.data, id: "<id>" } },
      };
    };
    // Twice each: a repeated event is where an ad click's one send would show.
    for (const event_name of [...PUBLIC_KEY_EVENTS, ...PUBLIC_KEY_EVENTS]) {
      const forCustomer = await seen(event_name, from);
      const forStranger = await seen(event_name, stranger);
      expect(forCustomer).toEqual(forStranger);
      expect(forCustomer).toEqual({
        status: 201,
        contentType: "application/json",
        body: { data: { id: "<id>", event_name } },
      });
    }
  });
});

describe("POST /tracking/facebook-conversions and /meta-config/test-conversions", () => {
  const event = () => ({
    event_name: "Lead",
    event_time: Math.floor(Date.now() / 1000),
    event_id: crypto.randomUUID(),
    action_source: "website" as const,
    event_source_url: "https://clinica.example/",
    user_data: { client_user_agent: BROWSER },
  });

  it("forwards the caller's events and answers events_received", async () => {
    const owner = await createOwner();
    const events = [event(), event()];
    const response = await answer(
      api(owner.token).tracking["facebook-conversions"].$post({
        json: { pixel_id: F.pixelId, access_token: "test-access-token", events },
      }),
    );
    expect(response.status).toBe(200);
    expect(response.body.data.events_received).toBe(2);
    expect((await sentEvent(events[1]!.event_id))?.event).toEqual(events[1]);
  });

  it.each([
    ["no events", { events: [] }],
    ["an event older than 7 days", { events: [{ ...event(), event_time: 1_600_000_000 }] }],
    ["an unknown action_source", { events: [{ ...event(), action_source: "tv" }] }],
    ["more than 1,000 events", { events: Array.from({ length: 1001 }, event) }],
    ["a pixel id with letters", { pixel_id: "abc" }],
  ])("refuses %s before calling Meta", async (_, change) => {
    const owner = await createOwner();
    const body = {
      pixel_id: F.pixelId,
      access_token: "test-access-token",
      events: [event()],
      ...change,
    };
    // Invalid on purpose: a body the typed client would not let through.
    const response = await call("POST", "/api/v1/tracking/facebook-conversions", {
      token: owner.token,
      body,
    });
    expect(response.status).toBe(422);
    expect(response.body.error).toBe("validation_error");
  });

  it("answers Meta's refusal as a Spanish error", async () => {
    const owner = await createOwner();
    const response = await answer(
      api(owner.token).tracking["facebook-conversions"].$post({
        json: { pixel_id: F.pixelId, access_token: "token-caducado", events: [event()] },
      }),
    );
    expect(response.status).toBe(422);
    expect(response.body.message).toMatch(/token de acceso de Meta/);
  });

  it("sends a test Lead with a generated test event code", async () => {
    const owner = await ownerWithPixel();
    const response = await answer(
      api(owner.token)["meta-config"]["test-conversions"].$post(
        {},
        { headers: { "User-Agent": BROWSER } },
      ),
    );
    expect(response.status).toBe(200);
    const result = response.body.data;
    expect(result).toMatchObject({ success: true, events_received: 1 });
    expect(result.test_event_code).toMatch(/^TEST\d+$/);
    const config = await answer(api(owner.token)["meta-config"].$get());
    expect(config.body.data.test_event_code).toBe(result.test_event_code);
    const requests = await graphRequests(`/${F.pixelId}/events`);
    expect(requests.some((r) => r.body.test_event_code === result.test_event_code)).toBe(true);
  });
});

/** Leads whose first send failed a minute ago, due for their retry now. */
const conversionsDueForRetry = (organizationId: string, ids: string[]) =>
  withOrgDb(organizationId, async (orgDb) => {
    const due = new Date(Date.now() - 60_000).toISOString();
    for (const id of ids) {
      await orgDb.insert(conversions).values({
        id,
        organizationId,
        eventName: "lead",
        eventId: `evt-${id}`,
        eventTime: due,
        capiStatus: "failed",
        capiAttempts: 1,
        capiNextAttemptAt: due,
        clientIp: randomIp(),
        clientUserAgent: BROWSER,
        sourceUrl: "https://tienda.example/",
        createdAt: due,
      });
    }
  });

describe("a retry of many conversions at once", () => {
  it("sends and settles 120 due in one claim", async () => {
    const owner = await createOwner();
    const pixel = await answer(
      api(owner.token)["meta-config"].$post({
        json: { pixel_id: F.pixelId, access_token: "test-access-token" },
      }),
    );
    expect(pixel.status).toBe(201);
    const organizationId = owner.organization.id;
    const ids = Array.from({ length: 120 }, () => crypto.randomUUID());
    await conversionsDueForRetry(organizationId, ids);
    await sendDueConversionsNow(organizationId);
    const settled = await withOrgDb(organizationId, (orgDb) =>
      orgDb
        .select({ status: conversions.capiStatus })
        .from(conversions)
        .where(eq(conversions.organizationId, organizationId)),
    );
    expect(settled).toHaveLength(120);
    expect(new Set(settled.map((row) => row.status))).toEqual(new Set(["sent"]));
  });
});
