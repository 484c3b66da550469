// Hand-built requests here are the subject: bodies and queries invalid on purpose.
// From the ad to the sale: a conversation's stage and sales become conversions tied to it,
// sent to Meta exactly once (the WABA's dataset for an ad click, the pixel for a landing-page
// visit); what Meta detects in the chat is a suggestion a person confirms once.
import { and, eq } from "drizzle-orm";
import type { InferRequestType } from "hono/client";
import { describe, expect, it, vi } from "vitest";
import { conversions } from "../../durable-objects/schema";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { connectWhatsapp } from "../support/db";
import { withOrgDb } from "../support/org-data";
import { createOwner, registerUser } from "../support/factories";
import { delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { adCustomerPhone, messageFromAd, settledConversion } from "../support/ads";
import { answer, api } from "../support/api";
import { call } from "../support/http";
import { deliver, graphRequests } from "../support/webhooks";

const F = GRAPH_FIXTURES;
type Owner = Awaited<ReturnType<typeof createOwner>>;
type Conversation = ReturnType<typeof api>["conversations"][":id"];
const BROWSER = "Mozilla/5.0 (Linux; Android 15) Chrome/140 Mobile";

/** A customer who wrote from a click-to-WhatsApp ad; returns their conversation. */
async function adConversation(owner: Owner) {
  const connection = await connectWhatsapp(owner.organization.id, { businessAccountId: F.wabaId });
  const { from, ctwaClid } = await messageFromAd(connection);
  const list = await answer(api(owner.token).conversations.$get({ query: { search: from } }));
  return { conversation: list.body.data.conversations[0]!, ctwaClid, from, connection };
}

/** Every event Meta received with this event_id (to prove something was sent once). */
async function sentTimes(eventId: string) {
  const requests = await graphRequests("/events");
  return requests.flatMap((r) => (r.body?.data ?? []).filter((e: any) => e.event_id === eventId));
}

const setStage = (
  owner: Owner,
  id: string,
  stage: InferRequestType<Conversation["$patch"]>["json"]["stage"],
) => answer(api(owner.token).conversations[":id"].$patch({ param: { id }, json: { stage } }));

const sell = (
  owner: Owner,
  id: string,
  json: InferRequestType<Conversation["sales"]["$post"]>["json"],
  key?: string,
) =>
  answer(
    api(owner.token).conversations[":id"].sales.$post({
      param: { id },
      json,
      header: key === undefined ? {} : { "idempotency-key": key },
    }),
  );

/** A sale's body the typed client would refuse (a string amount, no amount), sent raw. */
const sellMalformed = (owner: Owner, id: string, body: unknown) =>
  call("POST", `/api/v1/conversations/${id}/sales`, { token: owner.token, body });

const conversationConversions = async (owner: Owner, id: string) =>
  (await answer(api(owner.token).conversations[":id"].conversions.$get({ param: { id } }))).body
    .data;

const getConversation = (owner: Owner, id: string) =>
  answer(api(owner.token).conversations[":id"].$get({ param: { id } }));

const suggestion = (owner: Owner) =>
  api(owner.token).conversations[":id"].suggestions[":suggestionId"];

describe("stages", () => {
  it("records one lead however often the stage goes to Interesado, sent once to the dataset", async () => {
    const owner = await createOwner();
    const { conversation, ctwaClid } = await adConversation(owner);
    expect(conversation.stage).toBe("new");

    for (const stage of ["lead", "new", "lead", "lost", "lead"] as const) {
      const res = await setStage(owner, conversation.id, stage);
      expect(res.status).toBe(200);
      expect(res.body.data.stage).toBe(stage);
    }
    const leads = (await conversationConversions(owner, conversation.id)).filter(
      (c) => c.event_name === "lead",
    );
    expect(leads).toHaveLength(1);
    const lead = await settledConversion(owner.organization.id, leads[0]!.id);
    expect(lead).toMatchObject({ capiStatus: "sent", ctwaClid, conversationId: conversation.id });
    const sent = await sentTimes(lead.eventId);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      event_name: "LeadSubmitted",
      action_source: "business_messaging",
      user_data: { whatsapp_business_account_id: F.wabaId, ctwa_clid: ctwaClid },
    });

    // The list filters on the stage.
    const filtered = await answer(
      api(owner.token).conversations.$get({ query: { stage: "lead" } }),
    );
    expect(filtered.body.data.conversations.map((c) => c.id)).toEqual([conversation.id]);
    const none = await answer(
      api(owner.token).conversations.$get({ query: { stage: "customer" } }),
    );
    expect(none.body.data.total).toBe(0);
    // On `call`: an unknown stage, in a body and in a query, which the typed client would refuse.
    const unknownStage = await call("PATCH", `/api/v1/conversations/${conversation.id}`, {
      token: owner.token,
      body: { stage: "ganado" },
    });
    expect(unknownStage.status).toBe(422);
    expect(
      (await call("GET", "/api/v1/conversations?stage=x", { token: owner.token })).status,
    ).toBe(400);
  });
});

describe("sales", () => {
  it("records each sale as its own Purchase with its value, and the customer becomes Cliente", async () => {
    const owner = await createOwner();
    const { conversation, ctwaClid } = await adConversation(owner);
    const first = await sell(owner, conversation.id, { value: 120 });
    expect(first.status).toBe(201);
    expect(first.body.data.sale).toMatchObject({
      event_name: "purchase",
      conversion_value: 120,
      currency: "EUR",
    });
    const second = await sell(owner, conversation.id, { value: 30.5, currency: "usd" });
    expect(second.status).toBe(201);
    expect(second.body.data.sale.currency).toBe("USD");

    const detail = await getConversation(owner, conversation.id);
    expect(detail.body.data.stage).toBe("customer");
    // Where the customer came from: the ad they clicked.
    expect(detail.body.data.origin).toEqual({
      type: "ad",
      ad_id: "120200000000001",
      headline: "Oferta de verano",
      source_url: "https://fb.me/abc",
      clicked_at: expect.any(String),
    });

    const rows = await Promise.all([
      settledConversion(owner.organization.id, first.body.data.sale.id),
      settledConversion(owner.organization.id, second.body.data.sale.id),
    ]);
    for (const row of rows) expect(row).toMatchObject({ capiStatus: "sent", ctwaClid });
    const [one] = await sentTimes(rows[0].eventId);
    const [two] = await sentTimes(rows[1].eventId);
    expect(one).toMatchObject({
      event_name: "Purchase",
      custom_data: { value: 120, currency: "EUR" },
    });
    expect(two).toMatchObject({
      event_name: "Purchase",
      custom_data: { value: 30.5, currency: "USD" },
    });
    const listed = await conversationConversions(owner, conversation.id);
    expect(listed.filter((c) => c.event_name === "purchase")).toHaveLength(2);
  });

  it("answers a repeated Idempotency-Key with the same sale, even in a parallel double click", async () => {
    const owner = await createOwner();
    const { conversation } = await adConversation(owner);
    const key = crypto.randomUUID();
    const clicks = await Promise.all([
      sell(owner, conversation.id, { value: 75 }, key),
      sell(owner, conversation.id, { value: 75 }, key),
    ]);
    expect(clicks.map((r) => r.status)).toEqual([201, 201]);
    expect(clicks[0]!.body.data.sale.id).toBe(clicks[1]!.body.data.sale.id);
    const retried = await sell(owner, conversation.id, { value: 75 }, key);
    expect(retried.body.data.sale.id).toBe(clicks[0]!.body.data.sale.id);
    const stored = await withOrgDb(owner.organization.id, (orgDb) =>
      orgDb.query.conversions.findMany({
        where: and(
          eq(conversions.conversationId, conversation.id),
          eq(conversions.eventName, "purchase"),
        ),
      }),
    );
    expect(stored).toHaveLength(1);
    const row = await settledConversion(owner.organization.id, stored[0]!.id);
    expect(await sentTimes(row.eventId)).toHaveLength(1);
  });

  it("answers 422 to a reused Idempotency-Key with another body, never the first sale", async () => {
    const owner = await createOwner();
    const { conversation } = await adConversation(owner);
    const key = crypto.randomUUID();
    const first = await sell(owner, conversation.id, { value: 75 }, key);
    expect(first.status).toBe(201);
    for (const body of [{ value: 80 }, { value: 75, currency: "USD" }]) {
      const reused = await sell(owner, conversation.id, body, key);
      expect(reused.status).toBe(422);
      expect(reused.body).toEqual({
        error: "idempotency_key_reused",
        message: expect.stringContaining("Idempotency-Key ya se usó"),
      });
    }
    // The same body (the currency it defaulted to, named or not) still answers the first sale.
    const again = await sell(owner, conversation.id, { value: 75, currency: "eur" }, key);
    expect(again.status).toBe(201);
    expect(again.body.data.sale.id).toBe(first.body.data.sale.id);
    const purchases = (await conversationConversions(owner, conversation.id)).filter(
      (c) => c.event_name === "purchase",
    );
    expect(purchases).toHaveLength(1);
  });

  it("answers a replayed sale from what was stored, changing nothing: a stage moved on stays", async () => {
    const owner = await createOwner();
    const { conversation } = await adConversation(owner);
    const key = crypto.randomUUID();
    const first = await sell(owner, conversation.id, { value: 75 }, key);
    expect(first.status).toBe(201);
    expect((await getConversation(owner, conversation.id)).body.data.stage).toBe("customer");
    // The team moves on (the customer returned it); then the console's retry arrives.
    expect((await setStage(owner, conversation.id, "lost")).status).toBe(200);
    const replayed = await sell(owner, conversation.id, { value: 75 }, key);
    expect(replayed.status).toBe(201);
    expect(replayed.body.data.sale).toMatchObject({
      id: first.body.data.sale.id,
      conversion_value: 75,
    });
    expect((await getConversation(owner, conversation.id)).body.data.stage).toBe("lost");
    const purchases = (await conversationConversions(owner, conversation.id)).filter(
      (c) => c.event_name === "purchase",
    );
    expect(purchases).toHaveLength(1);
  });

  it("audits each sale once, with its amount", async () => {
    const owner = await createOwner();
    const { conversation } = await adConversation(owner);
    const key = crypto.randomUUID();
    await sell(owner, conversation.id, { value: 42 }, key);
    await sell(owner, conversation.id, { value: 42 }, key); // a retry: the same sale
    const log = await answer(api(owner.token).organizations["audit-log"].$get({ query: {} }));
    const sales = log.body.data.entries.filter((e) => e.action === "sale.create");
    expect(sales).toEqual([
      expect.objectContaining({
        actor: expect.objectContaining({ email: owner.email }),
        target: conversation.id,
        details: expect.objectContaining({ value: 42, currency: "EUR", via: "sale" }),
      }),
    ]);
  });

  it("uses the organization's currency, and refuses a bad amount, currency or key, storing nothing", async () => {
    const owner = await createOwner();
    await answer(
      api(owner.token).organizations[":id"].$patch({
        param: { id: owner.organization.id },
        json: { currency: "MXN" },
      }),
    );
    const { conversation } = await adConversation(owner);
    for (const attempt of [
      () => sell(owner, conversation.id, { value: 0 }),
      () => sell(owner, conversation.id, { value: -5 }),
      () => sellMalformed(owner, conversation.id, { value: "10" }),
      () => sell(owner, conversation.id, { value: 10, currency: "EURO" }),
      () => sellMalformed(owner, conversation.id, {}),
    ]) {
      expect((await attempt()).status).toBe(422);
    }
    expect((await sell(owner, conversation.id, { value: 5 }, "x".repeat(201))).status).toBe(400);
    expect(await conversationConversions(owner, conversation.id)).toEqual(
      expect.not.arrayContaining([expect.objectContaining({ event_name: "purchase" })]),
    );
    const sale = await sell(owner, conversation.id, { value: 199 });
    expect(sale.body.data.sale.currency).toBe("MXN");
  });

  it("sends a sale from a landing-page visit to the pixel with the visit's browser, page and click", async () => {
    const owner = await createOwner();
    await answer(
      api(owner.token)["meta-config"].$post({
        json: { pixel_id: F.pixelId, access_token: "test-access-token" },
      }),
    );
    const connection = await connectWhatsapp(owner.organization.id);
    const session = await answer(
      api().tracking.sessions.$post(
        {
          json: {
            tracking_params: {
              fbclid: "IwARsale",
              utm_source: "facebook",
              utm_campaign: "rebajas",
            },
            user_agent: BROWSER,
            landing_page: "https://tienda.example/zapatos",
          },
        },
        {
          headers: {
            "X-Tracking-Key": owner.organization.tracking_key,
            "User-Agent": BROWSER,
            "CF-Connecting-IP": "198.51.100.23",
          },
        },
      ),
    );
    const from = adCustomerPhone();
    await deliver(
      delivery(
        inboundMessage({
          phoneNumberId: connection.phoneNumberId,
          from,
          text: `Hola, quiero info (ref ${session.body.data.ref_code})`,
        }),
      ),
    );
    const list = await answer(api(owner.token).conversations.$get({ query: { search: from } }));
    const conversation = list.body.data.conversations[0]!;
    const detail = await getConversation(owner, conversation.id);
    expect(detail.body.data.origin).toEqual({
      type: "visit",
      source: "facebook",
      campaign: "rebajas",
      landing_page: "https://tienda.example/zapatos",
      visited_at: expect.any(String),
    });
    const sale = await sell(owner, conversation.id, { value: 59.9 });
    const row = await settledConversion(owner.organization.id, sale.body.data.sale.id);
    expect(row).toMatchObject({
      capiStatus: "sent",
      ctwaClid: null,
      conversationId: conversation.id,
    });
    const [event] = await sentTimes(row.eventId);
    expect(event).toMatchObject({
      event_name: "Purchase",
      action_source: "website",
      event_source_url: "https://tienda.example/zapatos",
      user_data: {
        client_user_agent: BROWSER,
        client_ip_address: "198.51.100.23",
        fbc: expect.stringMatching(/^fb\.1\.\d{13}\.IwARsale$/),
      },
      custom_data: { value: 59.9, currency: "EUR" },
    });
  });
});

/** Meta's `automatic_events` webhook for the fake account, as Meta documents it. */
const detected = (events: unknown[]) => ({
  object: "whatsapp_business_account",
  entry: [
    {
      id: F.wabaId,
      changes: [
        {
          field: "automatic_events",
          value: {
            messaging_product: "whatsapp",
            metadata: { display_phone_number: "34600000000", phone_number_id: F.phoneNumberId },
            automatic_events: events,
          },
        },
      ],
    },
  ],
});

describe("what Meta detected in the chat", () => {
  it("suggests a purchase once; confirmed once (even twice at once), it is sent once", async () => {
    const owner = await createOwner();
    const { conversation, ctwaClid } = await adConversation(owner);
    const purchase = {
      id: `wamid.${crypto.randomUUID()}`,
      event_name: "Purchase",
      timestamp: Math.floor(Date.now() / 1000),
      ctwa_clid: ctwaClid,
      custom_data: { currency: "EUR", value: 120 },
    };
    expect((await deliver(detected([purchase]))).status).toBe(200);
    expect((await deliver(detected([purchase]))).status).toBe(200); // redelivered

    const detail = await getConversation(owner, conversation.id);
    expect(detail.body.data.suggestions).toEqual([
      {
        id: expect.any(String),
        event_name: "Purchase",
        value: 120,
        currency: "EUR",
        detected_at: new Date(purchase.timestamp * 1000).toISOString(),
      },
    ]);
    const sid = detail.body.data.suggestions[0]!.id;
    const param = { id: conversation.id, suggestionId: sid };
    const confirm = () => answer(suggestion(owner).confirm.$post({ param }));
    const [a, b] = await Promise.all([confirm(), confirm()]);
    expect([a.status, b.status]).toEqual([200, 200]);
    expect(a.body.data.conversion.id).toBe(b.body.data.conversion.id);
    const row = await settledConversion(owner.organization.id, a.body.data.conversion.id);
    expect(row).toMatchObject({ eventName: "purchase", conversionValue: 120, capiStatus: "sent" });
    expect(await sentTimes(row.eventId)).toHaveLength(1);

    const after = await getConversation(owner, conversation.id);
    expect(after.body.data.suggestions).toEqual([]);
    expect(after.body.data.stage).toBe("customer");
    const dismiss = await answer(suggestion(owner).$delete({ param }));
    expect(dismiss.status).toBe(409);
  });

  it("answers a repeated confirmation with the same conversion, moving no stage back", async () => {
    const owner = await createOwner();
    const { conversation, ctwaClid } = await adConversation(owner);
    const event = (event_name: string, custom_data?: object) => ({
      id: `wamid.${crypto.randomUUID()}`,
      event_name,
      timestamp: Math.floor(Date.now() / 1000),
      ctwa_clid: ctwaClid,
      ...(custom_data && { custom_data }),
    });
    await deliver(detected([event("LeadSubmitted")]));
    await deliver(detected([event("Purchase", { currency: "EUR", value: 40 })]));
    const pending = (await getConversation(owner, conversation.id)).body.data.suggestions;
    const confirm = (sid: string) =>
      answer(
        suggestion(owner).confirm.$post({ param: { id: conversation.id, suggestionId: sid } }),
      );

    for (const [name, reached, movedTo] of [
      ["LeadSubmitted", "lead", "new"],
      ["Purchase", "customer", "lost"],
    ] as const) {
      const sid = pending.find((p) => p.event_name === name)!.id;
      const first = await confirm(sid);
      expect(first.status).toBe(200);
      expect((await getConversation(owner, conversation.id)).body.data.stage).toBe(reached);
      expect((await setStage(owner, conversation.id, movedTo)).status).toBe(200);
      const again = await confirm(sid);
      expect(again.status).toBe(200);
      expect(again.body.data.conversion.id).toBe(first.body.data.conversion.id);
      expect((await getConversation(owner, conversation.id)).body.data.stage).toBe(movedTo);
    }
  });

  it("is confirmed or dismissed, never both, even when both are asked at once", async () => {
    const owner = await createOwner();
    const { conversation, ctwaClid } = await adConversation(owner);
    const events = Array.from({ length: 3 }, (_, i) => ({
      id: `wamid.${crypto.randomUUID()}`,
      event_name: "Purchase",
      timestamp: Math.floor(Date.now() / 1000) - i,
      ctwa_clid: ctwaClid,
      custom_data: { currency: "EUR", value: 10 + i },
    }));
    await deliver(detected(events));
    const detail = await getConversation(owner, conversation.id);
    for (const { id: sid } of detail.body.data.suggestions) {
      const param = { id: conversation.id, suggestionId: sid };
      const [confirmed, dismissed] = await Promise.all([
        answer(suggestion(owner).confirm.$post({ param })),
        answer(suggestion(owner).$delete({ param })),
      ]);
      expect([confirmed.status, dismissed.status].sort()).toEqual([200, 409]);
      const loser = confirmed.status === 409 ? confirmed : dismissed;
      expect(loser.body).toMatchObject({
        error: "conflict",
        message: expect.stringMatching(/^Esta sugerencia/),
      });
      const row = await withOrgDb(owner.organization.id, (orgDb) =>
        orgDb.query.conversionSuggestions.findFirst({
          where: (t, { eq: is }) => is(t.id, sid),
        }),
      );
      expect(row!.status).toBe(confirmed.status === 200 ? "confirmed" : "dismissed");
      expect(row!.conversionId !== null).toBe(confirmed.status === 200);
    }
    const purchases = (await conversationConversions(owner, conversation.id)).filter(
      (c) => c.event_name === "purchase",
    );
    const confirmedRows = await withOrgDb(owner.organization.id, (orgDb) =>
      orgDb.query.conversionSuggestions.findMany({
        where: (t, { and: all, eq: is }) =>
          all(is(t.conversationId, conversation.id), is(t.status, "confirmed")),
      }),
    );
    expect(purchases).toHaveLength(confirmedRows.length);
  });

  it("skips and logs each odd event of a delivery, and stores the rest", async () => {
    const owner = await createOwner();
    const { conversation, ctwaClid } = await adConversation(owner);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const now = Math.floor(Date.now() / 1000);
    const good = {
      id: `wamid.${crypto.randomUUID()}`,
      event_name: "Purchase",
      timestamp: String(now),
      ctwa_clid: ctwaClid,
      custom_data: { currency: "usd", value: "49.90" },
    };
    const odd = [
      null,
      "texto",
      { ...good, id: 42 },
      { ...good, id: `wamid.${crypto.randomUUID()}`, ctwa_clid: [ctwaClid] },
      { ...good, id: `wamid.${crypto.randomUUID()}`, custom_data: { value: { n: 1 } } },
      { ...good, id: `wamid.${crypto.randomUUID()}`, custom_data: { currency: 978 } },
      { ...good, id: `wamid.${crypto.randomUUID()}`, timestamp: "ayer" },
    ];
    try {
      const res = await deliver(detected([odd[0], good, ...odd.slice(1)]));
      expect(res.status).toBe(200);
      const skipped = warn.mock.calls.filter(
        ([text]) => text === "automatic_events: event skipped",
      );
      expect(skipped).toHaveLength(odd.length);
    } finally {
      warn.mockRestore();
    }
    const detail = await getConversation(owner, conversation.id);
    expect(detail.body.data.suggestions).toEqual([
      {
        id: expect.any(String),
        event_name: "Purchase",
        value: 49.9,
        currency: "USD",
        detected_at: new Date(now * 1000).toISOString(),
      },
    ]);
  });

  it("a dismissed lead suggestion records nothing and cannot be confirmed later", async () => {
    const owner = await createOwner();
    const { conversation, ctwaClid } = await adConversation(owner);
    await deliver(
      detected([
        {
          id: `wamid.${crypto.randomUUID()}`,
          event_name: "LeadSubmitted",
          timestamp: Math.floor(Date.now() / 1000),
          ctwa_clid: ctwaClid,
        },
        // Unknown click and unknown event names are ignored.
        { id: "wamid.x", event_name: "LeadSubmitted", timestamp: 1, ctwa_clid: "ARAkunknown" },
        { id: "wamid.y", event_name: "AddToCart", timestamp: 1, ctwa_clid: ctwaClid },
      ]),
    );
    const detail = await getConversation(owner, conversation.id);
    expect(detail.body.data.suggestions).toHaveLength(1);
    const sid = detail.body.data.suggestions[0]!.id;
    const param = { id: conversation.id, suggestionId: sid };
    const dismissed = await answer(suggestion(owner).$delete({ param }));
    expect(dismissed.status).toBe(200);
    const confirm = await answer(suggestion(owner).confirm.$post({ param }));
    expect(confirm.status).toBe(409);
    expect(
      (await conversationConversions(owner, conversation.id)).filter(
        (c) => c.event_name === "lead",
      ),
    ).toHaveLength(0);
  });
});

describe("another organization", () => {
  it("cannot see or touch a conversation's sales, conversions or suggestions", async () => {
    const owner = await createOwner();
    const { conversation, ctwaClid } = await adConversation(owner);
    await sell(owner, conversation.id, { value: 10 });
    await deliver(
      detected([
        {
          id: `wamid.${crypto.randomUUID()}`,
          event_name: "LeadSubmitted",
          timestamp: Math.floor(Date.now() / 1000),
          ctwa_clid: ctwaClid,
        },
      ]),
    );
    const detail = await getConversation(owner, conversation.id);
    const sid = detail.body.data.suggestions[0]!.id;

    const intruder = await createOwner();
    const param = { id: conversation.id };
    const ours = { ...param, suggestionId: sid };
    const byIntruder = api(intruder.token).conversations[":id"];
    expect((await sell(intruder, conversation.id, { value: 1 })).status).toBe(404);
    expect((await answer(byIntruder.conversions.$get({ param }))).status).toBe(404);
    expect((await answer(suggestion(intruder).confirm.$post({ param: ours }))).status).toBe(404);
    expect((await answer(suggestion(intruder).$delete({ param: ours }))).status).toBe(404);
    expect((await setStage(intruder, conversation.id, "lost")).status).toBe(404);
    // Their own conversation with our suggestion id: still not found.
    const theirs = await adConversation(intruder);
    expect(
      (
        await answer(
          suggestion(intruder).confirm.$post({
            param: { id: theirs.conversation.id, suggestionId: sid },
          }),
        )
      ).status,
    ).toBe(404);
    const stored = await withOrgDb(intruder.organization.id, (orgDb) =>
      orgDb.query.conversions.findMany({
        where: eq(conversions.organizationId, intruder.organization.id),
      }),
    );
    expect(stored.filter((c) => c.eventName === "purchase" || c.eventName === "lead")).toEqual([]);

    // A signed-in person without an organization gets the organization error.
    const loner = await registerUser();
    const res = await answer(api(loner.token).conversations[":id"].conversions.$get({ param }));
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("organization_not_found");
  });
});
