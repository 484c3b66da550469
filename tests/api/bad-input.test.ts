// Hand-built requests here are the subject: malformed JSON, wrong types and oversized bodies.
// Every route that reads input, fed what a careless or hostile client sends: malformed JSON,
// wrong types, oversized strings and bodies, unknown enum values, bad paging and unicode edge
// cases. Each is answered 400/413/422 with the error envelope (never 500), and nothing is stored.
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { connectWhatsapp, openWindow } from "../support/db";
import {
  createAgent,
  createConversation,
  createOwner,
  organizationFields,
  randomIp,
} from "../support/factories";
import { call, type ApiResponse } from "../support/http";
import { orgFirst } from "../support/org-data";

type Owner = Awaited<ReturnType<typeof createOwner>>;

interface Fixture {
  owner: Owner;
  agentId: string;
  conversationId: string;
  quickReplyId: string;
  sessionId: string;
}

interface JsonRoute {
  name: string;
  method: "POST" | "PATCH" | "DELETE";
  path: (f: Fixture) => string;
  /** A body the route accepts; every test breaks it in one way. */
  body: Record<string, unknown>;
  /** Public routes are called without the owner's token. */
  anonymous?: boolean;
}

const ROUTES: JsonRoute[] = [
  {
    name: "register",
    method: "POST",
    path: () => "/api/v1/auth/register",
    body: { email: "nueva@example.com", password: "secreto123", full_name: "Ana" },
    anonymous: true,
  },
  {
    name: "login",
    method: "POST",
    path: () => "/api/v1/auth/login",
    body: { email: "nadie@example.com", password: "secreto123" },
    anonymous: true,
  },
  { name: "profile", method: "PATCH", path: () => "/api/v1/profiles/me", body: { full_name: "A" } },
  {
    name: "account deletion",
    method: "DELETE",
    path: () => "/api/v1/profiles/me",
    body: { password: "otra-clave" },
  },
  {
    name: "organization create",
    method: "POST",
    path: () => "/api/v1/organizations",
    body: organizationFields,
  },
  {
    name: "organization update",
    method: "PATCH",
    path: (f) => `/api/v1/organizations/${f.owner.organization.id}`,
    body: { name: "Otra", city: "Bilbao" },
  },
  {
    name: "invitation",
    method: "POST",
    path: () => "/api/v1/organizations/invitations",
    body: { email: "invitada@example.com", role: "agent" },
  },
  {
    name: "invitation accept",
    method: "POST",
    path: () => "/api/v1/organizations/invitations/accept",
    body: { token: "x".repeat(40) },
  },
  {
    name: "role change",
    method: "PATCH",
    path: (f) => `/api/v1/organizations/members/${f.owner.user.id}`,
    body: { role: "admin" },
  },
  {
    name: "agent create",
    method: "POST",
    path: () => "/api/v1/agents",
    body: { name: "Sofía", system_prompt: "Eres Sofía.", model: "google/gemini-2.5-flash" },
  },
  {
    name: "agent update",
    method: "PATCH",
    path: (f) => `/api/v1/agents/${f.agentId}`,
    body: { name: "Sofía", temperature: 0.5, is_active: true },
  },
  {
    name: "agent whatsapp",
    method: "PATCH",
    path: (f) => `/api/v1/agents/${f.agentId}/whatsapp`,
    body: { status: "connected", qr: null },
  },
  {
    name: "agent test",
    method: "POST",
    path: (f) => `/api/v1/agents/${f.agentId}/test`,
    body: { messages: [{ role: "user", content: "Hola" }] },
  },
  {
    name: "conversation create",
    method: "POST",
    path: () => "/api/v1/conversations",
    body: { phone_number: "34600123456", contact_name: "Luis", priority: "high" },
  },
  {
    name: "conversation update",
    method: "PATCH",
    path: (f) => `/api/v1/conversations/${f.conversationId}`,
    body: { status: "closed", priority: "low", contact_name: "Luis" },
  },
  {
    name: "conversation assign",
    method: "PATCH",
    path: (f) => `/api/v1/conversations/${f.conversationId}/assign`,
    body: { agent_id: "no-existe" },
  },
  {
    name: "message send",
    method: "POST",
    path: () => "/api/v1/conversations/messages",
    body: { conversation_id: "c", content: "Hola" },
  },
  {
    name: "quick reply create",
    method: "POST",
    path: () => "/api/v1/quick-replies",
    body: { shortcut: "precio", content: "Desde 30 €" },
  },
  {
    name: "quick reply update",
    method: "PATCH",
    path: (f) => `/api/v1/quick-replies/${f.quickReplyId}`,
    body: { shortcut: "horario", content: "L-V" },
  },
  {
    name: "whatsapp config",
    method: "POST",
    path: () => "/api/v1/whatsapp-config",
    body: { phone_number_id: "1", business_account_id: "2", access_token: "t" },
  },
  {
    name: "meta config",
    method: "POST",
    path: () => "/api/v1/meta-config",
    body: { pixel_id: "123456", access_token: "t" },
  },
  {
    name: "oauth exchange",
    method: "POST",
    path: () => "/api/v1/whatsapp/oauth/exchange",
    body: { code: "codigo", waba_id: "1" },
  },
  {
    name: "tracking session",
    method: "POST",
    path: () => "/api/v1/tracking/sessions",
    body: { tracking_params: { fbclid: "x" }, landing_page: "https://a.example/" },
  },
  {
    name: "tracking session phone",
    method: "PATCH",
    path: (f) => `/api/v1/tracking/sessions/${f.sessionId}`,
    body: { phone_number: "34600123456" },
  },
  {
    name: "conversion",
    method: "POST",
    path: () => "/api/v1/tracking/conversions",
    body: { event_name: "lead", conversion_value: 10, currency: "EUR" },
  },
  {
    name: "facebook conversions",
    method: "POST",
    path: () => "/api/v1/tracking/facebook-conversions",
    body: { pixel_id: "123456", access_token: "t", events: [] },
  },
];

/** Rows in every table a client can write to: nothing may change on refused input. */
async function fingerprint() {
  const globalTables = [
    "users",
    "organizations",
    "memberships",
    "invitations",
    "whatsapp_connections",
    "meta_connections",
  ];
  const organizationTables = [
    "agents",
    "conversations",
    "messages",
    "quick_replies",
    "tracking_sessions",
    "conversions",
  ];
  const counts: Record<string, number> = {};
  for (const table of globalTables) {
    const row = await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>();
    counts[table] = row!.n;
  }
  // The fixture's organization is the only one a request of these tests can write to.
  for (const table of organizationTables) {
    const sql = `SELECT count(*) AS n FROM ${table}`;
    counts[table] = (await orgFirst<{ n: number }>(fixture.owner.organization.id, sql))!.n;
  }
  return counts;
}

function send(
  f: Fixture,
  route: JsonRoute,
  init: { rawBody?: string; body?: unknown; type?: string },
) {
  return call(route.method, route.path(f), {
    token: route.anonymous ? undefined : f.owner.token,
    rawBody: init.rawBody,
    body: init.body,
    headers: { "Content-Type": init.type ?? "application/json", "CF-Connecting-IP": randomIp() },
  });
}

function expectRefused(response: ApiResponse<any>, statuses: number[], what: string) {
  expect(statuses, `${what} → ${response.status} ${JSON.stringify(response.body)}`).toContain(
    response.status,
  );
  expect(typeof response.body.error, what).toBe("string");
  expect(typeof response.body.message, what).toBe("string");
}

/** A value of another JSON type than the one given. */
const wrongType = (value: unknown) =>
  typeof value === "string"
    ? 12345
    : typeof value === "number"
      ? "mucho"
      : typeof value === "boolean"
        ? "sí"
        : 7;

let fixture: Fixture;

beforeAll(async () => {
  const owner = await createOwner();
  await connectWhatsapp(owner.organization.id);
  const agent = await createAgent(owner);
  const conversation = await createConversation(owner);
  await openWindow(owner.organization.id, conversation.id);
  const reply = await call("POST", "/api/v1/quick-replies", {
    token: owner.token,
    body: { shortcut: "hola", content: "Hola, ¿en qué te ayudo?" },
  });
  const session = await call("POST", "/api/v1/tracking/sessions", {
    token: owner.token,
    body: { tracking_params: { utm_source: "google" } },
  });
  fixture = {
    owner,
    agentId: agent.id,
    conversationId: conversation.id,
    quickReplyId: reply.body.data.id,
    sessionId: session.body.data.id,
  };
});

describe.each(ROUTES)("$method $name", (route) => {
  it("refuses malformed JSON, another content type, and bodies that are not objects", async () => {
    const before = await fingerprint();
    expectRefused(await send(fixture, route, { rawBody: '{"a": ' }), [400], "malformed JSON");
    expectRefused(
      await send(fixture, route, { rawBody: JSON.stringify(route.body), type: "text/plain" }),
      [400],
      "text/plain",
    );
    for (const body of [[], null, "texto", 42]) {
      expectRefused(await send(fixture, route, { body }), [400, 422], JSON.stringify(body));
    }
    expect(await fingerprint()).toEqual(before);
  });

  it("refuses each field with a wrong type, too long or an unknown value", async () => {
    const before = await fingerprint();
    for (const [field, value] of Object.entries(route.body)) {
      if (value === null) continue;
      expectRefused(
        await send(fixture, route, { body: { ...route.body, [field]: wrongType(value) } }),
        [422],
        `${field} with a wrong type`,
      );
      if (typeof value === "string") {
        expectRefused(
          await send(fixture, route, { body: { ...route.body, [field]: "x".repeat(100_000) } }),
          [422],
          `${field} of 100,000 characters`,
        );
      }
    }
    expect(await fingerprint()).toEqual(before);
  });

  it("refuses a body over 1 MB with 413", async () => {
    const before = await fingerprint();
    const huge = { ...route.body, padding: "x".repeat(1024 * 1024 + 1) };
    expectRefused(await send(fixture, route, { body: huge }), [413], "1 MB body");
    expect(await fingerprint()).toEqual(before);
  });

  it("never fails on unicode edge cases", async () => {
    const edgeCases = ["\ud800", "a\u0000b", "\u202etxt.exe", "👩‍👩‍👧‍👦", "e\u0301", "\uFEFF"];
    for (const [field, value] of Object.entries(route.body)) {
      if (typeof value !== "string") continue;
      for (const text of edgeCases) {
        const response = await send(fixture, route, { body: { ...route.body, [field]: text } });
        expect(response.status, `${field} = ${JSON.stringify(text)}`).toBeLessThan(500);
      }
    }
  });
});

describe("query strings", () => {
  it.each([
    "/api/v1/conversations?limit=-1",
    "/api/v1/conversations?limit=1000000000000",
    "/api/v1/conversations?page=0",
    "/api/v1/conversations?page=abc",
    "/api/v1/conversations?status=archivada",
    "/api/v1/conversations?priority=maxima",
    "/api/v1/conversations?unassigned=quizas",
    `/api/v1/conversations/search?q=${"x".repeat(1000)}`,
    "/api/v1/tracking/conversions?date_from=2026-13-45",
    "/api/v1/tracking/conversions?event_name=compra_gigante",
    "/api/v1/tracking/conversions?date_from=2026-05-10&date_to=2026-05-01",
    "/api/v1/tracking/stats?date_to=ayer",
    "/api/v1/organizations/audit-log?limit=0",
    "/api/v1/organizations/audit-log?limit=51",
    "/api/v1/organizations/audit-log?before=no-es-un-id",
  ])("%s is a 400 naming the parameter", async (path) => {
    const response = await call("GET", path, { token: fixture.owner.token });
    expectRefused(response, [400], path);
    expect(response.body.details?.length).toBeGreaterThan(0);
  });

  it("pages of messages refuse negative and huge limits", async () => {
    for (const query of ["limit=-5", "limit=99999", "limit=abc", "before="]) {
      const response = await call(
        "GET",
        `/api/v1/conversations/${fixture.conversationId}/messages?${query}`,
        { token: fixture.owner.token },
      );
      expectRefused(response, [400, 404], query);
    }
  });

  it("ids that are not ours, however odd, are 404", async () => {
    for (const id of ["%00", "'%20OR%201=1", "a".repeat(300), "..%2F..%2Fetc"]) {
      const response = await call("GET", `/api/v1/conversations/${id}`, {
        token: fixture.owner.token,
      });
      expectRefused(response, [400, 404], id);
    }
  });
});
