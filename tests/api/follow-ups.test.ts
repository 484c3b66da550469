// Follow-ups (contract section 17, decision 0062): the rules and their checks, what starts and
// ends a wait (a person's or the AI's message, an echo from the app; a reply, a sale, an opt-out,
// a broadcast), and the store's `follow_ups` job: text inside the window and a template outside
// it, once per wait and up to `max_per_conversation`, the longest due step of a sequence only,
// never to old waits of a new rule, consent, quiet hours, the free entry point mark, stats.
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { GRAPH_VERSION } from "../fakes/graph-server.mjs";
import {
  ctwaReferral,
  delivery,
  inboundMessage,
  messageEcho,
} from "../fakes/whatsapp-payloads.mjs";
import type { FollowUp } from "../../contracts/follow-ups";
import { api, answer } from "../support/api";
import { addMember, createOwner } from "../support/factories";
import {
  MARKETING,
  UTILITY,
  marketingOrganization,
  seedCustomers,
  setQuietHours,
  type MarketingOrganization,
  type Owner,
} from "../support/marketing";
import { orgFirst, orgSql, orgSqlBatch } from "../support/org-data";
import { customerPhone, deliver, failNext, graphRequests } from "../support/webhooks";
import { workOf } from "../support/scheduled-work";

type Row = Record<string, any>;
type Setup = MarketingOrganization;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

type RuleInput = Parameters<ReturnType<typeof api>["follow-ups"]["$post"]>[0]["json"];

async function createRule(owner: Owner, json: Partial<RuleInput> = {}) {
  const res = await answer(
    api(owner.token)["follow-ups"].$post({
      json: {
        name: "Recordatorio",
        trigger: { no_reply_minutes: 60 },
        text: "¿Sigues interesado? Estamos aquí para ayudarte.",
        ...json,
      } as RuleInput,
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { data: FollowUp }).data;
}

/** A rule active since `since`: the waits due after it are its own (a new rule's are not). */
async function activeSince(s: Setup, ruleId: string, since: string) {
  await orgSqlBatch(s.orgId, [
    { sql: "UPDATE follow_ups SET active_since = ? WHERE id = ?", params: [since, ruleId] },
  ]);
}

/** Runs the follow-ups job now, as the store's alarm does. */
async function runJob(s: Setup) {
  await s.store.scheduleJob(s.orgId, "follow_ups", Date.now());
  await runDurableObjectAlarm(s.store);
}

const jobOf = (s: Setup) => workOf(s.store, "job:follow_ups");

async function ruleOf(owner: Owner, id: string) {
  const res = await answer(api(owner.token)["follow-ups"][":id"].$get({ param: { id } }));
  expect(res.status).toBe(200);
  return (res.body as { data: FollowUp }).data;
}

/** The follow-ups the fake Meta was asked to send to these phones. */
async function sendsTo(phones: string[]) {
  const requests = await graphRequests("messages");
  return requests.filter(
    (r) =>
      r.method === "POST" &&
      phones.includes(r.body?.to) &&
      String(r.body?.biz_opaque_callback_data).startsWith("follow_up:"),
  );
}

const sendsOf = (s: Setup, ruleId: string) =>
  orgSql<Row>(
    s.orgId,
    "SELECT * FROM follow_up_sends WHERE follow_up_id = ? ORDER BY created_at",
    ruleId,
  );

const waitOf = async (s: Setup, conversationId: string) =>
  (
    await orgFirst<Row>(
      s.orgId,
      "SELECT follow_up_since FROM conversations WHERE id = ?",
      conversationId,
    )
  )?.follow_up_since as string | null;

describe("follow-up rules", () => {
  it("are created by managers with their trigger and message, read by every member", async () => {
    const s = await marketingOrganization();
    const rule = await createRule(s.owner, {
      name: "Recuperar leads",
      trigger: { no_reply_minutes: 120, label_ids: [s.labelId], stages: ["lead"] },
      template: MARKETING,
      max_per_conversation: 2,
    });
    expect(rule).toMatchObject({
      name: "Recuperar leads",
      enabled: true,
      trigger: { no_reply_minutes: 120, label_ids: [s.labelId], stages: ["lead"] },
      template: { name: "bienvenida", language: "es", category: "MARKETING", parameters: [] },
      text: "¿Sigues interesado? Estamos aquí para ayudarte.",
      max_per_conversation: 2,
      stats: { sent: 0, free: 0, replied: 0, failed: 0, skipped: 0 },
      created_by: s.owner.user.id,
    });
    const agent = await addMember(s.orgId, "agent");
    const list = await answer(api(agent.token)["follow-ups"].$get());
    expect(list.status).toBe(200);
    expect((list.body as { data: FollowUp[] }).data.map((r) => r.id)).toEqual([rule.id]);
    // Agents read, never write.
    const refused = await answer(
      api(agent.token)["follow-ups"][":id"].$patch({
        param: { id: rule.id },
        json: { enabled: false },
      }),
    );
    expect(refused.status).toBe(403);
    const audit = await orgSql<Row>(
      s.orgId,
      "SELECT action FROM audit_events WHERE organization_id = ? AND action LIKE 'follow_up.%'",
      s.orgId,
    );
    expect(audit.map((a) => a.action)).toEqual(["follow_up.create"]);
  });

  it("names a template not listed here yet: it is looked up at Meta, as a single send does", async () => {
    const s = await marketingOrganization();
    await orgSqlBatch(s.orgId, [{ sql: "DELETE FROM whatsapp_templates", params: [] }]);
    const rule = await createRule(s.owner, { text: undefined, template: MARKETING });
    expect(rule.template).toMatchObject({ name: MARKETING.name, category: "MARKETING" });
  });

  it("refuses in Spanish what could never be sent, and changes nothing", async () => {
    const s = await marketingOrganization();
    const post = (json: Record<string, unknown>) =>
      answer(
        api(s.owner.token)["follow-ups"].$post({
          json: { name: "Mal", trigger: { no_reply_minutes: 60 }, ...json } as RuleInput,
        }),
      );
    const cases: [Record<string, unknown>, string][] = [
      [{}, "Indica un texto, una plantilla o ambos"],
      [
        { text: "Hola", trigger: { no_reply_minutes: 1440 } },
        "Un seguimiento solo con texto debe enviarse antes de 24 horas",
      ],
      [{ text: "Hola", trigger: { no_reply_minutes: 0 } }, "Como mínimo 1 minuto"],
      [{ text: "Hola", max_per_conversation: 11 }, "Como mucho 10 veces"],
      [{ template: { ...MARKETING, name: "no_existe" } }, "La plantilla no existe"],
      [{ template: { ...UTILITY, parameters: [] } }, "La plantilla necesita 1 parámetro"],
      [
        { text: "Hola", trigger: { no_reply_minutes: 60, label_ids: ["otra"] } },
        "Alguna de las etiquetas de la regla no existe en tu organización.",
      ],
    ];
    for (const [json, message] of cases) {
      const res = await post(json);
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(JSON.stringify(res.body)).toContain(message);
    }
    expect(await orgSql(s.orgId, "SELECT id FROM follow_ups")).toEqual([]);

    // A change is checked whole: removing the template of a two-day rule leaves text alone.
    const rule = await createRule(s.owner, {
      trigger: { no_reply_minutes: 2 * 24 * 60 },
      template: MARKETING,
    });
    const patch = (json: Record<string, unknown>) =>
      answer(
        api(s.owner.token)["follow-ups"][":id"].$patch({ param: { id: rule.id }, json } as never),
      );
    const removed = await patch({ template: null });
    expect(removed.status).toBe(422);
    expect(JSON.stringify(removed.body)).toContain("solo con texto");
    expect((await ruleOf(s.owner, rule.id)).template).not.toBeNull();
    const textGone = await patch({ text: null });
    expect(textGone.status).toBe(200);
    expect((await ruleOf(s.owner, rule.id)).text).toBeNull();
  });

  it("another organization's rule is not found by any call", async () => {
    const s = await marketingOrganization();
    const rule = await createRule(s.owner);
    const other = await createOwner();
    const rules = api(other.token)["follow-ups"];
    const param = { id: rule.id };
    expect((await answer(rules[":id"].$get({ param }))).status).toBe(404);
    expect((await answer(rules[":id"].$patch({ param, json: { enabled: false } }))).status).toBe(
      404,
    );
    expect((await answer(rules[":id"].$delete({ param }))).status).toBe(404);
    expect(((await answer(rules.$get())).body as { data: FollowUp[] }).data).toEqual([]);
    expect((await ruleOf(s.owner, rule.id)).enabled).toBe(true);
  });
});

describe("a follow-up's wait", () => {
  it("starts with a person's message, and is ended by a reply, a sale, an opt-out and a broadcast", async () => {
    const s = await marketingOrganization();
    const phone = customerPhone();
    const [id] = await seedCustomers(s, [{ phone }]);
    const sendText = (content: string) =>
      answer(
        api(s.owner.token).conversations.messages.$post({
          json: { conversation_id: id!, content },
        }),
      );
    // Without a rule the wait is kept, and the store is not called for it.
    expect((await sendText("Hola, Lucía")).status).toBe(201);
    expect(await waitOf(s, id!)).not.toBeNull();
    expect(await jobOf(s)).toBeUndefined();
    // A new rule looks at the waits already begun: this one is due in an hour.
    await createRule(s.owner);
    await runJob(s);
    expect((await jobOf(s))!.dueAt).toBeGreaterThan(Date.now() + 50 * MINUTE_MS);

    expect((await sendText("¿Te reservo la cita?")).status).toBe(201);
    const started = await waitOf(s, id!);
    expect(Date.parse(started!)).toBeGreaterThan(Date.now() - MINUTE_MS);
    // The job looks a minute later (the shortest wait a rule may have).
    const job = await jobOf(s);
    expect(job!.dueAt).toBeGreaterThan(Date.now() + 30_000);
    expect(job!.dueAt).toBeLessThan(Date.now() + 2 * MINUTE_MS);

    // The customer answers.
    await deliver(delivery(inboundMessage({ phoneNumberId: s.phoneNumberId, from: phone })));
    expect(await waitOf(s, id!)).toBeNull();

    // A sale.
    await sendText("Te paso el enlace de pago");
    expect(await waitOf(s, id!)).not.toBeNull();
    const sale = await answer(
      api(s.owner.token).conversations[":id"].sales.$post({
        param: { id: id! },
        json: { value: 80, currency: "EUR" },
        header: {},
      }),
    );
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    expect(await waitOf(s, id!)).toBeNull();

    // An opt-out (the customer's own word also is a message; Meta's switch alone is not).
    await sendText("¿Algo más?");
    expect(await waitOf(s, id!)).not.toBeNull();
    await deliver(
      delivery({
        wabaId: "waba",
        field: "user_preferences",
        value: {
          messaging_product: "whatsapp",
          metadata: { display_phone_number: "34600000000", phone_number_id: s.phoneNumberId },
          user_preferences: [
            {
              wa_id: phone,
              category: "marketing_messages",
              value: "stop",
              timestamp: String(Math.floor(Date.now() / 1000) - 10),
            },
          ],
        },
      }),
    );
    expect(await waitOf(s, id!)).toBeNull();

    // A broadcast that reaches them (to a customer who accepts marketing again).
    await deliver(
      delivery(inboundMessage({ phoneNumberId: s.phoneNumberId, from: phone, text: "ALTA" })),
    );
    await sendText("¡Bienvenido de nuevo!");
    expect(await waitOf(s, id!)).not.toBeNull();
    const broadcast = await answer(
      api(s.owner.token).broadcasts.$post({
        json: { name: "Novedades", template: MARKETING, audience: { label_ids: [s.labelId] } },
      }),
    );
    const broadcastId = (broadcast.body as { data: { id: string } }).data.id;
    const sent = await answer(
      api(s.owner.token).broadcasts[":id"].send.$post({ param: { id: broadcastId }, json: {} }),
    );
    expect(sent.status).toBe(200);
    await vi.waitFor(
      async () => {
        await runDurableObjectAlarm(s.store);
        expect(await waitOf(s, id!)).toBeNull();
      },
      { timeout: 10_000, interval: 20 },
    );
  });

  it("starts with a message the owner sent from the WhatsApp Business app", async () => {
    const s = await marketingOrganization();
    const phone = customerPhone();
    const [id] = await seedCustomers(s, [{ phone, lastInboundAt: ago(HOUR_MS) }]);
    await deliver(delivery(messageEcho({ phoneNumberId: s.phoneNumberId, to: phone })));
    expect(await waitOf(s, id!)).not.toBeNull();
  });
});

describe("the follow-ups job", () => {
  it("sends the text inside the 24-hour window, once per wait, as the conversation's message", async () => {
    const s = await marketingOrganization();
    const phones = [customerPhone(), customerPhone(), customerPhone()];
    // Due; not yet (half an hour); due but without the rule's label.
    const [due] = await seedCustomers(s, [
      { phone: phones[0], lastInboundAt: ago(3 * HOUR_MS), followUpSince: ago(2 * HOUR_MS) },
      { phone: phones[1], lastInboundAt: ago(HOUR_MS), followUpSince: ago(30 * MINUTE_MS) },
      {
        phone: phones[2],
        lastInboundAt: ago(3 * HOUR_MS),
        followUpSince: ago(2 * HOUR_MS),
        labelled: false,
      },
    ]);
    const rule = await createRule(s.owner, {
      trigger: { no_reply_minutes: 60, label_ids: [s.labelId] },
    });
    await activeSince(s, rule.id, ago(3 * HOUR_MS));
    await runJob(s);

    const sends = await sendsTo(phones);
    expect(sends.map((r) => r.body.to)).toEqual([phones[0]]);
    expect(sends[0]!.path).toMatch(/\/messages$/);
    expect(sends[0]!.body).toMatchObject({
      type: "text",
      text: { body: "¿Sigues interesado? Estamos aquí para ayudarte." },
      biz_opaque_callback_data: `follow_up:${rule.id}`,
    });
    const message = await orgFirst<Row>(
      s.orgId,
      "SELECT * FROM messages WHERE conversation_id = ? AND direction = 'outbound'",
      due,
    );
    expect(message).toMatchObject({ sender_type: "follow_up", status: "sent" });
    // A follow-up does not start a wait of its own: the next step counts from the same message.
    expect(await waitOf(s, due!)).not.toBeNull();
    expect((await sendsOf(s, rule.id)).map((r) => [r.conversation_id, r.state])).toEqual([
      [due, "sent"],
    ]);
    expect((await ruleOf(s.owner, rule.id)).stats).toMatchObject({ sent: 1, free: 0 });

    // Next due: when the other conversation's wait reaches an hour.
    const job = await jobOf(s);
    expect(job!.dueAt).toBeGreaterThan(Date.now() + 25 * MINUTE_MS);
    expect(job!.dueAt).toBeLessThan(Date.now() + 31 * MINUTE_MS);
    // Another run sends nothing again.
    await runJob(s);
    expect(await sendsTo(phones)).toHaveLength(1);
  });

  it("sends the template outside the window, never to those who stopped marketing or are limited", async () => {
    const s = await marketingOrganization();
    const phones = [customerPhone(), customerPhone(), customerPhone()];
    const old = { lastInboundAt: ago(30 * HOUR_MS), followUpSince: ago(25 * HOUR_MS) };
    const [reached, optedOut, limited] = await seedCustomers(s, [
      { phone: phones[0], ...old },
      { phone: phones[1], ...old, optedOut: true },
      { phone: phones[2], ...old },
    ]);
    await orgSqlBatch(s.orgId, [
      {
        sql: "UPDATE conversations SET marketing_limited_until = ? WHERE id = ?",
        params: [new Date(Date.now() + HOUR_MS).toISOString(), limited],
      },
    ]);
    const rule = await createRule(s.owner, {
      trigger: { no_reply_minutes: 2 * 60 },
      template: MARKETING,
    });
    await activeSince(s, rule.id, ago(30 * HOUR_MS));
    await runJob(s);

    const sends = await sendsTo(phones);
    expect(sends.map((r) => r.body.to)).toEqual([phones[0]]);
    expect(sends[0]!.path).toMatch(/\/marketing_messages$/);
    expect(sends[0]!.body).toMatchObject({ type: "template", template: { name: "bienvenida" } });
    const states = (await sendsOf(s, rule.id)).map((r) => [
      r.conversation_id,
      r.state,
      r.error_code,
    ]);
    expect(states).toEqual(
      expect.arrayContaining([
        [reached, "sent", null],
        [optedOut, "skipped", "opted_out"],
        [limited, "skipped", "limited"],
      ]),
    );
    expect((await ruleOf(s.owner, rule.id)).stats).toMatchObject({ sent: 1, skipped: 2 });
  });

  it("a text-only rule skips a wait whose window has closed", async () => {
    const s = await marketingOrganization();
    const phone = customerPhone();
    await seedCustomers(s, [
      { phone, lastInboundAt: ago(25 * HOUR_MS), followUpSince: ago(2 * HOUR_MS) },
    ]);
    const rule = await createRule(s.owner, { trigger: { no_reply_minutes: 60 } });
    await activeSince(s, rule.id, ago(3 * HOUR_MS));
    await runJob(s);
    expect(await sendsTo([phone])).toEqual([]);
    expect((await sendsOf(s, rule.id)).map((r) => r.error_code)).toEqual(["window_closed"]);
  });

  it("never writes to the waits of before a rule was made, nor to one due more than a day ago", async () => {
    const s = await marketingOrganization();
    const phones = [customerPhone(), customerPhone()];
    await seedCustomers(s, [
      { phone: phones[0], lastInboundAt: ago(6 * HOUR_MS), followUpSince: ago(5 * HOUR_MS) },
      { phone: phones[1], lastInboundAt: ago(27 * HOUR_MS), followUpSince: ago(26 * HOUR_MS) },
    ]);
    const rule = await createRule(s.owner, { template: MARKETING });
    await runJob(s);
    expect(await sendsTo(phones)).toEqual([]);
    // Nothing is waiting for it: the job is not due again.
    expect(await jobOf(s)).toBeUndefined();
    // Active for days: the five-hour wait is its, the one due a day ago no longer.
    await activeSince(s, rule.id, ago(3 * 24 * HOUR_MS));
    await runJob(s);
    expect((await sendsTo(phones)).map((r) => r.body.to)).toEqual([phones[0]]);
  });

  it("sends only the longest due step of a sequence, and each rule up to its maximum", async () => {
    const s = await marketingOrganization();
    const phone = customerPhone();
    const [id] = await seedCustomers(s, [
      { phone, lastInboundAt: ago(5 * HOUR_MS), followUpSince: ago(4 * HOUR_MS) },
    ]);
    const first = await createRule(s.owner, { name: "Paso 1", trigger: { no_reply_minutes: 60 } });
    const second = await createRule(s.owner, {
      name: "Paso 2",
      trigger: { no_reply_minutes: 180 },
      text: "Último recordatorio",
      max_per_conversation: 2,
    });
    await activeSince(s, first.id, ago(5 * HOUR_MS));
    await activeSince(s, second.id, ago(5 * HOUR_MS));
    await runJob(s);
    const sends = await sendsTo([phone]);
    expect(sends.map((r) => r.body.text.body)).toEqual(["Último recordatorio"]);
    await runJob(s);
    expect(await sendsTo([phone])).toHaveLength(1);
    expect(await sendsOf(s, first.id)).toEqual([]);

    // Two more waits: the second rule writes once more (its maximum), then no more.
    for (const since of [ago(3.5 * HOUR_MS), ago(3.2 * HOUR_MS)]) {
      await orgSqlBatch(s.orgId, [
        { sql: "UPDATE conversations SET follow_up_since = ? WHERE id = ?", params: [since, id] },
      ]);
      await runJob(s);
    }
    expect((await sendsOf(s, second.id)).map((r) => r.state)).toEqual(["sent", "sent"]);
    // The first rule was due for the last wait but the second had answered it already.
    expect(await sendsOf(s, first.id)).toHaveLength(1);
  });

  it("waits for the end of quiet hours", async () => {
    const s = await marketingOrganization();
    const phone = customerPhone();
    await seedCustomers(s, [
      { phone, lastInboundAt: ago(3 * HOUR_MS), followUpSince: ago(2 * HOUR_MS) },
    ]);
    const rule = await createRule(s.owner);
    await activeSince(s, rule.id, ago(3 * HOUR_MS));
    // Quiet from an hour ago to an hour from now, in UTC.
    const hhmm = (ms: number) => new Date(Date.now() + ms).toISOString().slice(11, 16);
    await setQuietHours(s.owner, hhmm(-HOUR_MS), hhmm(HOUR_MS), "UTC");
    await runJob(s);
    expect(await sendsTo([phone])).toEqual([]);
    const job = await jobOf(s);
    expect(job!.dueAt).toBeGreaterThan(Date.now() + 58 * MINUTE_MS);
    expect(job!.dueAt).toBeLessThanOrEqual(Date.now() + HOUR_MS);
  });

  it("marks a follow-up free inside a click-to-WhatsApp ad's 72-hour window, and counts a reply", async () => {
    const s = await marketingOrganization();
    const phone = customerPhone();
    // The customer came from an ad three hours ago; the business answered within 24 h.
    const click = inboundMessage({
      phoneNumberId: s.phoneNumberId,
      from: phone,
      text: "Hola, vi el anuncio",
      timestamp: String(Math.floor((Date.now() - 3 * HOUR_MS) / 1000)),
      referral: ctwaReferral({ ctwaClid: `clid-${crypto.randomUUID().slice(0, 8)}` }),
    });
    await deliver(delivery(click));
    const conversation = await orgFirst<Row>(
      s.orgId,
      "SELECT id FROM conversations WHERE phone_number = ?",
      phone,
    );
    const answered = await answer(
      api(s.owner.token).conversations.messages.$post({
        json: { conversation_id: conversation!.id, content: "¡Hola! ¿Qué tratamiento buscas?" },
      }),
    );
    expect(answered.status).toBe(201);
    // Two hours later, nothing from the customer.
    await orgSqlBatch(s.orgId, [
      {
        sql: "UPDATE conversations SET follow_up_since = ? WHERE id = ?",
        params: [ago(2 * HOUR_MS), conversation!.id],
      },
    ]);
    const rule = await createRule(s.owner);
    await activeSince(s, rule.id, ago(3 * HOUR_MS));
    await runJob(s);
    expect(await sendsTo([phone])).toHaveLength(1);
    expect((await sendsOf(s, rule.id))[0]).toMatchObject({ state: "sent", free: 1 });

    await deliver(
      delivery(inboundMessage({ phoneNumberId: s.phoneNumberId, from: phone, text: "Sí" })),
    );
    expect((await ruleOf(s.owner, rule.id)).stats).toMatchObject({ sent: 1, free: 1, replied: 1 });
  });

  it("a send Meta refused for throughput (130429) is tried again after a pause, never failed", async () => {
    const s = await marketingOrganization();
    const phone = customerPhone();
    const [id] = await seedCustomers(s, [
      { phone, lastInboundAt: ago(3 * HOUR_MS), followUpSince: ago(2 * HOUR_MS) },
    ]);
    // Refused from the first send, whichever run (this test's, or the alarm by itself) makes it.
    await failNext("graph", {
      path: `/${GRAPH_VERSION}/${s.phoneNumberId}/messages`,
      contains: phone,
      status: 400,
      times: 3,
      error: { message: "(#130429) Rate limit hit", code: 130429 },
    });
    const rule = await createRule(s.owner);
    await activeSince(s, rule.id, ago(3 * HOUR_MS));
    for (let refused = 1; refused <= 3; refused++) {
      const before = Date.now();
      await runJob(s);
      // Settled once no run holds the job: it goes on after a pause.
      await vi.waitFor(async () => {
        const job = await jobOf(s);
        expect(job?.leaseUntil).toBeNull();
        expect(job!.dueAt).toBeGreaterThanOrEqual(before + 25_000);
      });
      // Nothing recorded of the refused send: the wait is due again.
      expect(await sendsOf(s, rule.id), `refusal ${refused}`).toEqual([]);
      expect(
        await orgSql(
          s.orgId,
          "SELECT id FROM messages WHERE conversation_id = ? AND direction = 'outbound'",
          id,
        ),
      ).toEqual([]);
      expect(await sendsTo([phone])).toHaveLength(refused);
    }
    await runJob(s);
    await vi.waitFor(async () =>
      expect((await sendsOf(s, rule.id)).map((r) => r.state)).toEqual(["sent"]),
    );
    expect(await sendsTo([phone])).toHaveLength(4);
  });

  it("a send a dead run left in flight fails, and is never asked again", async () => {
    const s = await marketingOrganization();
    const phone = customerPhone();
    const since = ago(2 * HOUR_MS);
    const [id] = await seedCustomers(s, [
      { phone, lastInboundAt: ago(3 * HOUR_MS), followUpSince: since },
    ]);
    const rule = await createRule(s.owner);
    await activeSince(s, rule.id, ago(3 * HOUR_MS));
    await orgSqlBatch(s.orgId, [
      {
        sql: `INSERT INTO follow_up_sends (follow_up_id, conversation_id, organization_id,
                waited_since, state, created_at) VALUES (?, ?, ?, ?, 'sending', ?)`,
        params: [rule.id, id, s.orgId, since, new Date().toISOString()],
      },
    ]);
    await runJob(s);
    expect(await sendsTo([phone])).toEqual([]);
    expect((await sendsOf(s, rule.id)).map((r) => [r.state, r.error_code])).toEqual([
      ["failed", "interrupted"],
    ]);
  });
});
