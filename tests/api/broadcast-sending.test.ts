// Sending broadcasts (contract section 17, decision 0061): the Marketing Messages API with its
// fallback, consent at send time, each recipient once whatever restarts happen, pause, resume
// and cancel, scheduling and quiet hours, the daily messaging limit, Meta's statuses by
// `biz_opaque_callback_data`, replies, sales, cost, and `broadcast_update`.
import { book, createService, NINE_TO_TEN, setHours } from "../support/bookings";
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { GRAPH_VERSION } from "../fakes/graph-server.mjs";
import { delivery, inboundMessage, statusUpdate } from "../fakes/whatsapp-payloads.mjs";
import type { Broadcast, SendInput } from "../../contracts/broadcasts";
import { quietHoursEnd } from "../../contracts/organizations";
import { api, answer } from "../support/api";
import { addMember, createOwner } from "../support/factories";
import {
  MARKETING,
  UTILITY,
  marketingOrganization as setup,
  seedCustomers,
  setMessagingLimit,
  setQuietHours,
  type MarketingOrganization as Setup,
  type Owner,
} from "../support/marketing";
import { orgFirst, orgSql, orgSqlBatch, setStoreFull } from "../support/org-data";
import { STORE_FULL_TEXT } from "../../durable-objects/store-room";
import { connect } from "../support/sockets";
import { customerPhone, deliver, failNext, graphRequests, secondsAgo } from "../support/webhooks";
import { workOf } from "../support/scheduled-work";

type Row = Record<string, any>;

const HOUR_MS = 3600 * 1000;

async function createBroadcast(
  owner: Owner,
  labelId: string,
  { template = MARKETING, send_at }: { template?: typeof MARKETING; send_at?: string } = {},
) {
  const res = await answer(
    api(owner.token).broadcasts.$post({
      json: { name: "Vuelta al cole", template, audience: { label_ids: [labelId] }, send_at },
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { data: Broadcast }).data.id;
}

type Action = "send" | "pause" | "resume" | "cancel";
/** A manager's click; a send carries the preview's figures it confirms, when given. */
async function act(token: string, id: string, action: Action, confirm: SendInput = {}) {
  const one = api(token).broadcasts[":id"];
  return answer(
    action === "send"
      ? one.send.$post({ param: { id }, json: confirm })
      : one[action].$post({ param: { id } }),
  );
}

async function actOk(token: string, id: string, action: Action) {
  const res = await act(token, id, action);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { data: Broadcast }).data;
}

async function broadcastOf(token: string, id: string) {
  const res = await answer(api(token).broadcasts[":id"].$get({ param: { id } }));
  expect(res.status).toBe(200);
  return (res.body as { data: Broadcast }).data;
}

/** Runs the store's alarm until the broadcast reaches `status`. */
async function runUntil(s: Setup, id: string, status: Broadcast["status"]) {
  await vi.waitFor(
    async () => {
      await runDurableObjectAlarm(s.store);
      expect((await broadcastOf(s.owner.token, id)).status).toBe(status);
    },
    { timeout: 20_000, interval: 20 },
  );
  return broadcastOf(s.owner.token, id);
}

const recipientsOf = (orgId: string, id: string) =>
  orgSql<Row>(
    orgId,
    `SELECT r.*, c.phone_number FROM broadcast_recipients AS r
     JOIN conversations AS c ON c.id = r.conversation_id
     WHERE r.broadcast_id = ? ORDER BY c.contact_name`,
    id,
  );

/** A conversation's outbound messages, oldest first. */
const outboundOf = (orgId: string, conversationId: string) =>
  orgSql<Row>(
    orgId,
    "SELECT id, status, error_code FROM messages WHERE conversation_id = ? AND direction = 'outbound' ORDER BY created_at, id",
    conversationId,
  );

/** What the fake Meta was asked to send to these phones, by endpoint. */
async function sendsTo(phones: string[]) {
  const requests = await graphRequests("messages");
  return requests.filter(
    (r) => r.method === "POST" && phones.includes(r.body?.to) && r.body?.type === "template",
  );
}

describe("sending a broadcast", () => {
  it("sends a marketing template through the Marketing Messages API to those who accept it, once each", async () => {
    const s = await setup();
    const phones = [customerPhone(), customerPhone(), customerPhone(), customerPhone()];
    const [first, second, optedOut] = await seedCustomers(s, [
      { phone: phones[0] },
      { phone: phones[1] },
      { phone: phones[2], optedOut: true },
      { phone: phones[3], labelled: false },
    ]);
    const id = await createBroadcast(s.owner, s.labelId);
    const inbox = await connect(s.owner.token);

    const started = await actOk(s.owner.token, id, "send");
    expect(started.status).toBe("sending");
    expect(started.started_at).not.toBeNull();
    const done = await runUntil(s, id, "completed");

    const sends = await sendsTo(phones);
    expect(sends.map((r) => r.body.to).sort()).toEqual([phones[0], phones[1]].sort());
    for (const send of sends) {
      expect(send.path).toMatch(/\/marketing_messages$/);
      expect(send.body).toMatchObject({
        template: { name: "bienvenida", language: { code: "es" } },
        biz_opaque_callback_data: `broadcast:${id}`,
      });
    }
    expect(done.fell_back_at).toBeNull();
    expect(done.completed_at).not.toBeNull();
    expect(done.stats).toMatchObject({
      recipients: 2,
      pending: 0,
      sent: 2,
      failed: 0,
      skipped: { opted_out: 1, limited: 0, unreachable: 0 },
    });
    const recipients = await recipientsOf(s.orgId, id);
    expect(recipients.map((r) => [r.conversation_id, r.state, r.error_code])).toEqual([
      [first, "sent", null],
      [second, "sent", null],
      [optedOut, "skipped", "opted_out"],
    ]);
    expect(recipients[0]!.wamid).toMatch(/^wamid\./);

    // The template is an ordinary message of each conversation, marked as the broadcast's.
    const message = await orgFirst<Row>(
      s.orgId,
      "SELECT * FROM messages WHERE conversation_id = ? AND direction = 'outbound'",
      first,
    );
    expect(message).toMatchObject({
      sender_type: "broadcast",
      type: "template",
      status: "sent",
      content: "¡Gracias por escribirnos!",
      wamid: recipients[0]!.wamid,
    });

    // Consoles followed it, up to its completion.
    const update = await inbox.receive(
      (e) => e.type === "broadcast_update" && e.data.broadcast.status === "completed",
    );
    expect(update.data.broadcast).toMatchObject({ id, stats: { sent: 2 } });
    inbox.socket.close();

    // Another run, or a second send, asks Meta for nobody again.
    await runDurableObjectAlarm(s.store);
    expect(await sendsTo(phones)).toHaveLength(2);
    expect((await act(s.owner.token, id, "send")).status).toBe(409);
  });

  it("falls back to /messages when Meta says the account is not onboarded to the MM API, and says so once", async () => {
    const s = await setup();
    // More than are asked of Meta at once: the later ones start after the fallback is known.
    const phones = Array.from({ length: 40 }, () => customerPhone());
    await seedCustomers(
      s,
      phones.map((phone) => ({ phone })),
    );
    const id = await createBroadcast(s.owner, s.labelId);
    // An account that never onboarded: Meta refuses every call to the MM API.
    await failNext("graph", {
      path: `/${GRAPH_VERSION}/${s.phoneNumberId}/marketing_messages`,
      status: 400,
      times: 100,
      error: {
        message: "(#134102) Business is not onboarded to Marketing Messages API",
        code: 134102,
      },
    });
    await actOk(s.owner.token, id, "send");
    const done = await runUntil(s, id, "completed");

    expect(done.fell_back_at).not.toBeNull();
    expect(done.stats).toMatchObject({ sent: 40, failed: 0 });
    const sends = await sendsTo(phones);
    // Each recipient once through /messages; once the fallback is known, the MM API is not
    // tried again (only the sends that had their turn before it was learnt tried it).
    const viaMessages = sends.filter((r) => r.path.endsWith(`/${s.phoneNumberId}/messages`));
    expect(viaMessages.map((r) => r.body.to).sort()).toEqual([...phones].sort());
    const refused = sends.filter((r) => r.path.endsWith("/marketing_messages"));
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.length).toBeLessThan(phones.length);
  });

  it("sends a utility template through /messages, to customers who stopped marketing too", async () => {
    const s = await setup();
    const phones = [customerPhone(), customerPhone()];
    await seedCustomers(s, [{ phone: phones[0] }, { phone: phones[1], optedOut: true }]);
    const id = await createBroadcast(s.owner, s.labelId, { template: UTILITY });
    await actOk(s.owner.token, id, "send");
    const done = await runUntil(s, id, "completed");
    expect(done.stats).toMatchObject({ recipients: 2, sent: 2 });
    const sends = await sendsTo(phones);
    expect(sends).toHaveLength(2);
    for (const send of sends) expect(send.path).toMatch(/\/messages$/);
    expect(sends[0]!.body.template.components[0].parameters[0].text).toBe("Lucía");
  });

  it("checks consent again when each recipient's turn comes", async () => {
    const s = await setup();
    const phones = [customerPhone(), customerPhone()];
    const [, later] = await seedCustomers(
      s,
      phones.map((phone) => ({ phone })),
    );
    const id = await createBroadcast(s.owner, s.labelId);
    await actOk(s.owner.token, id, "send");
    await actOk(s.owner.token, id, "pause");
    // The audience is read by the first run; the customer stops marketing before their turn.
    await actOk(s.owner.token, id, "resume");
    await orgSql(
      s.orgId,
      "UPDATE conversations SET marketing_opted_out_at = ?, marketing_opt_out_source = 'keyword' WHERE id = ?",
      new Date().toISOString(),
      later,
    );
    const done = await runUntil(s, id, "completed");
    expect(done.stats).toMatchObject({ sent: 1, skipped: { opted_out: 1 } });
    expect((await sendsTo(phones)).map((r) => r.body.to)).toEqual([phones[0]]);
  });

  it("a run cut off while asking Meta sends nobody twice: the one in flight fails, the rest go once", async () => {
    const s = await setup();
    const phones = [customerPhone(), customerPhone(), customerPhone()];
    const [cutOff] = await seedCustomers(
      s,
      phones.map((phone) => ({ phone })),
    );
    const id = await createBroadcast(s.owner, s.labelId);
    await actOk(s.owner.token, id, "send");
    await runUntil(s, id, "completed");
    // As a store restarted mid-run leaves it: two recipients waiting, one claimed and in flight.
    await orgSqlBatch(s.orgId, [
      {
        sql: "UPDATE broadcasts SET status = 'sending', completed_at = NULL WHERE id = ?",
        params: [id],
      },
      {
        sql: `UPDATE broadcast_recipients SET wamid = NULL, sent_at = NULL,
                state = CASE WHEN conversation_id = ?2 THEN 'sending' ELSE 'pending' END
              WHERE broadcast_id = ?1`,
        params: [id, cutOff],
      },
    ]);
    const before = (await sendsTo(phones)).length;
    await s.store.scheduleJob(s.orgId, "broadcasts", Date.now());
    const done = await runUntil(s, id, "completed");

    const recipient = (await recipientsOf(s.orgId, id)).find((r) => r.conversation_id === cutOff)!;
    expect(recipient).toMatchObject({ state: "failed", error_code: "interrupted" });
    expect(done.stats.failed_by_code).toEqual({ interrupted: 1 });
    const sentNow = (await sendsTo(phones)).slice(before).map((r) => r.body.to);
    expect(sentNow.sort()).toEqual([phones[1], phones[2]].sort());
  });

  it("tries a recipient Meta refused for throughput (130429) again after a pause, never failing it", async () => {
    const s = await setup();
    const phones = [customerPhone(), customerPhone()];
    const [throttled, other] = await seedCustomers(s, [{ phone: phones[0] }, { phone: phones[1] }]);
    const id = await createBroadcast(s.owner, s.labelId);
    await failNext("graph", {
      path: `/${GRAPH_VERSION}/${s.phoneNumberId}/marketing_messages`,
      contains: phones[0],
      status: 400,
      times: 3,
      error: { message: "(#130429) Rate limit hit", code: 130429 },
    });
    await actOk(s.owner.token, id, "send");
    const states = async () =>
      (await recipientsOf(s.orgId, id)).map((r) => [r.conversation_id, r.state]);
    // Refused three times: each time waiting, not failed, nothing of the refused send in its
    // conversation, and the run goes on after a pause.
    for (let refused = 1; refused <= 3; refused++) {
      const before = Date.now();
      await runDurableObjectAlarm(s.store);
      // Settled once no run holds the job (the alarm may run it by itself): due after a pause.
      await vi.waitFor(async () => {
        const job = await workOf(s.store, "job:broadcasts");
        expect(job?.leaseUntil).toBeNull();
        expect(job!.dueAt).toBeGreaterThanOrEqual(before + 25_000);
      });
      expect(await states(), `refusal ${refused}`).toContainEqual([throttled, "pending"]);
      expect(await outboundOf(s.orgId, throttled!)).toEqual([]);
      expect((await broadcastOf(s.owner.token, id)).status).toBe("sending");
      expect(await sendsTo([phones[0]!])).toHaveLength(refused);
      await s.store.scheduleJob(s.orgId, "broadcasts", Date.now());
    }

    // After the pauses it goes, once.
    const done = await runUntil(s, id, "completed");
    expect(done.stats).toMatchObject({ sent: 2, failed: 0 });
    expect(await states()).toEqual(
      expect.arrayContaining([
        [throttled, "sent"],
        [other, "sent"],
      ]),
    );
    expect(await outboundOf(s.orgId, throttled!)).toEqual([
      expect.objectContaining({ status: "sent" }),
    ]);
    expect((await sendsTo([phones[0]!])).length).toBe(4);
  });
});

describe("pause, resume, cancel and roles", () => {
  it("moves only between the statuses the contract allows, and agents only read", async () => {
    const s = await setup();
    const phones = [customerPhone(), customerPhone()];
    await seedCustomers(
      s,
      phones.map((phone) => ({ phone })),
    );
    const id = await createBroadcast(s.owner, s.labelId);
    const agent = await addMember(s.orgId, "agent");
    for (const action of ["send", "pause", "resume", "cancel"] as const) {
      expect((await act(agent.token, id, action)).status).toBe(403);
    }
    expect((await act(s.owner.token, id, "pause")).status).toBe(409);
    expect((await act(s.owner.token, id, "resume")).status).toBe(409);
    expect((await act(s.owner.token, id, "cancel")).status).toBe(409);

    await actOk(s.owner.token, id, "send");
    // A manager's pause gives no reason.
    expect(await actOk(s.owner.token, id, "pause")).toMatchObject({
      status: "paused",
      pause_reason: null,
    });
    await runDurableObjectAlarm(s.store);
    expect(await sendsTo(phones)).toHaveLength(0);
    const cancelled = await actOk(s.owner.token, id, "cancel");
    expect(cancelled.status).toBe("cancelled");
    expect((await act(s.owner.token, id, "resume")).status).toBe(409);
    await runDurableObjectAlarm(s.store);
    expect(await sendsTo(phones)).toHaveLength(0);
    // A broadcast being sent is no longer edited or deleted.
    const edit = await answer(
      api(s.owner.token).broadcasts[":id"].$patch({ param: { id }, json: { name: "Otra" } }),
    );
    expect(edit.status).toBe(409);
  });

  it("another organization's broadcast is not found by any action", async () => {
    const s = await setup();
    const other = await createOwner();
    await seedCustomers(s, [{}]);
    const id = await createBroadcast(s.owner, s.labelId);
    for (const action of ["send", "pause", "resume", "cancel"] as const) {
      expect((await act(other.token, id, action)).status).toBe(404);
    }
    const recipients = await answer(
      api(other.token).broadcasts[":id"].recipients.$get({ param: { id }, query: {} }),
    );
    expect(recipients.status).toBe(404);
    expect((await broadcastOf(s.owner.token, id)).status).toBe("draft");
  });

  it("refuses to send while WhatsApp is not connected, and changes nothing", async () => {
    const s = await setup();
    await seedCustomers(s, [{}]);
    const id = await createBroadcast(s.owner, s.labelId);
    await env.DB.prepare(
      "UPDATE whatsapp_connections SET status = 'disconnected' WHERE organization_id = ?",
    )
      .bind(s.orgId)
      .run();
    const res = await act(s.owner.token, id, "send");
    expect(res.status).toBe(422);
    expect(res.body).toMatchObject({ error: "not_connected" });
    expect((await broadcastOf(s.owner.token, id)).status).toBe("draft");
  });

  it("pauses by itself, saying why, when Meta no longer takes the template or WhatsApp is disconnected", async () => {
    const s = await setup();
    const phones = [customerPhone()];
    await seedCustomers(s, [{ phone: phones[0] }]);
    const id = await createBroadcast(s.owner, s.labelId);
    const setTemplate = (status: string) =>
      orgSqlBatch(s.orgId, [
        {
          sql: "UPDATE whatsapp_templates SET status = ? WHERE name = 'bienvenida'",
          params: [status],
        },
      ]);
    await actOk(s.owner.token, id, "send");
    await setTemplate("PAUSED");
    const paused = await runUntil(s, id, "paused");
    expect(paused.pause_reason).toBe("template_unusable");
    expect(await sendsTo(phones)).toEqual([]);

    await setTemplate("APPROVED");
    const resumed = await actOk(s.owner.token, id, "resume");
    expect(resumed).toMatchObject({ status: "sending", pause_reason: null });
    // The owner disconnects the number (in the store, which then drops its copy: decision 0136).
    expect((await api(s.owner.token)["whatsapp-config"].$delete()).status).toBe(200);
    expect((await runUntil(s, id, "paused")).pause_reason).toBe("not_connected");
  });
});

describe("a store with no room left", () => {
  it("refuses to send or resume (507), pauses what is sending, and says why", async () => {
    const s = await setup();
    const phones = [customerPhone()];
    await seedCustomers(s, [{ phone: phones[0] }]);
    const draft = await createBroadcast(s.owner, s.labelId);
    const sending = await createBroadcast(s.owner, s.labelId);
    await actOk(s.owner.token, sending, "send");
    await setStoreFull(s.orgId, true);

    const refused = await act(s.owner.token, draft, "send");
    expect(refused.status).toBe(507);
    expect(refused.body).toMatchObject({ error: "store_full", message: STORE_FULL_TEXT });
    expect((await broadcastOf(s.owner.token, draft)).status).toBe("draft");
    const paused = await runUntil(s, sending, "paused");
    expect(paused.pause_reason).toBe("store_full");
    expect(await sendsTo(phones)).toEqual([]);
    expect((await act(s.owner.token, sending, "resume")).status).toBe(507);

    await setStoreFull(s.orgId, false);
    expect((await actOk(s.owner.token, sending, "resume")).status).toBe("sending");
  });
});

describe("when it is sent", () => {
  it("a draft with a future send_at is scheduled, then sent once it is due", async () => {
    const s = await setup();
    const phones = [customerPhone()];
    await seedCustomers(s, [{ phone: phones[0] }]);
    const sendAt = new Date(Date.now() + HOUR_MS).toISOString();
    const id = await createBroadcast(s.owner, s.labelId, { send_at: sendAt });
    const scheduled = await actOk(s.owner.token, id, "send");
    expect(scheduled).toMatchObject({ status: "scheduled", send_at: sendAt, started_at: null });
    await runDurableObjectAlarm(s.store);
    expect(await sendsTo(phones)).toHaveLength(0);

    // An hour later, as far as the store can tell.
    await orgSql(
      s.orgId,
      "UPDATE broadcasts SET send_at = ? WHERE id = ?",
      new Date(Date.now() - 1000).toISOString(),
      id,
    );
    await s.store.scheduleJob(s.orgId, "broadcasts", Date.now());
    const done = await runUntil(s, id, "completed");
    expect(done.started_at).not.toBeNull();
    expect(await sendsTo(phones)).toHaveLength(1);
  });

  it("a scheduled broadcast whose time is removed goes back to draft, and is sent by Enviar", async () => {
    const s = await setup();
    await seedCustomers(s, [{}]);
    const sendAt = new Date(Date.now() + HOUR_MS).toISOString();
    const id = await createBroadcast(s.owner, s.labelId, { send_at: sendAt });
    await actOk(s.owner.token, id, "send");
    const edited = await answer(
      api(s.owner.token).broadcasts[":id"].$patch({ param: { id }, json: { send_at: null } }),
    );
    expect(edited.status).toBe(200);
    expect((edited.body as { data: Broadcast }).data).toMatchObject({
      status: "draft",
      send_at: null,
    });
    expect((await actOk(s.owner.token, id, "send")).status).toBe("sending");
  });

  it("waits for the end of the organization's quiet hours", async () => {
    const s = await setup();
    const phones = [customerPhone()];
    await seedCustomers(s, [{ phone: phones[0] }]);
    // Quiet hours from an hour ago to an hour from now, on the organization's clock.
    const clock = (ms: number) =>
      new Intl.DateTimeFormat("en-GB", {
        timeZone: "America/Mexico_City",
        hour: "2-digit",
        minute: "2-digit",
        hourCycle: "h23",
      }).format(new Date(Date.now() + ms));
    await setQuietHours(s.owner, clock(-HOUR_MS), clock(HOUR_MS), "America/Mexico_City");
    const id = await createBroadcast(s.owner, s.labelId);
    await actOk(s.owner.token, id, "send");
    await runDurableObjectAlarm(s.store);
    const waiting = await broadcastOf(s.owner.token, id);
    expect(waiting.status).toBe("sending");
    expect(waiting.waiting?.reason).toBe("quiet_hours");
    const until = Date.parse(waiting.waiting!.until);
    expect(Math.abs(until - (Date.now() + HOUR_MS))).toBeLessThan(2 * 60_000);
    expect(await sendsTo(phones)).toHaveLength(0);

    await setQuietHours(s.owner, "00:00", "00:00");
    await s.store.scheduleJob(s.orgId, "broadcasts", Date.now());
    const done = await runUntil(s, id, "completed");
    expect(done.waiting).toBeNull();
    expect(await sendsTo(phones)).toHaveLength(1);
  });

  it("stays within the account's daily messaging limit and goes on when it renews", async () => {
    const s = await setup();
    await setMessagingLimit(s.phoneNumberId, "TIER_250");
    // 225 customers (90 % of 250) already reached by a broadcast in the last 24 hours.
    const earlier = await seedCustomers(
      s,
      Array.from({ length: 225 }, () => ({ labelled: false })),
    );
    const oldId = crypto.randomUUID();
    const firstSent = Date.now() - 23 * HOUR_MS;
    const sentAt = (i: number) => new Date(firstSent + i * 1000).toISOString();
    await orgSqlBatch(s.orgId, [
      {
        sql: `INSERT INTO broadcasts (id, organization_id, name, status, template_name,
                template_language, template_category, template_parameters, audience, created_at,
                updated_at)
              VALUES (?1, ?2, 'Anterior', 'completed', 'bienvenida', 'es', 'MARKETING', '[]', '{}', ?3, ?3)`,
        params: [oldId, s.orgId, new Date().toISOString()],
      },
      ...earlier.map((conversationId, i) => ({
        sql: `INSERT INTO broadcast_recipients (broadcast_id, conversation_id, organization_id,
                state, wamid, sent_at, created_at, updated_at)
              VALUES (?1, ?2, ?3, 'sent', ?4, ?5, ?5, ?5)`,
        params: [oldId, conversationId, s.orgId, `wamid.old${i}`, sentAt(i)],
      })),
    ]);
    const phones = [customerPhone(), customerPhone()];
    await seedCustomers(
      s,
      phones.map((phone) => ({ phone })),
    );
    const id = await createBroadcast(s.owner, s.labelId);
    await actOk(s.owner.token, id, "send");
    await runDurableObjectAlarm(s.store);
    const waiting = await broadcastOf(s.owner.token, id);
    expect(waiting.waiting).toEqual({
      reason: "messaging_limit",
      until: new Date(Date.parse(sentAt(0)) + 24 * HOUR_MS).toISOString(),
    });
    expect(await sendsTo(phones)).toHaveLength(0);

    // The oldest send leaves the 24 hours: one more customer may be reached, and only one.
    await orgSql(
      s.orgId,
      "UPDATE broadcast_recipients SET sent_at = ? WHERE broadcast_id = ? AND conversation_id = ?",
      new Date(Date.now() - 25 * HOUR_MS).toISOString(),
      oldId,
      earlier[0],
    );
    await s.store.scheduleJob(s.orgId, "broadcasts", Date.now());
    await runDurableObjectAlarm(s.store);
    await runDurableObjectAlarm(s.store);
    expect(await sendsTo(phones)).toHaveLength(1);
    const limited = await broadcastOf(s.owner.token, id);
    expect(limited.waiting?.reason).toBe("messaging_limit");
    expect(limited.stats).toMatchObject({ sent: 1, pending: 1 });
  });
});

describe("results", () => {
  /** A sent broadcast to two customers; answers it with their phones, wamids and conversations. */
  async function sentBroadcast() {
    const s = await setup();
    const phones = [customerPhone(), customerPhone()];
    const conversations = await seedCustomers(
      s,
      phones.map((phone) => ({ phone })),
    );
    const id = await createBroadcast(s.owner, s.labelId);
    await actOk(s.owner.token, id, "send");
    await runUntil(s, id, "completed");
    const recipients = await recipientsOf(s.orgId, id);
    return { s, id, phones, conversations, wamids: recipients.map((r) => r.wamid as string) };
  }

  const status = (
    s: Setup,
    id: string,
    wamid: string,
    phone: string,
    value: string,
    extra: Record<string, unknown> = {},
  ) =>
    deliver(
      delivery(
        statusUpdate({
          phoneNumberId: s.phoneNumberId,
          id: wamid,
          recipientId: phone,
          status: value,
          callbackData: `broadcast:${id}`,
          timestamp: secondsAgo(5),
          pricing: {
            billable: true,
            pricing_model: "PMP",
            category: "marketing_lite",
            type: "regular",
          },
          ...extra,
        }),
      ),
    );

  it("follows Meta's statuses by biz_opaque_callback_data, in any order, and prices what is billed", async () => {
    const { s, id, phones, wamids } = await sentBroadcast();
    const inbox = await connect(s.owner.token);
    // Read before delivered (Meta does not promise the order), then delivered late.
    expect((await status(s, id, wamids[0]!, phones[0]!, "read")).status).toBe(200);
    await status(s, id, wamids[0]!, phones[0]!, "delivered");
    await status(s, id, wamids[1]!, phones[1]!, "delivered");
    await runDurableObjectAlarm(s.store);
    const update = await inbox.receive(
      (e) => e.type === "broadcast_update" && e.data.broadcast.stats.read === 1,
    );
    expect(update.data.broadcast.stats).toMatchObject({ sent: 2, delivered: 2, read: 1 });
    inbox.socket.close();
    const recipients = await recipientsOf(s.orgId, id);
    expect(recipients.map((r) => r.state)).toEqual(["read", "delivered"]);

    // Spain's card rate (USD 0.0615) in the organization's euros, for each billed message.
    await vi.waitFor(
      async () => {
        await runDurableObjectAlarm(s.store);
        expect((await broadcastOf(s.owner.token, id)).stats.cost).toBe(
          Number((2 * 0.0615 * 0.86).toFixed(2)),
        );
      },
      { timeout: 10_000, interval: 50 },
    );
  });

  it("131049 leaves the recipient limited, 131050 failed and opted out, each said in Spanish", async () => {
    const { s, id, phones, wamids } = await sentBroadcast();
    await status(s, id, wamids[0]!, phones[0]!, "failed", {
      errors: [
        {
          code: 131049,
          title: "This message was not delivered to maintain healthy ecosystem engagement.",
        },
      ],
    });
    await status(s, id, wamids[1]!, phones[1]!, "failed", {
      errors: [
        {
          code: 131050,
          title:
            "Unable to deliver the message. This recipient has chosen to stop receiving marketing messages on WhatsApp from your business.",
        },
      ],
    });
    const done = await broadcastOf(s.owner.token, id);
    expect(done.stats).toMatchObject({
      sent: 2,
      failed: 1,
      limited: 1,
      opted_out: 1,
      failed_by_code: { "131050": 1 },
    });
    const page = await answer(
      api(s.owner.token).broadcasts[":id"].recipients.$get({
        param: { id },
        query: { state: "limited" },
      }),
    );
    expect(page.status).toBe(200);
    const [limited] = (page.body as { data: { recipients: Row[] } }).data.recipients;
    expect(limited).toMatchObject({
      phone_number: phones[0],
      state: "limited",
      error_code: "131049",
    });
    expect(limited!.error).toMatch(/límite de promociones/);
  });

  it("counts a reply within 72 hours, and a sale and a kept booking within 7 days of the send", async () => {
    const { s, id, phones, conversations } = await sentBroadcast();
    const reply = inboundMessage({
      phoneNumberId: s.phoneNumberId,
      from: phones[0]!,
      text: "¡Me interesa!",
    });
    expect((await deliver(delivery(reply))).status).toBe(200);
    // The same reply delivered again counts once.
    await deliver(delivery(reply));
    const sale = await answer(
      api(s.owner.token).conversations[":id"].sales.$post({
        param: { id: conversations[0]! },
        json: { value: 120, currency: "EUR" },
        header: {},
      }),
    );
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    // A booking kept counts; a cancelled one does not.
    await setHours(s.owner, NINE_TO_TEN);
    const service = await createService(s.owner);
    const made = await Promise.all(
      conversations.slice(0, 2).map(async (conversation_id, day) => {
        const res = await book(s.owner, {
          service_id: service.id,
          conversation_id,
          start: `2031-01-0${7 + day}T08:00:00.000Z`,
        });
        expect(res.status, JSON.stringify(res.body)).toBe(201);
        return (res.body as { data: { id: string } }).data.id;
      }),
    );
    const cancelled = await api(s.owner.token).bookings[":id"].$patch({
      param: { id: made[1]! },
      json: { status: "cancelled" },
    });
    expect(cancelled.status).toBe(200);
    const done = await broadcastOf(s.owner.token, id);
    expect(done.stats).toMatchObject({ replied: 1, sales: 1, revenue: 120, bookings: 1 });
    const recipients = await recipientsOf(s.orgId, id);
    expect(recipients.map((r) => r.replied_at !== null)).toEqual([true, false]);
  });
});

describe("quiet hours' end", () => {
  it("is the first instant the local clock reads the end, across midnight and a change of clocks", () => {
    const madrid = { timeZone: "Europe/Madrid", start: "21:00", end: "09:00" };
    // 23:30 in Madrid (winter, UTC+1) waits until 09:00 the next morning.
    expect(quietHoursEnd(new Date("2026-11-25T22:30:00Z"), madrid)?.toISOString()).toBe(
      "2026-11-26T08:00:00.000Z",
    );
    // 08:59:30 is still inside; 09:00 and noon are outside.
    expect(quietHoursEnd(new Date("2026-11-26T07:59:30Z"), madrid)?.toISOString()).toBe(
      "2026-11-26T08:00:00.000Z",
    );
    expect(quietHoursEnd(new Date("2026-11-26T08:00:00Z"), madrid)).toBeNull();
    expect(quietHoursEnd(new Date("2026-11-26T11:00:00Z"), madrid)).toBeNull();
    // The night summer time ends (25 October 2026, 03:00 → 02:00): 09:00 is UTC+1 again.
    expect(quietHoursEnd(new Date("2026-10-24T22:00:00Z"), madrid)?.toISOString()).toBe(
      "2026-10-25T08:00:00.000Z",
    );
    // Quiet hours within a day, and none at all.
    const lunch = { timeZone: "America/Mexico_City", start: "14:00", end: "16:00" };
    expect(quietHoursEnd(new Date("2026-11-26T20:30:00Z"), lunch)?.toISOString()).toBe(
      "2026-11-26T22:00:00.000Z",
    );
    expect(
      quietHoursEnd(new Date(), { timeZone: "Europe/Madrid", start: "00:00", end: "00:00" }),
    ).toBeNull();
  });
});
