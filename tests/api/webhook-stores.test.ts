// The WhatsApp webhook writes each organization's part of a delivery in that organization's
// store (contract section 15): one call per store, one transaction there, 200 only once every
// store it touched has committed, 500 when one failed (Meta retries, and nothing is stored
// twice).
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ctwaReferral, delivery, inboundMessage, wamid } from "../fakes/whatsapp-payloads.mjs";
import { connectWhatsapp } from "../support/db";
import { createAgent, createConversation, createOwner } from "../support/factories";
import { orgSql } from "../support/org-data";
import { connect } from "../support/sockets";
import { customerPhone, deliver } from "../support/webhooks";
import { organizationStore } from "../../worker/stores/registry";
import { keysUnder } from "../support/scheduled-work";

type Row = Record<string, SqlStorageValue>;

/** An owner with WhatsApp connected. */
async function connectedOwner(options: { businessAccountId?: string } = {}) {
  const owner = await createOwner();
  const organizationId = owner.organization.id as string;
  const connection = await connectWhatsapp(organizationId, options);
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
      from: conversation.phone_number!,
      text: "¿Abrís mañana?",
      id: message,
    });
    expect((await deliver(delivery(hello))).status).toBe(200);
    expect(await storedTimes(owner.organizationId, message)).toEqual({ [message]: 1 });
    const store = await organizationStore(env, owner.organizationId);
    expect(await keysUnder(store, "reply:")).toEqual([`reply:${conversation.id}`]);
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
  });
});
