// The WhatsApp Business app's number and chat history (contract section 16): onboarding a
// number from the app asks Meta for its address book and history once, and the history Meta
// sends is held at once and imported by the organization's store in the background, in time
// order, once per wamid, counting for nothing (no reply, unread, window or conversion).
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { InferRequestType } from "hono/client";
import { describe, expect, it, vi } from "vitest";
import {
  DROP_STALE_PAGES,
  IMPORTED_MEDIA_TEXT,
  IMPORT_RUN_MESSAGES,
  HISTORY_DECLINED_TEXT,
  RUN_PAGE_SIZES,
} from "../../durable-objects/whatsapp/history-import";
import { migrateStore } from "../../durable-objects/migrations/store-migrations";
import { organizationStore } from "../../worker/stores/registry";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import {
  delivery,
  historyChunk,
  historyDeclined,
  inboundMessage,
  wamid,
  type HistoryMessage,
} from "../fakes/whatsapp-payloads.mjs";
import { answer, api } from "../support/api";
import { connectWhatsapp } from "../support/db";
import { createAgent, createOwner } from "../support/factories";
import { orgFirst, orgSql, setStoreFull } from "../support/org-data";
import { STORE_FULL_TEXT } from "../../durable-objects/store-room";
import { botMessages, runDueReplies } from "../support/replies";
import { connect } from "../support/sockets";
import {
  customerPhone,
  deliver,
  failNext,
  graphRequests,
  isoOfSeconds,
  modelRequests,
} from "../support/webhooks";
import { keysUnder } from "../support/scheduled-work";

const F = GRAPH_FIXTURES;
type Client = ReturnType<typeof api>;
type Exchange = InferRequestType<Client["whatsapp"]["oauth"]["exchange"]["$post"]>["json"];
type Owner = Awaited<ReturnType<typeof createOwner>>;

const newCode = () => `valid-${crypto.randomUUID()}`;
const exchange = (token: string, json: Exchange) =>
  answer(api(token).whatsapp.oauth.exchange.$post({ json }));
const config = (token: string) => answer(api(token)["whatsapp-config"].$get());
const disconnect = (token: string) => answer(api(token)["whatsapp-config"].$delete());

/** Meta's time (seconds) `minutes` ago. */
const minutesAgo = (minutes: number) => String(Math.floor(Date.now() / 1000) - minutes * 60);

/**
 * The requests the fake Graph got since `since` (ISO) for the fixtures' app number: only this
 * file connects it, so files exchanging codes in parallel on the first number add none.
 */
async function requestsSince(since: string, edge: string) {
  return (await graphRequests(`/${F.appPhoneNumberId}/${edge}`)).filter((r) => r.at >= since);
}

/** An organization whose number is shared with the app (connected by hand, then marked so). */
async function sharedNumberOwner(options: { agent?: boolean } = {}) {
  const owner = await createOwner();
  const agent = options.agent ? await createAgent(owner, { name: "Sofía" }) : null;
  const { phoneNumberId } = await connectWhatsapp(owner.organization.id, {
    defaultAgentId: agent?.id,
  });
  await env.DB.prepare("UPDATE whatsapp_connections SET coexistence = 1 WHERE organization_id = ?")
    .bind(owner.organization.id)
    .run();
  return { owner, phoneNumberId, agent };
}

const importOf = (organizationId: string) =>
  orgFirst<Record<string, any>>(
    organizationId,
    "SELECT state, progress, messages, error FROM history_imports WHERE organization_id = ?",
    organizationId,
  );

const pagesLeft = async (organizationId: string) =>
  Number(
    (await orgFirst(
      organizationId,
      "SELECT count(*) AS n FROM history_pages WHERE organization_id = ?",
      organizationId,
    ))!.n,
  );

/** Runs the store's alarm until every page held is imported (the alarm may also run alone). */
async function importEverything(owner: Owner) {
  const store = await organizationStore(env, owner.organization.id);
  await vi.waitFor(
    async () => {
      await runDurableObjectAlarm(store);
      expect(await pagesLeft(owner.organization.id)).toBe(0);
    },
    { timeout: 20_000, interval: 20 },
  );
}

const conversationOf = (organizationId: string, phone: string) =>
  orgFirst<Record<string, any>>(
    organizationId,
    "SELECT * FROM conversations WHERE organization_id = ? AND phone_number = ?",
    organizationId,
    phone,
  );

const threadOf = (organizationId: string, conversationId: string) =>
  orgSql<Record<string, any>>(
    organizationId,
    "SELECT * FROM messages WHERE conversation_id = ? ORDER BY created_at, id",
    conversationId,
  );

describe("onboarding a number from the WhatsApp Business app", () => {
  it("never registers it, asks for the address book then the history once, keeps the ids", async () => {
    const owner = await createOwner();
    const since = new Date().toISOString();
    // Meta refuses the history request: the connection stays, and the console is told why.
    await failNext("graph", {
      path: `/v25.0/${F.appPhoneNumberId}/smb_app_data`,
      contains: '"history"',
      status: 400,
      error: { message: "(#100) Invalid parameter", code: 100 },
    });
    const first = await exchange(owner.token, {
      code: newCode(),
      waba_id: F.appWabaId,
      coexistence: true,
    });
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({
      phone_number: F.appDisplayPhoneNumber,
      history_import: { state: "failed", progress: 0, messages: 0 },
    });
    expect(first.body.data.sync_error).toContain("Meta no aceptó la petición del historial");
    expect(first.body.data.history_import!.error).toContain("Meta rechazó un parámetro");

    expect(await requestsSince(since, "register")).toEqual([]);
    const asked = await requestsSince(since, "smb_app_data");
    expect(asked.map((r) => r.body)).toEqual([
      { messaging_product: "whatsapp", sync_type: "smb_app_state_sync" },
      { messaging_product: "whatsapp", sync_type: "history" },
    ]);
    const stored = () =>
      env.DB.prepare(
        "SELECT coexistence, pin_encrypted, contacts_request_id, history_request_id, status FROM whatsapp_connections WHERE organization_id = ?",
      )
        .bind(owner.organization.id)
        .first<Record<string, any>>();
    expect(await stored()).toMatchObject({
      coexistence: 1,
      pin_encrypted: null,
      contacts_request_id: expect.stringMatching(/^sync-/),
      history_request_id: null,
      status: "connected",
    });
    const shown = await config(owner.token);
    expect(shown.body.data).toMatchObject({
      status: "connected",
      coexistence: true,
      history_import: { state: "failed" },
    });

    // Connected again: only the request Meta refused is made again.
    const again = new Date().toISOString();
    const second = await exchange(owner.token, {
      code: newCode(),
      waba_id: F.appWabaId,
      coexistence: true,
    });
    expect(second.status).toBe(200);
    expect(second.body.data).toMatchObject({
      history_import: { state: "requested", error: null },
      sync_error: null,
    });
    expect((await requestsSince(again, "smb_app_data")).map((r) => r.body.sync_type)).toEqual([
      "history",
    ]);
    const ids = await stored();
    expect(ids!.history_request_id).toMatch(/^sync-/);

    // And again: both ids are kept for this number, nothing is asked of Meta.
    const third = new Date().toISOString();
    const last = await exchange(owner.token, {
      code: newCode(),
      waba_id: F.appWabaId,
      coexistence: true,
    });
    expect(last.status).toBe(200);
    expect(last.body.data.history_import).toMatchObject({ state: "requested" });
    expect(await requestsSince(third, "smb_app_data")).toEqual([]);
    expect(await stored()).toMatchObject({
      contacts_request_id: ids!.contacts_request_id,
      history_request_id: ids!.history_request_id,
    });
    expect((await config(owner.token)).body.data.history_import).toMatchObject({
      state: "requested",
    });
    await disconnect(owner.token);
  });

  it("without coexistence registers the number as before and shows no import", async () => {
    const owner = await createOwner();
    const since = new Date().toISOString();
    const res = await exchange(owner.token, { code: newCode(), waba_id: F.appWabaId });
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ phone_number: F.appDisplayPhoneNumber });
    expect(await requestsSince(since, "register")).toHaveLength(1);
    expect(await requestsSince(since, "smb_app_data")).toEqual([]);
    expect((await config(owner.token)).body.data).toMatchObject({
      coexistence: false,
      history_import: null,
    });
    await disconnect(owner.token);
  });
});

describe("the app's history", () => {
  it("lands in time order whatever the order of phases and chunks, counting nothing", async () => {
    const { owner, phoneNumberId } = await sharedNumberOwner();
    const organizationId = owner.organization.id;
    const socket = await connect(owner.token);
    const phone = customerPhone();
    const times = {
      first: minutesAgo(60 * 24 * 30),
      reply: minutesAgo(60 * 24 * 30 - 5),
      photo: minutesAgo(60 * 20),
      morning: minutesAgo(60 * 19),
      recent: minutesAgo(30),
      answer: minutesAgo(20),
    };
    const chunk = (
      phase: number,
      chunkOrder: number,
      progress: number,
      messages: HistoryMessage[],
    ) =>
      delivery(
        historyChunk({
          phoneNumberId,
          phase,
          chunkOrder,
          progress,
          threads: [{ customer: phone, messages }],
        }),
      );
    // Chunk 2 of phase 0 first, then chunk 1, then phase 1 (the oldest days), as Meta may.
    const deliveries = [
      chunk(0, 2, 40, [
        { text: "¿Me guardas dos cajas?", timestamp: times.recent },
        { text: "¡Perfecto! Te lo preparo.", fromBusiness: true, timestamp: times.answer },
      ]),
      chunk(0, 1, 70, [
        { type: "media_placeholder", timestamp: times.photo, status: "PLAYED" },
        { text: "Buenos días, ¿seguís abiertos?", timestamp: times.morning },
      ]),
      chunk(1, 1, 100, [
        { text: "Hola, ¿hacéis envíos?", timestamp: times.first },
        { text: "¡Hola! Sí, claro.", fromBusiness: true, timestamp: times.reply, status: "SENT" },
      ]),
    ];
    for (const payload of deliveries) expect((await deliver(payload)).status).toBe(200);
    await importEverything(owner);

    const conversation = (await conversationOf(organizationId, phone))!;
    const thread = await threadOf(organizationId, conversation.id);
    expect(thread.map((m) => [m.content, m.direction, m.sender_type, m.status])).toEqual([
      ["Hola, ¿hacéis envíos?", "inbound", "customer", "delivered"],
      ["¡Hola! Sí, claro.", "outbound", "phone", "sent"],
      [IMPORTED_MEDIA_TEXT, "inbound", "customer", "read"],
      ["Buenos días, ¿seguís abiertos?", "inbound", "customer", "delivered"],
      ["¿Me guardas dos cajas?", "inbound", "customer", "delivered"],
      ["¡Perfecto! Te lo preparo.", "outbound", "phone", "read"],
    ]);
    expect(thread.map((m) => m.created_at)).toEqual(
      [times.first, times.reply, times.photo, times.morning, times.recent, times.answer].map(
        isoOfSeconds,
      ),
    );
    expect(thread.every((m) => m.imported === 1 && m.sent_at === m.created_at)).toBe(true);
    // The thread's preview is its newest message; nothing is unread, the window stays shut.
    expect(conversation).toMatchObject({
      last_message_preview: "¡Perfecto! Te lo preparo.",
      last_message_at: isoOfSeconds(times.answer),
      unread_count: 0,
      last_inbound_at: null,
    });
    const messages = await answer(
      api(owner.token).conversations[":id"].messages.$get({
        param: { id: conversation.id },
        query: {},
      }),
    );
    expect(messages.body.data.messages.every((m) => m.imported)).toBe(true);

    expect(await importOf(organizationId)).toMatchObject({
      state: "done",
      progress: 100,
      messages: 6,
    });
    expect((await config(owner.token)).body.data.history_import).toEqual({
      state: "done",
      progress: 100,
      messages: 6,
      error: null,
    });
    // The console follows the import (one event per held chunk and per run), never a message.
    const done = await socket.receive(
      (e) => e.type === "import_progress" && e.data.history_import.state === "done",
    );
    expect(done.data.history_import).toMatchObject({ progress: 100, messages: 6 });
    expect(socket.received.some((e) => e.type === "new_message")).toBe(false);
    const progress = socket.received
      .filter((e) => e.type === "import_progress")
      .map((e) => e.data.history_import.progress);
    expect(progress.slice(0, 3)).toEqual([40, 70, 100]);
    socket.socket.close();
  });

  it("stores each message once: a repeated chunk, or one already stored live", async () => {
    const { owner, phoneNumberId } = await sharedNumberOwner();
    const organizationId = owner.organization.id;
    const phone = customerPhone();
    const live = wamid();
    await deliver(delivery(inboundMessage({ phoneNumberId, from: phone, id: live, text: "Hola" })));
    const chunk = delivery(
      historyChunk({
        phoneNumberId,
        threads: [
          {
            customer: phone,
            messages: [
              { id: live, text: "Hola", timestamp: minutesAgo(1) },
              { id: wamid(), text: "Antes", timestamp: minutesAgo(90) },
              { id: wamid(), text: "Respuesta", fromBusiness: true, timestamp: minutesAgo(80) },
            ],
          },
        ],
      }),
    );
    expect((await deliver(chunk)).status).toBe(200);
    expect((await deliver(chunk)).status).toBe(200);
    await importEverything(owner);
    // Meta repeats it after the import: nothing more.
    expect((await deliver(chunk)).status).toBe(200);
    await importEverything(owner);

    const conversation = (await conversationOf(organizationId, phone))!;
    const thread = await threadOf(organizationId, conversation.id);
    expect(thread.map((m) => [m.content, m.imported])).toEqual([
      ["Antes", 1],
      ["Respuesta", 1],
      ["Hola", 0],
    ]);
    expect(await importOf(organizationId)).toMatchObject({ state: "done", messages: 2 });
    // The live message still shows: the imported ones are older.
    expect(conversation.last_message_preview).toBe("Hola");
    expect(conversation.unread_count).toBe(1);
  });

  it("a declined history says so in Spanish; another refusal is failed with its reason", async () => {
    const { owner, phoneNumberId } = await sharedNumberOwner();
    expect((await deliver(delivery(historyDeclined({ phoneNumberId })))).status).toBe(200);
    expect((await config(owner.token)).body.data.history_import).toEqual({
      state: "declined",
      progress: 0,
      messages: 0,
      error: HISTORY_DECLINED_TEXT,
    });
    expect(await pagesLeft(owner.organization.id)).toBe(0);

    const other = await sharedNumberOwner();
    const refused = historyDeclined({ phoneNumberId: other.phoneNumberId });
    const value = refused.value as { history: { errors: { code: number }[] }[] };
    value.history[0]!.errors[0]!.code = 131000;
    expect((await deliver(delivery(refused))).status).toBe(200);
    const failed = (await config(other.owner.token)).body.data.history_import!;
    expect(failed.state).toBe("failed");
    expect(failed.error).toContain("Meta no pudo enviar el historial");
    expect(failed.error).toContain("error desconocido");
  });

  it("imported messages never answer, open the window or make a conversion", async () => {
    const { owner, phoneNumberId } = await sharedNumberOwner({ agent: true });
    const organizationId = owner.organization.id;
    const phone = customerPhone();
    const words = `Quiero comprar ${crypto.randomUUID()}`;
    await deliver(
      delivery(
        historyChunk({
          phoneNumberId,
          threads: [{ customer: phone, messages: [{ text: words, timestamp: minutesAgo(5) }] }],
        }),
      ),
    );
    await importEverything(owner);
    const conversation = (await conversationOf(organizationId, phone))!;
    expect(conversation).toMatchObject({ unread_count: 0, last_inbound_at: null });
    const store = await organizationStore(env, organizationId);
    const replies = await keysUnder(store, "reply:");
    expect(replies).toEqual([]);
    await runDueReplies(store);
    expect(await botMessages(organizationId, conversation.id)).toEqual([]);
    expect((await modelRequests()).some((r) => JSON.stringify(r.body).includes(words))).toBe(false);
    const conversions = await orgSql(
      organizationId,
      "SELECT id FROM conversions WHERE conversation_id = ?",
      conversation.id,
    );
    expect(conversions).toEqual([]);
    // The window needs a message written after onboarding: a reply is refused.
    const reply = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: conversation.id, content: "Hola" },
      }),
    );
    expect(reply.status).toBe(422);
  });

  it("holds a 5,000-message chunk at once; a live message never waits for its import", async () => {
    const { owner, phoneNumberId } = await sharedNumberOwner({ agent: true });
    const organizationId = owner.organization.id;
    const socket = await connect(owner.token);
    const phone = customerPhone();
    const big = Array.from({ length: 5_000 }, (_, i) => ({
      text: `Mensaje antiguo ${i}`,
      timestamp: minutesAgo(10_000 - i),
      fromBusiness: i % 3 === 0,
    }));
    // Meta may put a customer's message in the delivery that brings a big chunk: it is stored
    // with the delivery, before any of the history (rowid is the order rows were written in).
    const someone = customerPhone();
    const held = await deliver(
      delivery(
        historyChunk({ phoneNumberId, threads: [{ customer: phone, messages: big }] }),
        inboundMessage({ phoneNumberId, from: someone, text: "¿Tenéis cita hoy?" }),
      ),
    );
    expect(held.status).toBe(200);
    const liveConversation = (await conversationOf(organizationId, someone))!;
    const [liveMessage] = await threadOf(organizationId, liveConversation.id);
    expect(liveMessage).toMatchObject({ content: "¿Tenéis cita hoy?", imported: 0 });

    // And one in a delivery of its own, wherever the import stands: stored, not held back.
    const another = customerPhone();
    const live = await deliver(
      delivery(inboundMessage({ phoneNumberId, from: another, text: "¿Y mañana?" })),
    );
    expect(live.status).toBe(200);
    const anotherConversation = (await conversationOf(organizationId, another))!;
    expect((await threadOf(organizationId, anotherConversation.id))[0]).toMatchObject({
      content: "¿Y mañana?",
      imported: 0,
    });

    await importEverything(owner);
    const written = await orgFirst<{ live: number; first: number }>(
      organizationId,
      `SELECT (SELECT rowid FROM messages WHERE id = ?2) AS live,
         (SELECT min(rowid) FROM messages WHERE organization_id = ?1 AND imported = 1) AS first`,
      organizationId,
      liveMessage!.id,
    );
    expect(written!.live).toBeLessThan(written!.first);
    const store = await organizationStore(env, organizationId);
    await runDueReplies(store);
    for (const [conversation, words] of [
      [liveConversation, "¿Tenéis cita hoy?"],
      [anotherConversation, "¿Y mañana?"],
    ] as const) {
      expect((await botMessages(organizationId, conversation.id))[0]!.content).toContain(words);
    }
    const imported = await orgFirst<{ n: number; outbound: number }>(
      organizationId,
      `SELECT count(*) AS n, sum(direction = 'outbound' AND sender_type = 'phone') AS outbound
       FROM messages WHERE organization_id = ? AND imported = 1`,
      organizationId,
    );
    expect(imported).toEqual({ n: 5_000, outbound: 1_667 });
    expect(await importOf(organizationId)).toMatchObject({ state: "done", messages: 5_000 });
    // Imported a bounded run at a time: one event when it was held, one a run of at most
    // IMPORT_RUN_MESSAGES (a live delivery waits for one run at most).
    await socket.receive(
      (e) => e.type === "import_progress" && e.data.history_import.state === "done",
    );
    const counts = socket.received
      .filter((e) => e.type === "import_progress")
      .map((e) => e.data.history_import.messages);
    const runs = Math.ceil(5_000 / IMPORT_RUN_MESSAGES);
    expect(counts).toEqual([
      0,
      ...Array.from({ length: runs }, (_, i) => Math.min(5_000, (i + 1) * IMPORT_RUN_MESSAGES)),
    ]);
    socket.socket.close();
  });

  it("imports a chunk of many small threads, each in its customer's conversation", async () => {
    const { owner, phoneNumberId } = await sharedNumberOwner();
    const organizationId = owner.organization.id;
    const phones = Array.from({ length: 600 }, (_, i) => `3466${String(1_000_000 + i)}`);
    const chunk = historyChunk({
      phoneNumberId,
      threads: phones.map((phone) => ({
        customer: phone,
        messages: [{ text: `Hola desde ${phone}`, timestamp: minutesAgo(30) }],
      })),
    });
    expect((await deliver(delivery(chunk))).status).toBe(200);
    await importEverything(owner);
    const rows = await orgSql<{ phone_number: string; content: string }>(
      organizationId,
      `SELECT c.phone_number, m.content FROM messages m JOIN conversations c ON c.id = m.conversation_id
       WHERE m.organization_id = ? AND m.imported = 1`,
      organizationId,
    );
    expect(rows).toHaveLength(600);
    expect(rows.every((r) => r.content === `Hola desde ${r.phone_number}`)).toBe(true);
    expect(await importOf(organizationId)).toMatchObject({ state: "done", messages: 600 });
  });

  it("one organization's history never lands in another's conversations", async () => {
    const first = await sharedNumberOwner();
    const second = await sharedNumberOwner();
    const phone = customerPhone();
    // The same customer writes to the second organization live.
    await deliver(
      delivery(inboundMessage({ phoneNumberId: second.phoneNumberId, from: phone, text: "Hola" })),
    );
    await deliver(
      delivery(
        historyChunk({
          phoneNumberId: first.phoneNumberId,
          threads: [
            { customer: phone, messages: [{ text: "Del primero", timestamp: minutesAgo(9) }] },
          ],
        }),
      ),
    );
    await importEverything(first.owner);
    const mine = (await conversationOf(first.owner.organization.id, phone))!;
    expect((await threadOf(first.owner.organization.id, mine.id)).map((m) => m.content)).toEqual([
      "Del primero",
    ]);
    const theirs = (await conversationOf(second.owner.organization.id, phone))!;
    expect((await threadOf(second.owner.organization.id, theirs.id)).map((m) => m.content)).toEqual(
      ["Hola"],
    );
    expect(await importOf(second.owner.organization.id)).toBeNull();
  });

  it("drops, and does not import, pages held for more than 7 days", async () => {
    const { owner, phoneNumberId } = await sharedNumberOwner();
    const organizationId = owner.organization.id;
    const phone = customerPhone();
    const stale = [
      {
        from: phone,
        id: wamid(),
        timestamp: minutesAgo(60),
        type: "text",
        text: { body: "Viejo" },
      },
    ];
    await orgSql(
      organizationId,
      `INSERT INTO history_pages (id, organization_id, phase, chunk_order, progress, thread_id,
        messages, received_at, message_count) VALUES (?, ?, 0, 1, 50, ?, ?, ?, 1)`,
      crypto.randomUUID(),
      organizationId,
      phone,
      JSON.stringify(stale),
      new Date(Date.now() - 8 * 24 * 60 * 60_000).toISOString(),
    );
    await deliver(
      delivery(
        historyChunk({
          phoneNumberId,
          chunkOrder: 2,
          threads: [
            { customer: phone, messages: [{ text: "Reciente", timestamp: minutesAgo(5) }] },
          ],
        }),
      ),
    );
    await importEverything(owner);
    const conversation = (await conversationOf(organizationId, phone))!;
    expect((await threadOf(organizationId, conversation.id)).map((m) => m.content)).toEqual([
      "Reciente",
    ]);
    expect(await importOf(organizationId)).toMatchObject({ state: "done", messages: 1 });
  });

  it("waits while its store has no room, keeping every live message, and goes on once there is", async () => {
    const { owner, phoneNumberId } = await sharedNumberOwner();
    const organizationId = owner.organization.id;
    const phone = customerPhone();
    await setStoreFull(organizationId, true);
    await deliver(
      delivery(
        historyChunk({
          phoneNumberId,
          threads: [
            { customer: phone, messages: [{ text: "Del móvil", timestamp: minutesAgo(90) }] },
          ],
        }),
      ),
    );
    const store = await organizationStore(env, organizationId);
    await vi.waitFor(
      async () => {
        await runDurableObjectAlarm(store);
        expect(await importOf(organizationId)).toMatchObject({
          state: "failed",
          error: STORE_FULL_TEXT,
        });
      },
      { timeout: 10_000, interval: 20 },
    );
    expect(await pagesLeft(organizationId)).toBe(1);
    // A customer's message is stored whatever the room.
    const live = await deliver(
      delivery(inboundMessage({ phoneNumberId, from: phone, text: "¿Seguís abiertos?" })),
    );
    expect(live.status).toBe(200);
    const conversation = (await conversationOf(organizationId, phone))!;
    expect((await threadOf(organizationId, conversation.id)).map((m) => m.content)).toEqual([
      "¿Seguís abiertos?",
    ]);

    await setStoreFull(organizationId, false);
    await store.scheduleJob(organizationId, "history", Date.now());
    await importEverything(owner);
    expect((await threadOf(organizationId, conversation.id)).map((m) => m.content)).toEqual([
      "Del móvil",
      "¿Seguís abiertos?",
    ]);
    expect((await importOf(organizationId))!.error).toBeNull();
  });
});

describe("what a run reads of the pages waiting", () => {
  it("sizes the run and finds stale pages from indexes alone, never parsing a page's messages", async () => {
    const { owner } = await sharedNumberOwner();
    const organizationId = owner.organization.id;
    const plan = async (sql: string, ...params: unknown[]) =>
      (
        await orgSql<{ detail: string }>(organizationId, `EXPLAIN QUERY PLAN ${sql}`, ...params)
      ).map((row) => row.detail);
    expect(await plan(RUN_PAGE_SIZES, organizationId, 500)).toEqual([
      expect.stringMatching(/^SEARCH history_pages USING COVERING INDEX history_pages_order_idx/),
    ]);
    expect(await plan(DROP_STALE_PAGES, organizationId, new Date().toISOString())).toEqual([
      expect.stringMatching(
        /^SEARCH history_pages USING (COVERING )?INDEX history_pages_received_idx/,
      ),
    ]);
  });

  it("counts the pages a store held before migration 21 when it migrates", async () => {
    const store = env.ORGANIZATION_HUB.getByName(crypto.randomUUID());
    await runInDurableObject(store, (_, state) => {
      const { sql } = state.storage;
      // The store as version 20 left it: no count, the order index without it.
      sql.exec(`DROP INDEX history_pages_order_idx; DROP INDEX history_pages_received_idx;
        ALTER TABLE history_pages DROP COLUMN message_count;
        CREATE INDEX history_pages_order_idx
          ON history_pages (organization_id, phase, chunk_order, id);
        DELETE FROM store_migrations WHERE version = 21`);
      for (const [thread, size] of [
        ["34611000001", 3],
        ["34611000002", 1],
      ] as const) {
        sql.exec(
          `INSERT INTO history_pages (id, organization_id, phase, chunk_order, progress,
            thread_id, messages, received_at) VALUES (?, 'org', 0, 1, 10, ?, ?, ?)`,
          crypto.randomUUID(),
          thread,
          JSON.stringify(Array.from({ length: size }, (_, i) => ({ id: `w${i}`, type: "text" }))),
          new Date().toISOString(),
        );
      }
      expect(migrateStore(state.storage)).toEqual({ from: 20, to: 21 });
      expect(
        sql.exec("SELECT thread_id, message_count FROM history_pages ORDER BY thread_id").toArray(),
      ).toEqual([
        { thread_id: "34611000001", message_count: 3 },
        { thread_id: "34611000002", message_count: 1 },
      ]);
    });
  });
});
