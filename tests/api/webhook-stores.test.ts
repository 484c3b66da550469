// The WhatsApp webhook writes each organization's part of a delivery in that organization's
// store (contract section 15): one call per store, one transaction there, 200 only once every
// store it touched has committed, 500 when one failed (Meta retries, and nothing is stored
// twice), and while an organization moves its part is held and applied once when it has moved.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { ctwaReferral, delivery, inboundMessage, wamid } from "../fakes/whatsapp-payloads.mjs";
import { connectWhatsapp } from "../support/db";
import { createAgent, createConversation, createOwner } from "../support/factories";
import { keepInD1, orgSql } from "../support/org-data";
import { beginAndCopy, copyAll, listedStore, operator, switchAndSync } from "../support/operator";
import { connect } from "../support/sockets";
import { customerPhone, deliver } from "../support/webhooks";
import { allDataInStore, organizationStore, storeRoute } from "../../worker/stores/registry";
import type { DeliveryPart } from "../../worker/whatsapp/ingest";

type Row = Record<string, SqlStorageValue>;
type Arrived = NonNullable<DeliveryPart["number"]>["messages"][number];

/** An owner with WhatsApp connected, whose data is in its store (or in D1: `keepInD1`). */
async function connectedOwner(options: { businessAccountId?: string; inD1?: boolean } = {}) {
  const { businessAccountId, inD1 = false } = options;
  const owner = await createOwner();
  const organizationId = owner.organization.id as string;
  if (inD1) await keepInD1(organizationId);
  const connection = await connectWhatsapp(organizationId, { businessAccountId });
  expect(allDataInStore(await storeRoute(env, organizationId))).toBe(!inD1);
  return { ...owner, ...connection };
}

/** Runs plain SQL in the organization's store itself (its Durable Object's SQLite). */
async function inStore(organizationId: string, sql: string, ...params: SqlStorageValue[]) {
  const store = await organizationStore(env, organizationId);
  return runInDurableObject(store, (_, state) =>
    state.storage.sql.exec<Row>(sql, ...params).toArray(),
  );
}

/** How many times each wamid is stored in the organization's store. */
async function storedTimes(organizationId: string, ...wamids: string[]) {
  const rows = await inStore(
    organizationId,
    `SELECT wamid, count(*) AS times FROM messages WHERE organization_id = ?
     AND wamid IN (SELECT value FROM json_each(?)) GROUP BY wamid`,
    organizationId,
    JSON.stringify(wamids),
  );
  return Object.fromEntries(wamids.map((w) => [w, rows.find((r) => r.wamid === w)?.times ?? 0]));
}

/** How many of these wamids D1 holds: none, once every organization's data is in its store. */
const inD1 = async (...wamids: string[]) =>
  (await env.DB.prepare(
    "SELECT count(*) AS n FROM messages WHERE wamid IN (SELECT value FROM json_each(?))",
  )
    .bind(JSON.stringify(wamids))
    .first<{ n: number }>())!.n;

/** The deliveries a store holds while its organization moves. */
/** A move's end: its store's job applies what it held, after the step has answered. */
const heldApplied = (organizationId: string) =>
  vi.waitFor(async () => expect(await heldIn(organizationId)).toBe(0));

async function heldIn(organizationId: string) {
  const store = await organizationStore(env, organizationId);
  return runInDurableObject(
    store,
    async (_, state) => (await state.storage.list({ prefix: "held:" })).size,
  );
}

const text = (phoneNumberId: string, body: string, id = wamid()) =>
  inboundMessage({ phoneNumberId, from: customerPhone(), text: body, id });

describe("a delivery for organizations whose data is in their stores", () => {
  it("lands in each store and nowhere else, committed before the 200, and once however often it comes", async () => {
    const [a, b] = [await connectedOwner(), await connectedOwner()];
    const socket = await connect(a.token);
    const [wa, wb] = [wamid(), wamid()];
    const payload = delivery(
      text(a.phoneNumberId, "Hola A", wa),
      text(b.phoneNumberId, "Hola B", wb),
    );

    const response = await deliver(payload);
    expect(response.status).toBe(200);
    expect(response.body).toEqual({ received: true, stored: 2 });
    // Read after the answer: both stores had committed before it.
    expect(await storedTimes(a.organizationId, wa, wb)).toEqual({ [wa]: 1, [wb]: 0 });
    expect(await storedTimes(b.organizationId, wa, wb)).toEqual({ [wa]: 0, [wb]: 1 });
    expect(await inD1(wa, wb)).toBe(0);
    const conversations = (id: string) =>
      inStore(id, "SELECT count(*) AS n FROM conversations WHERE organization_id = ?", id);
    expect(await conversations(a.organizationId)).toEqual([{ n: 1 }]);
    expect(await conversations(b.organizationId)).toEqual([{ n: 1 }]);
    // Its store told A's console, and only of A's message.
    const event = await socket.receive((e) => e.type === "new_message");
    expect(event.data.message.content).toBe("Hola A");

    const again = await deliver(payload);
    expect(again.body).toEqual({ received: true, stored: 0 });
    expect(await storedTimes(a.organizationId, wa)).toEqual({ [wa]: 1 });
    expect(await storedTimes(b.organizationId, wb)).toEqual({ [wb]: 1 });
    expect(socket.received.filter((e) => e.type === "new_message")).toHaveLength(1);
    socket.socket.close();
  });

  it("schedules the agent's answer in the store, with the message it answers", async () => {
    const owner = await connectedOwner();
    const agent = await createAgent(owner);
    const conversation = await createConversation(owner, { agent_id: agent.id });
    const message = wamid();
    const hello = inboundMessage({
      phoneNumberId: owner.phoneNumberId,
      from: conversation.phone_number,
      text: "¿Abrís mañana?",
      id: message,
    });
    expect((await deliver(delivery(hello))).status).toBe(200);
    expect(await storedTimes(owner.organizationId, message)).toEqual({ [message]: 1 });
    const store = await organizationStore(env, owner.organizationId);
    const scheduled = await runInDurableObject(store, (_, state) =>
      state.storage.list({ prefix: "reply:" }),
    );
    expect([...scheduled.keys()]).toEqual([`reply:${conversation.id}`]);
  });

  it("gives a template's new status to each organization sharing the account, in its store", async () => {
    const account = `waba-${crypto.randomUUID().slice(0, 8)}`;
    const [a, b] = [
      await connectedOwner({ businessAccountId: account }),
      await connectedOwner({ businessAccountId: account }),
    ];
    const other = await connectedOwner();
    for (const { organizationId } of [a, b, other]) {
      await orgSql(
        organizationId,
        `INSERT INTO whatsapp_templates (id, organization_id, meta_template_id, name, language,
           category, status, components, updated_at)
         VALUES (?, ?, '7001', 'bienvenida', 'es', 'MARKETING', 'APPROVED', '[]', ?)`,
        crypto.randomUUID(),
        organizationId,
        new Date().toISOString(),
      );
    }
    const response = await deliver({
      object: "whatsapp_business_account",
      entry: [
        {
          id: account,
          changes: [
            {
              field: "message_template_status_update",
              value: { event: "PAUSED", message_template_id: 7001 },
            },
          ],
        },
      ],
    });
    expect(response.status).toBe(200);
    const status = (id: string) =>
      inStore(id, "SELECT status FROM whatsapp_templates WHERE organization_id = ?", id);
    expect(await status(a.organizationId)).toEqual([{ status: "PAUSED" }]);
    expect(await status(b.organizationId)).toEqual([{ status: "PAUSED" }]);
    expect(await status(other.organizationId)).toEqual([{ status: "APPROVED" }]);
  });
  it("gives what Meta detected to the organization of the click, among those sharing the account", async () => {
    const account = `waba-${crypto.randomUUID().slice(0, 8)}`;
    const [a, b] = [
      await connectedOwner({ businessAccountId: account }),
      await connectedOwner({ businessAccountId: account }),
    ];
    const ctwaClid = `ARAk${crypto.randomUUID().slice(0, 8)}`;
    const click = inboundMessage({
      phoneNumberId: a.phoneNumberId,
      from: customerPhone(),
      referral: ctwaReferral({ ctwaClid }),
    });
    expect((await deliver(delivery(click))).status).toBe(200);
    const purchase = {
      id: wamid(),
      event_name: "Purchase",
      timestamp: Math.floor(Date.now() / 1000),
      ctwa_clid: ctwaClid,
      custom_data: { currency: "EUR", value: 120 },
    };
    const detected = delivery({
      wabaId: account,
      field: "automatic_events",
      value: { messaging_product: "whatsapp", automatic_events: [purchase] },
    });
    expect((await deliver(detected)).status).toBe(200);
    const suggestions = (id: string) =>
      inStore(
        id,
        "SELECT event_name, value FROM conversion_suggestions WHERE organization_id = ?",
        id,
      );
    expect(await suggestions(a.organizationId)).toEqual([{ event_name: "Purchase", value: 120 }]);
    expect(await suggestions(b.organizationId)).toEqual([]);
  });
});

describe("a delivery for an organization whose data is still in D1", () => {
  it("is written there by the Worker, as before the stores", async () => {
    const a = await connectedOwner({ inD1: true });
    const message = wamid();
    const response = await deliver(delivery(text(a.phoneNumberId, "Hola", message)));
    expect(response.body).toEqual({ received: true, stored: 1 });
    expect(await inD1(message)).toBe(1);
    expect(await storedTimes(a.organizationId, message)).toEqual({ [message]: 0 });
  });
});

describe("a store that fails mid-delivery", () => {
  it("answers 500 with nothing of that organization stored, and Meta's retry stores each message once", async () => {
    const [a, b] = [await connectedOwner(), await connectedOwner()];
    const [first, refused, wb] = [wamid(), wamid(), wamid()];
    const payload = delivery(
      text(a.phoneNumberId, "Primero", first),
      text(a.phoneNumberId, "Segundo", refused),
      text(b.phoneNumberId, "Hola B", wb),
    );
    // A's store refuses the second message, as a failing disk or a bug would.
    await inStore(
      a.organizationId,
      `CREATE TRIGGER refuse_for_test BEFORE INSERT ON messages WHEN NEW.wamid = '${refused}'
       BEGIN SELECT RAISE(ABORT, 'refused for the test'); END`,
    );

    const failed = await deliver(payload);
    expect(failed.status).toBe(500);
    // A's part is one transaction: neither of its messages, nor their conversations, stayed.
    expect(await storedTimes(a.organizationId, first, refused)).toEqual({
      [first]: 0,
      [refused]: 0,
    });
    expect(
      await inStore(
        a.organizationId,
        "SELECT count(*) AS n FROM conversations WHERE organization_id = ?",
        a.organizationId,
      ),
    ).toEqual([{ n: 0 }]);
    expect(await storedTimes(b.organizationId, wb)).toEqual({ [wb]: 1 });

    await inStore(a.organizationId, "DROP TRIGGER refuse_for_test");
    const retried = await deliver(payload);
    expect(retried.body).toEqual({ received: true, stored: 2 });
    expect(await storedTimes(a.organizationId, first, refused)).toEqual({
      [first]: 1,
      [refused]: 1,
    });
    expect(await storedTimes(b.organizationId, wb)).toEqual({ [wb]: 1 });
    expect(await inD1(first, refused, wb)).toBe(0);
  });
});

describe("a delivery while its organization's rows are copied (copying)", () => {
  it("is stored where the data is, and the switch carries it: once, in the store", async () => {
    const a = await connectedOwner({ inD1: true });
    const from = customerPhone();
    const before = wamid();
    const during = wamid();
    await deliver(delivery(inboundMessage({ phoneNumberId: a.phoneNumberId, from, id: before })));
    const begun = await operator(`/stores/${a.organizationId}/move`, { to: "store" });
    await copyAll(a.organizationId, begun.body.data.tables);

    const response = await deliver(
      delivery(inboundMessage({ phoneNumberId: a.phoneNumberId, from, id: during })),
    );
    expect(response.body).toEqual({ received: true, stored: 1 });
    expect(await inD1(before, during)).toBe(2);
    expect(await storedTimes(a.organizationId, before, during)).toEqual({
      [before]: 1,
      [during]: 0,
    });
    // A new customer too: their message's conversation came after the conversations' copy.
    const newcomer = customerPhone();
    const first = wamid();
    await deliver(
      delivery(inboundMessage({ phoneNumberId: a.phoneNumberId, from: newcomer, id: first })),
    );
    const late = await copyAll(a.organizationId, ["messages"]);
    // Theirs is refused (its conversation is not there yet) and left for after the switch; the
    // other customer's new message goes in.
    expect(late.messages!.reduce((sum, page) => sum + page.changed, 0)).toBe(1);
    expect(await storedTimes(a.organizationId, during, first)).toEqual({ [during]: 1, [first]: 0 });

    await switchAndSync(a.organizationId);
    const finished = await operator(`/stores/${a.organizationId}/finish`);
    expect(finished.body.data).toMatchObject({ moved: true, state: "store" });
    expect(await storedTimes(a.organizationId, before, during, first)).toEqual({
      [before]: 1,
      [during]: 1,
      [first]: 1,
    });
    // Its conversation's counts came with it: two unread messages, not one.
    const [conversation] = await inStore(
      a.organizationId,
      "SELECT unread_count FROM conversations WHERE phone_number = ?",
      from,
    );
    expect(conversation).toEqual({ unread_count: 2 });
  });
});

describe("a delivery while its organization moves (switching)", () => {
  it("is answered 200, held unseen, and applied once and in order when the move finishes", async () => {
    // An organization of before the stores, moving into its store.
    const a = await connectedOwner({ inD1: true });
    const from = customerPhone();
    const message = wamid();
    const hola = delivery(inboundMessage({ phoneNumberId: a.phoneNumberId, from, id: message }));
    // Applied before its message, a reaction would find nothing to react to.
    const reaction = delivery(
      inboundMessage({
        phoneNumberId: a.phoneNumberId,
        from,
        type: "reaction",
        part: { message_id: message, emoji: "👍" },
      }),
    );
    await beginAndCopy(a.organizationId, "store");

    for (const payload of [hola, hola, reaction]) {
      const response = await deliver(payload);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ received: true, stored: 0 });
    }
    expect(await storedTimes(a.organizationId, message)).toEqual({ [message]: 0 });
    expect(await inD1(message)).toBe(0);
    expect(await heldIn(a.organizationId)).toBe(3);
    // The store's own job will apply them whatever becomes of the move's end.
    const store = await organizationStore(env, a.organizationId);
    const job = () =>
      runInDurableObject(store, (_, state) => state.storage.get("job:held_deliveries"));
    expect(await job()).toBeDefined();

    const finished = await operator(`/stores/${a.organizationId}/finish`);
    expect(finished.body.data).toMatchObject({ moved: true, state: "store" });
    await heldApplied(a.organizationId);
    expect(await storedTimes(a.organizationId, message)).toEqual({ [message]: 1 });
    const [stored] = await inStore(
      a.organizationId,
      "SELECT reactions FROM messages WHERE wamid = ?",
      message,
    );
    expect(JSON.parse(String(stored!.reactions))).toEqual([
      { emoji: "👍", from, at: expect.any(String) },
    ]);
    expect(await heldIn(a.organizationId)).toBe(0);
    expect(await inD1(message)).toBe(0);

    // The next part held takes a number never given before: a call that listed the parts
    // earlier can never take it for one it saw under the same key.
    await beginAndCopy(a.organizationId, "d1");
    const later = wamid();
    expect((await deliver(delivery(text(a.phoneNumberId, "¿Seguís?", later)))).status).toBe(200);
    const keys = await runInDurableObject(store, async (_, state) => [
      ...(await state.storage.list({ prefix: "held:" })).keys(),
    ]);
    expect(keys).toEqual(["held:000000000004"]);
    await operator(`/stores/${a.organizationId}/abort`);
    await heldApplied(a.organizationId);
    expect(await storedTimes(a.organizationId, message, later)).toEqual({
      [message]: 1,
      [later]: 1,
    });
  });

  it("is applied where the data stayed when the move is abandoned", async () => {
    const a = await connectedOwner();
    const message = wamid();
    await beginAndCopy(a.organizationId, "d1");
    expect((await deliver(delivery(text(a.phoneNumberId, "Hola", message)))).status).toBe(200);
    expect(await storedTimes(a.organizationId, message)).toEqual({ [message]: 0 });

    expect((await operator(`/stores/${a.organizationId}/abort`)).body.data).toEqual({
      state: "store",
    });
    await heldApplied(a.organizationId);
    expect(await storedTimes(a.organizationId, message)).toEqual({ [message]: 1 });
    expect(await inD1(message)).toBe(0);
  });

  it("a held part that fails when the move ends is tried again by the store, without another delivery", async () => {
    const a = await connectedOwner();
    const message = wamid();
    await beginAndCopy(a.organizationId, "d1");
    expect((await deliver(delivery(text(a.phoneNumberId, "Hola", message)))).status).toBe(200);
    // The store refuses it once, as a failing disk or a bug would.
    await inStore(
      a.organizationId,
      `CREATE TRIGGER refuse_for_test BEFORE INSERT ON messages WHEN NEW.wamid = '${message}'
       BEGIN SELECT RAISE(ABORT, 'refused for the test'); END`,
    );
    expect((await operator(`/stores/${a.organizationId}/abort`)).body.data).toEqual({
      state: "store",
    });
    // The store's job, run after the abort answered, fails it and looks again later.
    const store = await organizationStore(env, a.organizationId);
    const job = () =>
      runInDurableObject(store, (_, state) =>
        state.storage.get<{ dueAt: number; running?: unknown }>("job:held_deliveries"),
      );
    await vi.waitFor(async () => {
      const held = await job();
      expect(held?.running).toBeUndefined();
      expect(held!.dueAt).toBeGreaterThan(Date.now());
    });
    expect(await storedTimes(a.organizationId, message)).toEqual({ [message]: 0 });
    expect(await heldIn(a.organizationId)).toBe(1);

    await inStore(a.organizationId, "DROP TRIGGER refuse_for_test");
    await runInDurableObject(store, async (_, state) => {
      const held = await state.storage.get<{ dueAt: number }>("job:held_deliveries");
      await state.storage.put("job:held_deliveries", { ...held, dueAt: Date.now() - 1 });
    });
    await runDurableObjectAlarm(store);
    expect(await storedTimes(a.organizationId, message)).toEqual({ [message]: 1 });
    expect(await heldIn(a.organizationId)).toBe(0);
    expect(
      await runInDurableObject(store, (_, state) => state.storage.get("job:held_deliveries")),
    ).toBeUndefined();
  });

  it("a held part that fails for an hour is set aside: the parts after it go ahead, and it is kept and tried hourly", async () => {
    const a = await connectedOwner();
    const [poison, after, live, later] = [wamid(), wamid(), wamid(), wamid()];
    await beginAndCopy(a.organizationId, "d1");
    for (const id of [poison, after]) {
      expect((await deliver(delivery(text(a.phoneNumberId, "Hola", id)))).status).toBe(200);
    }
    await inStore(
      a.organizationId,
      `CREATE TRIGGER refuse_for_test BEFORE INSERT ON messages WHEN NEW.wamid = '${poison}'
       BEGIN SELECT RAISE(ABORT, 'refused for the test'); END`,
    );
    const store = await organizationStore(env, a.organizationId);
    const keys = (prefix: string) =>
      runInDurableObject(store, async (_, state) => [
        ...(await state.storage.list<number>({ prefix })).values(),
      ]);
    const runJobNow = async () => {
      await runInDurableObject(store, async (_, state) => {
        const job = await state.storage.get<{ dueAt: number }>("job:held_deliveries");
        await state.storage.put("job:held_deliveries", { ...job, dueAt: Date.now() - 1 });
      });
      await runDurableObjectAlarm(store);
      return runInDurableObject(store, (_, state) =>
        state.storage.get<{ dueAt: number }>("job:held_deliveries"),
      );
    };

    // The move's end and a live delivery each try it; neither starts the clock (a burst of
    // deliveries during a short failure must not). The part after it keeps its turn.
    await operator(`/stores/${a.organizationId}/abort`);
    expect((await deliver(delivery(text(a.phoneNumberId, "¿Hay stock?", live)))).status).toBe(200);
    expect(await storedTimes(a.organizationId, poison, after, live)).toEqual({
      [poison]: 0,
      [after]: 0,
      [live]: 1,
    });
    expect(await keys("held-failures:")).toEqual([]);

    // The job's tries: failing since the first, for minutes, it keeps its turn.
    expect((await runJobNow())!.dueAt).toBeLessThan(Date.now() + 60_000);
    const [since] = await keys("held-failures:");
    expect(since).toBeLessThanOrEqual(Date.now());
    expect((await runJobNow())!.dueAt).toBeLessThan(Date.now() + 60_000);
    expect(await keys("held-failures:")).toEqual([since]);
    expect(await storedTimes(a.organizationId, after)).toEqual({ [after]: 0 });

    // Failing for an hour: set aside. The part after it is applied; it stays, tried hourly.
    await runInDurableObject(store, async (_, state) => {
      const [key] = (await state.storage.list({ prefix: "held-failures:" })).keys();
      await state.storage.put(key!, Date.now() - 61 * 60_000);
    });
    expect((await runJobNow())!.dueAt).toBeGreaterThan(Date.now() + 30 * 60_000);
    expect(await storedTimes(a.organizationId, poison, after)).toEqual({ [poison]: 0, [after]: 1 });
    expect(await heldIn(a.organizationId)).toBe(0);
    expect(await keys("stuck:")).toHaveLength(1);
    expect(await keys("held-failures:")).toEqual([]);
    // The operator's list flags it.
    expect((await listedStore(a.organizationId))?.stuck_parts).toBe(1);
    expect((await deliver(delivery(text(a.phoneNumberId, "¿Seguís?", later)))).status).toBe(200);
    expect(await storedTimes(a.organizationId, later)).toEqual({ [later]: 1 });

    // Once the cause is mended, the job's next try stores it, and the job ends.
    await inStore(a.organizationId, "DROP TRIGGER refuse_for_test");
    expect(await runJobNow()).toBeUndefined();
    expect(await storedTimes(a.organizationId, poison)).toEqual({ [poison]: 1 });
    expect(await keys("stuck:")).toEqual([]);
    expect((await listedStore(a.organizationId))?.stuck_parts).toBe(0);
  });

  it("a part handed over by a Worker that still sees the move over is applied at once", async () => {
    const a = await connectedOwner();
    const message = wamid();
    const { messages, contacts } = text(a.phoneNumberId, "Hola", message).value as {
      messages: Arrived["message"][];
      contacts: Arrived["contacts"];
    };
    const part: DeliveryPart = {
      accountChanges: [],
      number: {
        connection: { organizationId: a.organizationId, defaultAgentId: null, autoAssign: "off" },
        messages: messages.map((m) => ({ message: m, contacts })),
        statuses: [],
      },
    };
    const store = await organizationStore(env, a.organizationId);
    expect(await store.hold(a.organizationId, part)).toEqual({ stored: 1 });
    expect(await storedTimes(a.organizationId, message)).toEqual({ [message]: 1 });
    expect(await heldIn(a.organizationId)).toBe(0);
  });
});
