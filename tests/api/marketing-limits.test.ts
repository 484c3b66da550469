// What the owner allows marketing (issue 46; contract section 17, 2026-11-28; decision 0080):
// the monthly budget of sends and estimated cost and the frequency cap per customer, set on the
// organization by its owner and kept in its store; a broadcast past the budget refused at send
// (422 with the figures) or paused while sending (`pause_reason: "budget"`), whatever retries
// happen; a customer over the cap skipped as `frequency` by broadcasts and marketing
// follow-ups; and a broadcast to more than 1,000 recipients sent only with the preview's
// figures confirmed (409 with the new figures).
import { env } from "cloudflare:workers";
import { runDurableObjectAlarm } from "cloudflare:test";
import { describe, expect, it, vi } from "vitest";
import { GRAPH_VERSION } from "../fakes/graph-server.mjs";
import type {
  Broadcast,
  BroadcastPreview,
  MarketingAllowanceView,
  SendInput,
} from "../../contracts/broadcasts";
import type { OrganizationSettings } from "../../contracts/bookings";
import type { OrganizationUpdateInput } from "../../contracts/organizations";
import { api, answer } from "../support/api";
import { addMember } from "../support/factories";
import {
  MARKETING,
  UTILITY,
  marketingOrganization as setup,
  seedCustomers,
  type MarketingOrganization as Setup,
  type Owner,
} from "../support/marketing";
import { orgSql, orgSqlBatch } from "../support/org-data";
import { customerPhone, failNext, graphRequests } from "../support/webhooks";

type Row = Record<string, any>;
type Limits = Pick<OrganizationUpdateInput, "marketing_budget" | "marketing_frequency">;

/** The refusal's per-field messages. */
const detailsOf = (res: { body: unknown }) =>
  (res.body as { details: { path: string; message: string }[] }).details;

const DAY_MS = 24 * 3600 * 1000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

async function setLimits(owner: Owner, limits: Partial<Limits>, token = owner.token) {
  return answer(
    api(token).organizations[":id"].$patch({ param: { id: owner.organization.id }, json: limits }),
  );
}

async function setLimitsOk(owner: Owner, limits: Partial<Limits>) {
  const res = await setLimits(owner, limits);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return (res.body as { data: OrganizationSettings }).data;
}

async function createBroadcast(s: Setup, template = MARKETING) {
  const res = await answer(
    api(s.owner.token).broadcasts.$post({
      json: { name: "Rebajas", template, audience: { label_ids: [s.labelId] } },
    }),
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return (res.body as { data: Broadcast }).data.id;
}

const send = (s: Setup, id: string, confirm: SendInput = {}) =>
  answer(api(s.owner.token).broadcasts[":id"].send.$post({ param: { id }, json: confirm }));

async function previewOf(s: Setup, id: string) {
  const res = await answer(api(s.owner.token).broadcasts[":id"].preview.$post({ param: { id } }));
  expect(res.status).toBe(200);
  return (res.body as { data: BroadcastPreview }).data;
}

async function broadcastOf(s: Setup, id: string) {
  const res = await answer(api(s.owner.token).broadcasts[":id"].$get({ param: { id } }));
  return (res.body as { data: Broadcast }).data;
}

/** Runs the store's alarm until the broadcast reaches `status`. */
async function runUntil(s: Setup, id: string, status: Broadcast["status"]) {
  await vi.waitFor(
    async () => {
      await runDurableObjectAlarm(s.store);
      expect((await broadcastOf(s, id)).status).toBe(status);
    },
    { timeout: 20_000, interval: 20 },
  );
  return broadcastOf(s, id);
}

const statesOf = (s: Setup, id: string) =>
  orgSql<Row>(
    s.orgId,
    "SELECT conversation_id, state, error_code FROM broadcast_recipients WHERE broadcast_id = ?",
    id,
  );

/** A marketing broadcast sent earlier to these customers, at `at`, as its rows record it. */
async function pastBroadcast(s: Setup, conversationIds: string[], at: string) {
  const id = crypto.randomUUID();
  await orgSqlBatch(s.orgId, [
    {
      sql: `INSERT INTO broadcasts (id, organization_id, name, status, template_name,
              template_language, template_category, template_parameters, audience, created_at,
              updated_at)
            VALUES (?1, ?2, 'Anterior', 'completed', 'bienvenida', 'es', 'MARKETING', '[]', '{}',
              ?3, ?3)`,
      params: [id, s.orgId, at],
    },
    ...conversationIds.map((conversationId) => ({
      sql: `INSERT INTO broadcast_recipients (broadcast_id, conversation_id, organization_id,
              state, wamid, sent_at, created_at, updated_at)
            VALUES (?1, ?2, ?3, 'delivered', ?4, ?5, ?5, ?5)`,
      params: [id, conversationId, s.orgId, `wamid.${crypto.randomUUID()}`, at],
    })),
  ]);
}

describe("the owner's marketing limits", () => {
  it("are set by the owner alone, kept in the organization's store and read with it", async () => {
    const s = await setup();
    const me = async () =>
      (
        (await answer(api(s.owner.token).organizations.me.$get())).body as {
          data: OrganizationSettings;
        }
      ).data;
    // Nothing set: no budget, two marketing messages in seven days.
    expect(await me()).toMatchObject({
      marketing_budget: null,
      marketing_frequency: { max: 2, days: 7 },
    });

    const saved = await setLimitsOk(s.owner, {
      marketing_budget: { monthly_sends: 500, monthly_cost: 40, currency: "EUR" },
      marketing_frequency: { max: 3, days: 10 },
    });
    const expected = {
      marketing_budget: { monthly_sends: 500, monthly_cost: 40, currency: "EUR" },
      marketing_frequency: { max: 3, days: 10 },
    };
    expect(saved).toMatchObject(expected);
    expect(await me()).toMatchObject(expected);
    // In the store, never in D1.
    expect(
      await orgSql<Row>(s.orgId, "SELECT monthly_sends, frequency_max FROM marketing_limits"),
    ).toEqual([{ monthly_sends: 500, frequency_max: 3 }]);
    const inD1 = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE name = 'marketing_limits'",
    ).first();
    expect(inD1).toBeNull();

    // Changing one leaves the other; null removes the budget.
    await setLimitsOk(s.owner, { marketing_frequency: { max: 1, days: 1 } });
    expect(await me()).toMatchObject({ marketing_budget: expected.marketing_budget });
    await setLimitsOk(s.owner, { marketing_budget: null });
    expect(await me()).toMatchObject({
      marketing_budget: null,
      marketing_frequency: { max: 1, days: 1 },
    });

    // An admin changes the organization's facts, never what marketing may cost.
    const admin = await addMember(s.orgId, "admin");
    const refused = await setLimits(
      s.owner,
      { marketing_budget: { monthly_sends: 1_000_000, currency: "EUR" } },
      admin.token,
    );
    expect(refused.status).toBe(403);
    expect(
      (await setLimits(s.owner, { marketing_frequency: { max: 9, days: 1 } }, admin.token)).status,
    ).toBe(403);
    expect(await me()).toMatchObject({ marketing_budget: null });
  });

  it("refuses in Spanish what is not a budget or a cap, and changes nothing", async () => {
    const s = await setup();
    const cases: [unknown, string][] = [
      [{ marketing_budget: { currency: "EUR" } }, "marketing_budget.monthly_sends"],
      [
        { marketing_budget: { monthly_sends: 0, currency: "EUR" } },
        "marketing_budget.monthly_sends",
      ],
      [
        { marketing_budget: { monthly_cost: -5, currency: "EUR" } },
        "marketing_budget.monthly_cost",
      ],
      [{ marketing_budget: { monthly_sends: 10, currency: "USD" } }, "marketing_budget.currency"],
      [
        { marketing_budget: { monthly_sends: "10", currency: "EUR" } },
        "marketing_budget.monthly_sends",
      ],
      [{ marketing_frequency: { max: 0, days: 7 } }, "marketing_frequency.max"],
      [{ marketing_frequency: { max: 2, days: 365 } }, "marketing_frequency.days"],
      [{ marketing_frequency: { max: 2 } }, "marketing_frequency.days"],
    ];
    for (const [json, path] of cases) {
      const res = await setLimits(s.owner, json as Partial<Limits>);
      expect(res.status, JSON.stringify(json)).toBe(422);
      expect(
        detailsOf(res).map((d) => d.path),
        JSON.stringify(json),
      ).toContain(path);
    }
    expect(await orgSql(s.orgId, "SELECT 1 FROM marketing_limits")).toEqual([]);
  });
});

describe("the frequency cap", () => {
  it("leaves out of a broadcast, in its preview and its recipients, a customer who got enough marketing", async () => {
    const s = await setup();
    const [twice, once, longAgo] = await seedCustomers(s, [{}, {}, {}]);
    // Two marketing broadcasts this week for the first, one for the second; the third's were
    // more than seven days ago.
    await pastBroadcast(s, [twice!, once!], ago(2 * DAY_MS));
    await pastBroadcast(s, [twice!], ago(1 * DAY_MS));
    await pastBroadcast(s, [longAgo!, longAgo!].slice(0, 1), ago(8 * DAY_MS));
    await pastBroadcast(s, [longAgo!], ago(9 * DAY_MS));
    const id = await createBroadcast(s);

    const preview = await previewOf(s, id);
    expect(preview.recipients).toBe(2);
    expect(preview.skipped).toEqual({ opted_out: 0, limited: 0, unreachable: 0, frequency: 1 });
    expect(preview.marketing.frequency).toEqual({ max: 2, days: 7 });

    expect((await send(s, id)).status).toBe(200);
    const done = await runUntil(s, id, "completed");
    expect(done.stats).toMatchObject({ sent: 2, skipped: { frequency: 1 } });
    expect(await statesOf(s, id)).toEqual(
      expect.arrayContaining([
        { conversation_id: twice, state: "skipped", error_code: "frequency" },
        { conversation_id: once, state: "sent", error_code: null },
        { conversation_id: longAgo, state: "sent", error_code: null },
      ]),
    );

    // The owner's own cap: one in three days leaves out the second too, now that it got this one.
    await setLimitsOk(s.owner, { marketing_frequency: { max: 1, days: 3 } });
    const next = await createBroadcast(s);
    expect((await previewOf(s, next)).skipped.frequency).toBe(3);
  });

  it("is checked again for each recipient as it is sent", async () => {
    const s = await setup();
    const [customer] = await seedCustomers(s, [{}]);
    const id = await createBroadcast(s);
    expect((await send(s, id)).status).toBe(200);
    // Two marketing messages reach the customer after the send was asked, before their turn.
    await pastBroadcast(s, [customer!], ago(60_000));
    await pastBroadcast(s, [customer!], ago(30_000));
    await runUntil(s, id, "completed");
    expect(await statesOf(s, id)).toEqual([
      { conversation_id: customer, state: "skipped", error_code: "frequency" },
    ]);
  });

  it("skips a marketing follow-up to a customer over it, and counts the marketing follow-ups it sent", async () => {
    const s = await setup();
    const old = { lastInboundAt: ago(30 * 3600_000), followUpSince: ago(25 * 3600_000) };
    const [capped, free] = await seedCustomers(s, [old, old]);
    await pastBroadcast(s, [capped!], ago(DAY_MS));
    await pastBroadcast(s, [capped!], ago(DAY_MS / 2));
    const rule = await answer(
      api(s.owner.token)["follow-ups"].$post({
        json: { name: "Recordatorio", trigger: { no_reply_minutes: 120 }, template: MARKETING },
      }),
    );
    expect(rule.status).toBe(201);
    const ruleId = (rule.body as { data: { id: string } }).data.id;
    await orgSqlBatch(s.orgId, [
      { sql: "UPDATE follow_ups SET active_since = ? WHERE id = ?", params: [ago(DAY_MS), ruleId] },
    ]);
    await s.store.scheduleJob(s.orgId, "follow_ups", Date.now());
    await runDurableObjectAlarm(s.store);
    const sends = await orgSql<Row>(
      s.orgId,
      "SELECT conversation_id, state, error_code FROM follow_up_sends WHERE follow_up_id = ?",
      ruleId,
    );
    expect(sends).toEqual(
      expect.arrayContaining([
        { conversation_id: capped, state: "skipped", error_code: "frequency" },
        { conversation_id: free, state: "sent", error_code: null },
      ]),
    );
    // The follow-up counts: with one in seven days, a broadcast now leaves that customer out.
    await setLimitsOk(s.owner, { marketing_frequency: { max: 1, days: 7 } });
    const id = await createBroadcast(s);
    expect((await previewOf(s, id)).skipped.frequency).toBe(2);
  });
});

describe("the monthly budget", () => {
  it("refuses at send a broadcast that would pass it, with the figures in Spanish", async () => {
    const s = await setup();
    const customers = await seedCustomers(s, [{}, {}, {}, {}]);
    await pastBroadcast(s, customers.slice(0, 1) as string[], ago(60_000));
    await setLimitsOk(s.owner, {
      marketing_budget: { monthly_sends: 4, currency: "EUR" },
      marketing_frequency: { max: 5, days: 7 },
    });
    const id = await createBroadcast(s);
    const preview = await previewOf(s, id);
    expect(preview.marketing.budget).toMatchObject({
      monthly_sends: 4,
      sends_used: 1,
      sends_left: 3,
    });

    const refused = await send(s, id);
    expect(refused.status).toBe(422);
    expect(refused.body).toMatchObject({
      error: "marketing_budget",
      details: [{ path: "monthly_sends" }],
    });
    expect((refused.body as { message: string }).message).toBe(
      "Esta difusión supera el presupuesto mensual de marketing: tiene 4 destinatarios y quedan 3 envíos de 4 este mes.",
    );
    expect((await broadcastOf(s, id)).status).toBe("draft");
    expect(await graphRequests("messages")).not.toContainEqual(
      expect.objectContaining({
        body: expect.objectContaining({ biz_opaque_callback_data: `broadcast:${id}` }),
      }),
    );

    // A cost cap: four Spanish marketing messages at the rate card cost about 0.21 EUR.
    await setLimitsOk(s.owner, {
      marketing_budget: { monthly_sends: 100, monthly_cost: 0.2, currency: "EUR" },
    });
    const byCost = await send(s, id);
    expect(byCost.status).toBe(422);
    expect(detailsOf(byCost)).toEqual([expect.objectContaining({ path: "monthly_cost" })]);
    expect((byCost.body as { message: string }).message).toMatch(
      /costaría unos 0,\d\d EUR y quedan 0,1\d EUR de 0,20 EUR este mes/,
    );

    // Within it, it goes.
    await setLimitsOk(s.owner, {
      marketing_budget: { monthly_sends: 100, monthly_cost: 5, currency: "EUR" },
    });
    expect((await send(s, id)).status).toBe(200);
  });

  it("pauses a broadcast that reaches it while sending (pause_reason budget); resuming waits for room", async () => {
    const s = await setup();
    const phones = [customerPhone(), customerPhone(), customerPhone()];
    await seedCustomers(
      s,
      phones.map((phone) => ({ phone })),
    );
    await setLimitsOk(s.owner, { marketing_budget: { monthly_sends: 10, currency: "EUR" } });
    const id = await createBroadcast(s, UTILITY);
    expect((await send(s, id)).status).toBe(200);
    // Meanwhile the owner lowers it to two sends this month.
    await setLimitsOk(s.owner, { marketing_budget: { monthly_sends: 2, currency: "EUR" } });

    const paused = await runUntil(s, id, "paused");
    expect(paused.pause_reason).toBe("budget");
    expect(paused.stats).toMatchObject({ sent: 2, pending: 1 });
    const sends = (await graphRequests("messages")).filter(
      (r) => r.body?.biz_opaque_callback_data === `broadcast:${id}`,
    );
    expect(sends).toHaveLength(2);

    // Resumed with the budget spent: refused with what was used; with room, it finishes.
    const resume = () =>
      answer(api(s.owner.token).broadcasts[":id"].resume.$post({ param: { id } }));
    const refused = await resume();
    expect(refused.status).toBe(422);
    expect((refused.body as { message: string }).message).toContain(
      "ya se usaron los 2 envíos de este mes",
    );
    await setLimitsOk(s.owner, { marketing_budget: { monthly_sends: 3, currency: "EUR" } });
    expect((await resume()).status).toBe(200);
    const done = await runUntil(s, id, "completed");
    expect(done.stats).toMatchObject({ sent: 3, pending: 0 });
  });

  it("counts each recipient once whatever retries happen (a throughput refusal sent again)", async () => {
    const s = await setup();
    const phones = [customerPhone(), customerPhone()];
    await seedCustomers(
      s,
      phones.map((phone) => ({ phone })),
    );
    await setLimitsOk(s.owner, { marketing_budget: { monthly_sends: 2, currency: "EUR" } });
    const id = await createBroadcast(s);
    await failNext("graph", {
      path: `/${GRAPH_VERSION}/${s.phoneNumberId}/marketing_messages`,
      contains: phones[0],
      status: 400,
      times: 2,
      error: { message: "(#130429) Rate limit hit", code: 130429 },
    });
    expect((await send(s, id)).status).toBe(200);
    await vi.waitFor(
      async () => {
        await s.store.scheduleJob(s.orgId, "broadcasts", Date.now());
        await runDurableObjectAlarm(s.store);
        expect((await broadcastOf(s, id)).status).toBe("completed");
      },
      { timeout: 20_000, interval: 50 },
    );
    const done = await broadcastOf(s, id);
    expect(done.stats).toMatchObject({ sent: 2, pending: 0 });
    expect(done.pause_reason).toBeNull();
    const allowance = await answer(api(s.owner.token).broadcasts.allowance.$get());
    expect((allowance.body as { data: MarketingAllowanceView }).data.budget).toMatchObject({
      sends_used: 2,
      sends_left: 0,
    });
  });
});

describe("a marketing follow-up", () => {
  it("is skipped as budget once the month's budget is spent", async () => {
    const s = await setup();
    const old = { lastInboundAt: ago(30 * 3600_000), followUpSince: ago(25 * 3600_000) };
    const [waiting, other] = await seedCustomers(s, [old, {}]);
    await pastBroadcast(s, [other!], ago(60_000));
    await setLimitsOk(s.owner, { marketing_budget: { monthly_sends: 1, currency: "EUR" } });
    const rule = await answer(
      api(s.owner.token)["follow-ups"].$post({
        json: { name: "Recordatorio", trigger: { no_reply_minutes: 120 }, template: MARKETING },
      }),
    );
    const ruleId = (rule.body as { data: { id: string } }).data.id;
    await orgSqlBatch(s.orgId, [
      { sql: "UPDATE follow_ups SET active_since = ? WHERE id = ?", params: [ago(DAY_MS), ruleId] },
    ]);
    await s.store.scheduleJob(s.orgId, "follow_ups", Date.now());
    await runDurableObjectAlarm(s.store);
    expect(
      await orgSql<Row>(
        s.orgId,
        "SELECT conversation_id, state, error_code FROM follow_up_sends WHERE follow_up_id = ?",
        ruleId,
      ),
    ).toEqual([{ conversation_id: waiting, state: "skipped", error_code: "budget" }]);
  });
});

describe("a broadcast to more than 1,000 recipients", () => {
  it("is sent only with the preview's figures confirmed within 5%, else 409 with the new figures", async () => {
    const s = await setup();
    await seedCustomers(
      s,
      Array.from({ length: 1_001 }, (_, i) => ({ phone: `3460${String(i).padStart(7, "0")}` })),
    );
    const id = await createBroadcast(s);
    const preview = await previewOf(s, id);
    expect(preview.recipients).toBe(1_001);
    const cost = preview.estimated_cost.amount!;

    const unconfirmed = await send(s, id);
    expect(unconfirmed.status).toBe(409);
    expect(unconfirmed.body).toMatchObject({
      error: "confirmation_required",
      details: [{ path: "confirm_recipients" }, { path: "confirm_cost" }],
    });
    expect((unconfirmed.body as { message: string }).message).toMatch(
      /^Confirma las cifras antes de enviar: la difusión llega ahora a 1001 destinatarios y cuesta unos [\d.,]+ EUR\.$/,
    );
    // Figures more than 5% away (an older preview) are refused with the new ones.
    const stale = await send(s, id, { confirm_recipients: 900, confirm_cost: cost });
    expect(stale.status).toBe(409);
    expect(detailsOf(stale)).toEqual([
      { path: "confirm_recipients", message: "Ahora son 1001 destinatarios" },
    ]);
    expect(
      (await send(s, id, { confirm_recipients: 1_001, confirm_cost: cost * 1.2 })).status,
    ).toBe(409);
    expect((await broadcastOf(s, id)).status).toBe("draft");

    // Within 5% of both, it goes.
    const sent = await send(s, id, { confirm_recipients: 980, confirm_cost: cost * 1.04 });
    expect(sent.status, JSON.stringify(sent.body)).toBe(200);
    expect((sent.body as { data: Broadcast }).data.status).toBe("sending");
  });
});
