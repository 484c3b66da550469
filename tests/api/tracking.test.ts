// Hand-built requests here are the subject: a CORS preflight, raw queries and invalid bodies.
import { env } from "cloudflare:workers";
import type { InferRequestType } from "hono/client";
import { describe, expect, it } from "vitest";
import {
  CONVERSIONS_PAGE_SIZE,
  CUSTOM_DATA_LIMITS,
  PUBLIC_KEY_EVENTS,
} from "../../contracts/tracking";
import { PUBLIC_DAILY_QUOTA, publicQuotaKey } from "../../durable-objects/tracking/service";
import { createOwner, randomIp } from "../support/factories";
import { answer, api } from "../support/api";
import { call } from "../support/http";
import { orgFirst, orgSql, orgSqlBatch } from "../support/org-data";

type Tracking = ReturnType<typeof api>["tracking"];
type SessionInput = InferRequestType<Tracking["sessions"]["$post"]>["json"];
type ConversionInput = InferRequestType<Tracking["conversions"]["$post"]>["json"];

/** A typed call's status and body, as `answer` gives them, and the answer's headers. */
async function withHeaders<T>(
  request: Promise<{ status: number; headers: Headers; json(): Promise<T> }>,
) {
  return { ...(await answer(request)), headers: (await request).headers };
}

/** A member's session carries the phone; a page's (public key) has no such field at all. */
const phoneOf = (session: object) => ("phone_number" in session ? session.phone_number : undefined);

const session = (tracking_params: Record<string, string>): SessionInput => ({
  tracking_params,
  user_agent: "Mozilla/5.0",
  referrer: "https://facebook.com/",
  landing_page: "https://clinica.example/promo",
});

describe("tracking sessions", () => {
  it.each(["fbclid", "gclid", "utm_source", "ref", "ad_id", "campaign_id"])(
    "are created when %s is present",
    async (key) => {
      const owner = await createOwner();
      const res = await answer(
        api(owner.token).tracking.sessions.$post({
          json: session({ [key]: "abc123", utm_medium: "cpc" }),
        }),
      );
      expect(res.status).toBe(201);
      expect(res.body.data.tracking_params).toEqual({ [key]: "abc123", utm_medium: "cpc" });
      expect(res.body.data.ref_code).toMatch(/^AT-[2-9A-Z]{6}$/);
    },
  );

  it("are refused without a triggering parameter, storing nothing", async () => {
    const owner = await createOwner();
    const withoutTrigger: Record<string, string>[] = [
      {},
      { utm_medium: "cpc", utm_term: "x" },
      { fbclid: "" },
    ];
    for (const params of withoutTrigger) {
      // On `call`: the refusal's `details` is read.
      const res = await call("POST", "/api/v1/tracking/sessions", {
        token: owner.token,
        body: session(params),
      });
      expect(res.status).toBe(422);
      expect(res.body.details[0].path).toBe("tracking_params");
    }
    expect(await rowsOf("tracking_sessions", owner.organization.id)).toBe(0);
  });

  it("accept a business's public key with CORS, and refuse an unknown key", async () => {
    const owner = await createOwner();
    const key = owner.organization.tracking_key;
    // On `call`: a CORS preflight (OPTIONS), which the routes' types do not list.
    const preflight = await call("OPTIONS", "/api/v1/tracking/sessions", {
      headers: { Origin: "https://clinica.example", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toContain("X-Tracking-Key");

    const created = await withHeaders(
      api().tracking.sessions.$post(
        { json: session({ fbclid: "IwAR123" }) },
        { headers: { "X-Tracking-Key": key, Origin: "https://clinica.example" } },
      ),
    );
    expect(created.status).toBe(201);
    expect(created.headers.get("Access-Control-Allow-Origin")).toBe("*");

    const linked = await answer(
      api().tracking.sessions[":id"].$patch(
        { param: { id: created.body.data.id }, json: { phone_number: "+34 600 11 22 33" } },
        { headers: { "X-Tracking-Key": key } },
      ),
    );
    expect(linked.status).toBe(200);
    const stored = await answer(
      api(owner.token).tracking.sessions[":id"].$get({ param: { id: created.body.data.id } }),
    );
    expect(phoneOf(stored.body.data)).toBe("34600112233");

    const bad = await answer(
      api().tracking.sessions.$post(
        { json: session({ fbclid: "x" }) },
        { headers: { "X-Tracking-Key": "no-existe" } },
      ),
    );
    expect(bad.status).toBe(401);
    const none = await answer(api().tracking.sessions.$post({ json: session({ fbclid: "x" }) }));
    expect(none.status).toBe(401);
  });

  it("limit public calls per address with 429 and Retry-After", async () => {
    const owner = await createOwner();
    const headers = {
      "X-Tracking-Key": owner.organization.tracking_key,
      "CF-Connecting-IP": "203.0.113.9",
    };
    let last = 0;
    for (let i = 0; i < 121; i++) {
      const id = crypto.randomUUID();
      last = (await answer(api().tracking.sessions[":id"].$get({ param: { id } }, { headers })))
        .status;
    }
    expect(last).toBe(429);
  });

  it("of another organization are 404, by token and by key", async () => {
    const a = await createOwner();
    const b = await createOwner();
    const created = await answer(
      api(b.token).tracking.sessions.$post({ json: session({ ref: "x" }) }),
    );
    const id = created.body.data.id;
    expect(
      (await answer(api(a.token).tracking.sessions[":id"].$get({ param: { id } }))).status,
    ).toBe(404);
    const byKey = await answer(
      api().tracking.sessions[":id"].$patch(
        { param: { id }, json: { phone_number: "34600000001" } },
        { headers: { "X-Tracking-Key": a.organization.tracking_key } },
      ),
    );
    expect(byKey.status).toBe(404);
    const still = await answer(api(b.token).tracking.sessions[":id"].$get({ param: { id } }));
    expect(phoneOf(still.body.data)).toBeNull();
  });
});

describe("conversions and stats", () => {
  async function seedAt(
    owner: Awaited<ReturnType<typeof createOwner>>,
    at: string,
    params: Record<string, string>,
    conversion?: { event: ConversionInput["event_name"]; value?: number },
  ) {
    const s = await answer(api(owner.token).tracking.sessions.$post({ json: session(params) }));
    await orgSql(
      owner.organization.id,
      "UPDATE tracking_sessions SET created_at = ? WHERE id = ?",
      at,
      s.body.data.id,
    );
    if (conversion) {
      const c = await answer(
        api(owner.token).tracking.conversions.$post({
          json: {
            event_name: conversion.event,
            tracking_session_id: s.body.data.id,
            conversion_value: conversion.value,
          },
        }),
      );
      expect(c.status).toBe(201);
      await orgSql(
        owner.organization.id,
        "UPDATE conversions SET event_time = ? WHERE id = ?",
        at,
        c.body.data.id,
      );
    }
  }

  it("computes the dataset's figures by hand, correct at UTC day boundaries", async () => {
    const owner = await createOwner();
    // Inside 2026-11-01 .. 2026-11-10 (date_to inclusive):
    await seedAt(
      owner,
      "2026-11-01T00:00:00.000Z",
      { utm_source: "Facebook", utm_campaign: "Black Friday" },
      { event: "lead", value: 50 },
    );
    await seedAt(
      owner,
      "2026-11-05T12:00:00.000Z",
      { fbclid: "IwAR1", utm_campaign: "Black Friday" },
      { event: "purchase", value: 120.5 },
    );
    await seedAt(owner, "2026-11-10T23:59:59.999Z", { gclid: "g1" }, { event: "lead" });
    await seedAt(owner, "2026-11-07T08:00:00.000Z", { ref: "flyer" });
    // Outside:
    await seedAt(
      owner,
      "2026-10-31T23:59:59.999Z",
      { utm_source: "facebook" },
      { event: "lead", value: 999 },
    );
    await seedAt(
      owner,
      "2026-11-11T00:00:00.000Z",
      { utm_source: "google" },
      { event: "lead", value: 999 },
    );

    const res = await answer(
      api(owner.token).tracking.stats.$get({
        query: { date_from: "2026-11-01", date_to: "2026-11-10" },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      total_sessions: 4,
      total_conversions: 3,
      conversion_rate: 0.75,
      total_value: 170.5,
      by_source: { facebook: 2, google: 1 },
      by_campaign: { "Black Friday": 2 },
      by_day: { "2026-11-01": 1, "2026-11-05": 1, "2026-11-10": 1 },
    });

    const leads = await answer(
      api(owner.token).tracking.conversions.$get({
        query: { date_from: "2026-11-01", date_to: "2026-11-10", event_name: "lead" },
      }),
    );
    expect(leads.body.data.conversions.map((c) => c.event_time)).toEqual([
      "2026-11-10T23:59:59.999Z",
      "2026-11-01T00:00:00.000Z",
    ]);
  });

  it("gives a 0 rate, not NaN, for a range without sessions", async () => {
    const owner = await createOwner();
    const res = await answer(
      api(owner.token).tracking.stats.$get({
        query: { date_from: "2020-01-01", date_to: "2020-01-02" },
      }),
    );
    expect(res.body.data).toEqual({
      total_sessions: 0,
      total_conversions: 0,
      conversion_rate: 0,
      total_value: 0,
      by_source: {},
      by_campaign: {},
      by_day: {},
    });
  });

  it.each([
    "date_from=2026-13-01",
    "date_from=ayer",
    "date_from=2026-11-10&date_to=2026-11-01",
    "event_name=venta",
  ])("refuses a bad range (%s) with 400", async (query) => {
    const owner = await createOwner();
    // On `call`: deliberately malformed queries, kept as the raw strings the table names.
    const res = await call("GET", `/api/v1/tracking/stats?${query}`, { token: owner.token });
    expect(res.status).toBe(400);
  });

  it("refuses an unknown event and a negative value with 422", async () => {
    const owner = await createOwner();
    // On `call`: an unknown event the typed client would refuse; `details` is read too.
    const res = await call("POST", "/api/v1/tracking/conversions", {
      token: owner.token,
      body: { event_name: "venta", conversion_value: -1 },
    });
    expect(res.status).toBe(422);
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual([
      "conversion_value",
      "event_name",
    ]);
  });
});

/** How many rows a table holds for the organization. */
async function rowsOf(table: "tracking_sessions" | "conversions", organizationId: string) {
  const sql = `SELECT count(*) AS n FROM ${table} WHERE organization_id = ?`;
  const row = await orgFirst<{ n: number }>(organizationId, sql, organizationId);
  return row!.n;
}

describe("the public tracking key", () => {
  const byKey = (key: string, json: ConversionInput) =>
    answer(
      api().tracking.conversions.$post(
        { json },
        { headers: { "X-Tracking-Key": key, "CF-Connecting-IP": randomIp() } },
      ),
    );

  it("records a visit's steps, and refuses leads, sales and values with 403, storing nothing", async () => {
    const owner = await createOwner();
    const key = owner.organization.tracking_key;
    for (const event_name of PUBLIC_KEY_EVENTS) {
      const res = await byKey(key, {
        event_name,
        phone_number: "34600112233",
        custom_data: { boton: "cabecera" },
      });
      expect(res.status).toBe(201);
      expect(res.body.data).toEqual({ id: expect.any(String), event_name });
    }
    const refused: ConversionInput[] = [
      { event_name: "lead" },
      { event_name: "purchase", conversion_value: 10 },
      { event_name: "contact" },
      { event_name: "message_sent" },
      { event_name: "whatsapp_click", conversion_value: 5 },
      { event_name: "conversation_start", currency: "EUR" },
      { event_name: "first_message", custom_data: { value: 99 } },
      { event_name: "first_message", custom_data: { predicted_ltv: 300 } },
    ];
    for (const body of refused) {
      const res = await byKey(key, body);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body).toEqual({
        error: "forbidden",
        message: expect.stringMatching(/clave pública/),
      });
    }
    expect(await rowsOf("conversions", owner.organization.id)).toBe(PUBLIC_KEY_EVENTS.length);
    const stats = await answer(api(owner.token).tracking.stats.$get({ query: {} }));
    expect(stats.body.data.total_value).toBe(0);

    // A signed-in member records the lead and its value.
    const lead = await answer(
      api(owner.token).tracking.conversions.$post({
        json: { event_name: "lead", conversion_value: 10, custom_data: { value: 10 } },
      }),
    );
    expect(lead.status).toBe(201);
    expect(lead.body.data).toMatchObject({ event_name: "lead", conversion_value: 10 });
  });

  it("never shows a page the phone its visit was matched to", async () => {
    const owner = await createOwner();
    const headers = { "X-Tracking-Key": owner.organization.tracking_key };
    const created = await answer(
      api().tracking.sessions.$post({ json: session({ fbclid: "IwAR-privado" }) }, { headers }),
    );
    const param = { id: created.body.data.id };
    const ours = api().tracking.sessions[":id"];
    const answers = [
      created,
      await answer(ours.$patch({ param, json: { phone_number: "34600445566" } }, { headers })),
      await answer(ours.$get({ param }, { headers })),
    ];
    for (const reply of answers) {
      expect(reply.status).toBeLessThan(300);
      expect(Object.keys(reply.body.data).sort()).toEqual([
        "created_at",
        "id",
        "landing_page",
        "ref_code",
        "referrer",
        "tracking_params",
        "user_agent",
      ]);
    }
    const forMember = await answer(api(owner.token).tracking.sessions[":id"].$get({ param }));
    expect(phoneOf(forMember.body.data)).toBe("34600445566");
  });

  it("made-up keys add no rows to rate_limits: one counter per address", async () => {
    const countersNow = async () =>
      (await env.DB.prepare("SELECT count(*) AS n FROM rate_limits").first<{ n: number }>())!.n;
    const before = await countersNow();
    const headers = { "CF-Connecting-IP": randomIp() };
    const statuses: number[] = [];
    for (let i = 0; i < 50; i++) {
      const res = await answer(
        api().tracking.sessions.$post(
          { json: session({ fbclid: "x" }) },
          { headers: { ...headers, "X-Tracking-Key": crypto.randomUUID().replaceAll("-", "") } },
        ),
      );
      statuses.push(res.status);
    }
    expect(await countersNow()).toBeLessThanOrEqual(before + 1);
    // Guessing keys is limited too: 30 a minute from one address, then 429.
    expect(statuses.slice(0, 30).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(30).every((s) => s === 429)).toBe(true);
  });
});

describe("the public key's daily quota", () => {
  /** Counts `used` additions of `kind` for the organization today, as if its pages had made them. */
  async function seedQuota(kind: "sessions" | "conversions", organizationId: string, used: number) {
    const today = new Date().toISOString().slice(0, 10);
    const nextDay = Date.parse(`${today}T00:00:00.000Z`) + 24 * 3600_000;
    await env.DB.prepare("INSERT INTO rate_limits (key, count, reset_at) VALUES (?, ?, ?)")
      .bind(publicQuotaKey(kind, organizationId, today), used, nextDay)
      .run();
    return Math.ceil((nextDay - Date.now()) / 1000);
  }

  /** Adds one of `kind`: as a page holding the key (in `headers`), or as a member (`token`). */
  const add = (
    kind: "sessions" | "conversions",
    token?: string,
    headers?: Record<string, string>,
  ) => {
    // No options without headers: an undefined `headers` option would drop the token's.
    const options = headers ? { headers } : undefined;
    return kind === "sessions"
      ? withHeaders(
          api(token).tracking.sessions.$post(
            { json: session({ utm_source: "facebook" }) },
            options,
          ),
        )
      : withHeaders(
          api(token).tracking.conversions.$post(
            { json: { event_name: "whatsapp_click" } },
            options,
          ),
        );
  };

  it.each(["sessions", "conversions"] as const)(
    "caps the %s a page adds per UTC day; members are not counted",
    async (kind) => {
      const owner = await createOwner();
      const secondsToMidnight = await seedQuota(
        kind,
        owner.organization.id,
        PUBLIC_DAILY_QUOTA - 1,
      );
      const byKey = () =>
        add(kind, undefined, {
          "X-Tracking-Key": owner.organization.tracking_key,
          "CF-Connecting-IP": randomIp(),
        });
      expect((await byKey()).status).toBe(201);
      const over = await byKey();
      expect(over.status).toBe(429);
      expect(over.body.error).toBe("rate_limited");
      expect(over.body.message).toContain(`máximo de ${PUBLIC_DAILY_QUOTA}`);
      expect(over.body.message).toContain("00:00 (UTC)");
      const retryAfter = Number(over.headers.get("Retry-After"));
      expect(Math.abs(retryAfter - secondsToMidnight)).toBeLessThanOrEqual(5);
      expect(
        await rowsOf(
          `${kind === "sessions" ? "tracking_sessions" : "conversions"}`,
          owner.organization.id,
        ),
      ).toBe(1);

      const byMember = await add(kind, owner.token);
      expect(byMember.status).toBe(201);
    },
  );
});

describe("bounded custom_data and tracking_params", () => {
  /** A valid custom_data (texts of at most 1000 characters) whose JSON is exactly `bytes` long. */
  function customDataOfBytes(bytes: number) {
    const data: Record<string, string> = {};
    for (let i = 0; ; i++) {
      data[`k${i}`] = "";
      const room = bytes - JSON.stringify(data).length;
      data[`k${i}`] = "x".repeat(Math.min(CUSTOM_DATA_LIMITS.textLength, room));
      if (room <= CUSTOM_DATA_LIMITS.textLength) return data;
    }
  }

  it("accepts custom_data up to 4 KB and refuses more with a 422 naming the limit", async () => {
    const owner = await createOwner();
    // On `call`: the refusals' `details` are read, and the route's type of the answer is the
    // page's (id and event), without the custom_data a member gets back.
    const record = (custom_data: unknown) =>
      call("POST", "/api/v1/tracking/conversions", {
        token: owner.token,
        body: { event_name: "lead", custom_data },
      });
    const atLimit = customDataOfBytes(CUSTOM_DATA_LIMITS.bytes);
    expect(JSON.stringify(atLimit)).toHaveLength(4096);
    const accepted = await record(atLimit);
    expect(accepted.status).toBe(201);
    expect(accepted.body.data.custom_data).toEqual(atLimit);

    const refused: [unknown, RegExp][] = [
      [customDataOfBytes(CUSTOM_DATA_LIMITS.bytes + 1), /4 KB/],
      [{ nota: "x".repeat(1001) }, /1000 caracteres/],
      [Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, i])), /50 campos/],
      [{ ["k".repeat(101)]: 1 }, /100 caracteres/],
      [{ contents: [{ id: "a", quantity: 1 }] }, /sin listas ni objetos/],
      [{ cliente: { nombre: "Ana" } }, /sin listas ni objetos/],
      // Within 1000 characters each (an emoji counts 2), but 2000 bytes each: over 4 KB.
      [{ a: "😀".repeat(500), b: "😀".repeat(500), c: "😀".repeat(500) }, /4 KB/],
    ];
    for (const [customData, message] of refused) {
      const res = await record(customData);
      expect(res.status).toBe(422);
      expect(res.body.details).toEqual([
        { path: "custom_data", message: expect.stringMatching(message) },
      ]);
    }
    expect(await rowsOf("conversions", owner.organization.id)).toBe(1);
  });

  it("keeps only the known tracking parameters, each up to 500 characters", async () => {
    const owner = await createOwner();
    const created = await answer(
      api(owner.token).tracking.sessions.$post({
        json: session({ fbclid: "f".repeat(500), inventado: "x".repeat(10_000) }),
      }),
    );
    expect(created.status).toBe(201);
    expect(created.body.data.tracking_params).toEqual({ fbclid: "f".repeat(500) });
    // On `call`: the refusal's `details` is read.
    const tooLong = await call("POST", "/api/v1/tracking/conversions", {
      token: owner.token,
      body: { event_name: "lead", tracking_params: { utm_campaign: "c".repeat(501) } },
    });
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.details[0].path).toBe("tracking_params.utm_campaign");
  });
});

describe("GET /tracking/conversions pages", () => {
  /** Stores `n` conversions for the organization, one a minute before now, pairs sharing a time. */
  async function seedConversions(organizationId: string, n: number) {
    const start = Date.now() - n * 60_000;
    await orgSqlBatch(
      organizationId,
      Array.from({ length: n }, (_, i) => ({
        sql: "INSERT INTO conversions (id, organization_id, event_name, event_id, event_time, created_at) VALUES (?, ?, 'lead', ?, ?, ?)",
        params: [
          crypto.randomUUID(),
          organizationId,
          crypto.randomUUID(),
          new Date(start + Math.floor(i / 2) * 60_000).toISOString(),
          new Date().toISOString(),
        ],
      })),
    );
  }

  it("gives each of 120 conversions exactly once, 50 at a time, newest first", async () => {
    const owner = await createOwner();
    await seedConversions(owner.organization.id, 120);
    const seen: { id: string; event_time: string }[] = [];
    const pages: number[] = [];
    let before: string | undefined;
    for (;;) {
      const res = await answer(
        api(owner.token).tracking.conversions.$get({ query: { limit: "50", before } }),
      );
      expect(res.status).toBe(200);
      const { conversions, has_more } = res.body.data;
      pages.push(conversions.length);
      seen.push(...conversions);
      if (!has_more) break;
      before = conversions.at(-1)!.id;
    }
    expect(pages).toEqual([50, 50, 20]);
    expect(new Set(seen.map((c) => c.id)).size).toBe(120);
    const keys = seen.map((c) => `${c.event_time}|${c.id}`);
    expect(keys).toEqual([...keys].sort().reverse());

    const byDefault = await answer(api(owner.token).tracking.conversions.$get({ query: {} }));
    expect(byDefault.body.data.conversions).toHaveLength(CONVERSIONS_PAGE_SIZE);
    expect(byDefault.body.data.has_more).toBe(true);
  });

  it("refuses another organization's cursor and a page over 200", async () => {
    const owner = await createOwner();
    const other = await createOwner();
    await seedConversions(owner.organization.id, 3);
    await seedConversions(other.organization.id, 3);
    const theirs = await answer(api(other.token).tracking.conversions.$get({ query: {} }));
    const cursor = theirs.body.data.conversions[0]!.id;
    const res = await answer(
      api(owner.token).tracking.conversions.$get({ query: { before: cursor } }),
    );
    expect(res.status).toBe(404);
    expect(JSON.stringify(res.body)).not.toContain(cursor);
    // On `call`: deliberately malformed queries, kept as the raw strings the list names.
    for (const query of ["limit=201", "limit=0", "before=no-es-un-id"]) {
      const bad = await call("GET", `/api/v1/tracking/conversions?${query}`, {
        token: owner.token,
      });
      expect(bad.status, query).toBe(400);
    }
  });

  it("lists a conversion stored before custom_data was bounded without its custom_data", async () => {
    const owner = await createOwner();
    await orgSql(
      owner.organization.id,
      "INSERT INTO conversions (id, organization_id, event_name, event_id, event_time, custom_data, created_at) VALUES (?, ?, 'lead', ?, ?, ?, ?)",
      crypto.randomUUID(),
      owner.organization.id,
      crypto.randomUUID(),
      new Date().toISOString(),
      JSON.stringify({ nota: "x".repeat(500_000) }),
      new Date().toISOString(),
    );
    const res = await answer(api(owner.token).tracking.conversions.$get({ query: {} }));
    expect(res.status).toBe(200);
    expect(res.body.data.conversions[0]).toMatchObject({ event_name: "lead", custom_data: null });
  });
});
