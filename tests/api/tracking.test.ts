import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createOwner } from "../support/factories";
import { call } from "../support/http";

const session = (tracking_params: Record<string, string>) => ({
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
      const res = await call("POST", "/api/v1/tracking/sessions", {
        token: owner.token,
        body: session({ [key]: "abc123", utm_medium: "cpc" }),
      });
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
      const res = await call("POST", "/api/v1/tracking/sessions", {
        token: owner.token,
        body: session(params),
      });
      expect(res.status).toBe(422);
      expect(res.body.details[0].path).toBe("tracking_params");
    }
    const n = await env.DB.prepare(
      "SELECT count(*) AS n FROM tracking_sessions WHERE organization_id = ?",
    )
      .bind(owner.organization.id)
      .first<{ n: number }>();
    expect(n!.n).toBe(0);
  });

  it("accept a business's public key with CORS, and refuse an unknown key", async () => {
    const owner = await createOwner();
    const key = owner.organization.tracking_key;
    const preflight = await call("OPTIONS", "/api/v1/tracking/sessions", {
      headers: { Origin: "https://clinica.example", "Access-Control-Request-Method": "POST" },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get("Access-Control-Allow-Origin")).toBe("*");
    expect(preflight.headers.get("Access-Control-Allow-Headers")).toContain("X-Tracking-Key");

    const created = await call("POST", "/api/v1/tracking/sessions", {
      headers: { "X-Tracking-Key": key, Origin: "https://clinica.example" },
      body: session({ fbclid: "IwAR123" }),
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("Access-Control-Allow-Origin")).toBe("*");

    const linked = await call("PATCH", `/api/v1/tracking/sessions/${created.body.data.id}`, {
      headers: { "X-Tracking-Key": key },
      body: { phone_number: "+34 600 11 22 33" },
    });
    expect(linked.body.data.phone_number).toBe("34600112233");

    const bad = await call("POST", "/api/v1/tracking/sessions", {
      headers: { "X-Tracking-Key": "no-existe" },
      body: session({ fbclid: "x" }),
    });
    expect(bad.status).toBe(401);
    const none = await call("POST", "/api/v1/tracking/sessions", {
      body: session({ fbclid: "x" }),
    });
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
      last = (await call("GET", `/api/v1/tracking/sessions/${crypto.randomUUID()}`, { headers }))
        .status;
    }
    expect(last).toBe(429);
  });

  it("of another organization are 404, by token and by key", async () => {
    const a = await createOwner();
    const b = await createOwner();
    const created = await call("POST", "/api/v1/tracking/sessions", {
      token: b.token,
      body: session({ ref: "x" }),
    });
    const id = created.body.data.id;
    expect((await call("GET", `/api/v1/tracking/sessions/${id}`, { token: a.token })).status).toBe(
      404,
    );
    const byKey = await call("PATCH", `/api/v1/tracking/sessions/${id}`, {
      headers: { "X-Tracking-Key": a.organization.tracking_key },
      body: { phone_number: "34600000001" },
    });
    expect(byKey.status).toBe(404);
    const still = await call("GET", `/api/v1/tracking/sessions/${id}`, { token: b.token });
    expect(still.body.data.phone_number).toBeNull();
  });
});

describe("conversions and stats", () => {
  async function seedAt(
    owner: Awaited<ReturnType<typeof createOwner>>,
    at: string,
    params: Record<string, string>,
    conversion?: { event: string; value?: number },
  ) {
    const s = await call("POST", "/api/v1/tracking/sessions", {
      token: owner.token,
      body: session(params),
    });
    await env.DB.prepare("UPDATE tracking_sessions SET created_at = ? WHERE id = ?")
      .bind(at, s.body.data.id)
      .run();
    if (conversion) {
      const c = await call("POST", "/api/v1/tracking/conversions", {
        token: owner.token,
        body: {
          event_name: conversion.event,
          tracking_session_id: s.body.data.id,
          conversion_value: conversion.value,
        },
      });
      expect(c.status).toBe(201);
      await env.DB.prepare("UPDATE conversions SET event_time = ? WHERE id = ?")
        .bind(at, c.body.data.id)
        .run();
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

    const res = await call(
      "GET",
      "/api/v1/tracking/stats?date_from=2026-11-01&date_to=2026-11-10",
      { token: owner.token },
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      total_sessions: 4,
      total_conversions: 3,
      conversion_rate: 0.75,
      total_value: 170.5,
      by_source: { facebook: 2, google: 1 },
      by_campaign: { "Black Friday": 2 },
    });

    const leads = await call(
      "GET",
      "/api/v1/tracking/conversions?date_from=2026-11-01&date_to=2026-11-10&event_name=lead",
      {
        token: owner.token,
      },
    );
    expect(leads.body.data.map((c: { event_time: string }) => c.event_time)).toEqual([
      "2026-11-10T23:59:59.999Z",
      "2026-11-01T00:00:00.000Z",
    ]);
  });

  it("gives a 0 rate, not NaN, for a range without sessions", async () => {
    const owner = await createOwner();
    const res = await call(
      "GET",
      "/api/v1/tracking/stats?date_from=2020-01-01&date_to=2020-01-02",
      { token: owner.token },
    );
    expect(res.body.data).toEqual({
      total_sessions: 0,
      total_conversions: 0,
      conversion_rate: 0,
      total_value: 0,
      by_source: {},
      by_campaign: {},
    });
  });

  it.each([
    "date_from=2026-13-01",
    "date_from=ayer",
    "date_from=2026-11-10&date_to=2026-11-01",
    "event_name=venta",
  ])("refuses a bad range (%s) with 400", async (query) => {
    const owner = await createOwner();
    const res = await call("GET", `/api/v1/tracking/stats?${query}`, { token: owner.token });
    expect(res.status).toBe(400);
  });

  it("refuses an unknown event and a negative value with 422", async () => {
    const owner = await createOwner();
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
