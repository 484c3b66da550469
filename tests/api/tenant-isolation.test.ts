// Two organizations, each with one of everything. For every route that takes an id, the
// other organization reaches only its own: 404, and the owner's data unchanged. Lists,
// stats and exports never show the other's rows.
import { beforeAll, describe, expect, it } from "vitest";
import { delivery, inboundMessage, wamid } from "../fakes/whatsapp-payloads.mjs";
import { connectWhatsapp } from "../support/db";
import { createAgent, createOwner, registerUser } from "../support/factories";
import { call } from "../support/http";
import { orgFirst, orgSql } from "../support/org-data";
import { deliver } from "../support/webhooks";

type Owner = Awaited<ReturnType<typeof createOwner>>;

interface Tenant {
  owner: Owner;
  agentId: string;
  conversationId: string;
  messageId: string;
  phone: string;
  quickReplyId: string;
  sessionId: string;
  invitationId: string;
  memberUserId: string;
  broadcastId: string;
  followUpId: string;
  serviceId: string;
  bookingId: string;
}

/** An organization with an agent, a WhatsApp conversation with an image, a quick reply, a
 * tracking session and conversion, a pending invitation, a second member and a broadcast. */
async function tenant(label: string): Promise<Tenant> {
  const owner = await createOwner({ name: `Clínica ${label}` });
  const connection = await connectWhatsapp(owner.organization.id);
  const agent = await createAgent(owner, { name: `Agente ${label}` });
  const phone = `3469${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;
  await deliver(
    delivery(
      inboundMessage({
        phoneNumberId: connection.phoneNumberId,
        from: phone,
        name: `Cliente ${label}`,
        id: wamid(),
        type: "image",
        part: { id: "5566778899", mime_type: "image/png", caption: `Foto de ${label}` },
      }),
    ),
  );
  const list = await call("GET", "/api/v1/conversations", { token: owner.token });
  const conversationId = list.body.data.conversations[0].id;
  const page = await call("GET", `/api/v1/conversations/${conversationId}/messages`, {
    token: owner.token,
  });
  const reply = await call("POST", "/api/v1/quick-replies", {
    token: owner.token,
    body: { shortcut: `hola-${label.toLowerCase()}`, content: `Hola de ${label}` },
  });
  const session = await call("POST", "/api/v1/tracking/sessions", {
    token: owner.token,
    body: { tracking_params: { utm_source: `fuente-${label}`, utm_campaign: `campana-${label}` } },
  });
  await call("POST", "/api/v1/tracking/conversions", {
    token: owner.token,
    body: { event_name: "lead", tracking_session_id: session.body.data.id, conversion_value: 10 },
  });
  const invitation = await call("POST", "/api/v1/organizations/invitations", {
    token: owner.token,
    body: { email: `invitado-${label.toLowerCase()}-${Date.now()}@example.com`, role: "agent" },
  });
  const member = await registerUser();
  const second = await call("POST", "/api/v1/organizations/invitations", {
    token: owner.token,
    body: { email: member.email, role: "agent" },
  });
  const joined = await call("POST", "/api/v1/organizations/invitations/accept", {
    token: member.token,
    body: { token: new URL(second.body.data.url).searchParams.get("invitation") },
  });
  expect(joined.status).toBe(200);
  await orgSql(
    owner.organization.id,
    `INSERT INTO whatsapp_templates (id, organization_id, name, language, category, status,
       components, updated_at)
     VALUES (?, ?, 'promo', 'es', 'MARKETING', 'APPROVED', '[{"type":"BODY","text":"Hola"}]', ?)`,
    crypto.randomUUID(),
    owner.organization.id,
    new Date().toISOString(),
  );
  const broadcast = await call("POST", "/api/v1/broadcasts", {
    token: owner.token,
    body: { name: `Difusión ${label}`, template: { name: "promo", language: "es" } },
  });
  expect(broadcast.status).toBe(201);
  const followUp = await call("POST", "/api/v1/follow-ups", {
    token: owner.token,
    body: { name: `Seguimiento ${label}`, trigger: { no_reply_minutes: 60 }, text: "¿Seguimos?" },
  });
  expect(followUp.status).toBe(201);
  const hours = await call("PATCH", `/api/v1/organizations/${owner.organization.id}`, {
    token: owner.token,
    body: {
      business_hours: {
        time_zone: "Europe/Madrid",
        week: { tue: [["09:00", "14:00"]] },
        closed_dates: [],
      },
    },
  });
  expect(hours.status).toBe(200);
  const service = await call("POST", "/api/v1/services", {
    token: owner.token,
    // Paid ahead: held, so that it records no lead beside the tracking's conversion.
    body: { name: `Servicio ${label}`, duration_minutes: 30, price: "30", payment: "full" },
  });
  expect(service.status).toBe(201);
  const booking = await call("POST", "/api/v1/bookings", {
    token: owner.token,
    body: {
      service_id: service.body.data.id,
      conversation_id: conversationId,
      start: "2031-01-07T08:00:00Z",
    },
  });
  expect(booking.status).toBe(201);
  const payments = await call("PUT", "/api/v1/integrations/payments", {
    token: owner.token,
    body: { provider: "stripe", secret: `sk_test_${label}`, webhook_secret: `whsec_${label}` },
  });
  expect(payments.status).toBe(200);
  return {
    owner,
    agentId: agent.id,
    conversationId,
    messageId: page.body.data.messages[0].id,
    phone,
    quickReplyId: reply.body.data.id,
    sessionId: session.body.data.id,
    invitationId: invitation.body.data.id,
    memberUserId: member.user.id,
    broadcastId: broadcast.body.data.id,
    followUpId: followUp.body.data.id,
    serviceId: service.body.data.id,
    bookingId: booking.body.data.id,
  };
}

let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  [a, b] = await Promise.all([tenant("A"), tenant("B")]);
});

/** Every route with an id of A's, as B would call it. */
const ROUTES_WITH_IDS: [string, string, (t: Tenant) => string, unknown?][] = [
  ["GET", "agent", (t) => `/api/v1/agents/${t.agentId}`],
  ["PATCH", "agent", (t) => `/api/v1/agents/${t.agentId}`, { name: "Robado" }],
  ["PATCH", "agent whatsapp", (t) => `/api/v1/agents/${t.agentId}/whatsapp`, { status: "error" }],
  [
    "POST",
    "agent test",
    (t) => `/api/v1/agents/${t.agentId}/test`,
    {
      messages: [{ role: "user", content: "Hola" }],
    },
  ],
  ["GET", "agent conversations", (t) => `/api/v1/agents/${t.agentId}/conversations`],
  ["DELETE", "agent", (t) => `/api/v1/agents/${t.agentId}`],
  ["GET", "conversation", (t) => `/api/v1/conversations/${t.conversationId}`],
  ["GET", "legacy conversation", (t) => `/api/v1/whatsapp/conversations/${t.conversationId}`],
  [
    "PATCH",
    "conversation",
    (t) => `/api/v1/conversations/${t.conversationId}`,
    {
      status: "closed",
    },
  ],
  [
    "PATCH",
    "assign",
    (t) => `/api/v1/conversations/${t.conversationId}/assign`,
    {
      agent_id: "x",
    },
  ],
  ["PATCH", "unassign", (t) => `/api/v1/conversations/${t.conversationId}/unassign`],
  ["PATCH", "read", (t) => `/api/v1/conversations/${t.conversationId}/read`],
  ["GET", "messages", (t) => `/api/v1/conversations/${t.conversationId}/messages`],
  ["GET", "legacy messages", (t) => `/api/v1/whatsapp/messages/${t.conversationId}`],
  [
    "GET",
    "media",
    (t) => `/api/v1/conversations/${t.conversationId}/messages/${t.messageId}/media`,
  ],
  [
    "POST",
    "reaction",
    (t) => `/api/v1/conversations/${t.conversationId}/messages/${t.messageId}/reaction`,
    { emoji: "👍" },
  ],
  ["POST", "send message", () => "/api/v1/conversations/messages", undefined],
  ["PATCH", "quick reply", (t) => `/api/v1/quick-replies/${t.quickReplyId}`, { content: "x" }],
  ["DELETE", "quick reply", (t) => `/api/v1/quick-replies/${t.quickReplyId}`],
  ["GET", "tracking session", (t) => `/api/v1/tracking/sessions/${t.sessionId}`],
  [
    "PATCH",
    "tracking session",
    (t) => `/api/v1/tracking/sessions/${t.sessionId}`,
    {
      phone_number: "34600999999",
    },
  ],
  ["POST", "conversion with a session", () => "/api/v1/tracking/conversions", undefined],
  ["DELETE", "invitation", (t) => `/api/v1/organizations/invitations/${t.invitationId}`],
  [
    "PATCH",
    "member role",
    (t) => `/api/v1/organizations/members/${t.memberUserId}`,
    {
      role: "admin",
    },
  ],
  ["DELETE", "member", (t) => `/api/v1/organizations/members/${t.memberUserId}`],
  ["GET", "broadcast", (t) => `/api/v1/broadcasts/${t.broadcastId}`],
  ["PATCH", "broadcast", (t) => `/api/v1/broadcasts/${t.broadcastId}`, { name: "Robada" }],
  ["POST", "broadcast preview", (t) => `/api/v1/broadcasts/${t.broadcastId}/preview`],
  ["GET", "broadcast recipients", (t) => `/api/v1/broadcasts/${t.broadcastId}/recipients`],
  ["POST", "broadcast send", (t) => `/api/v1/broadcasts/${t.broadcastId}/send`],
  ["POST", "broadcast pause", (t) => `/api/v1/broadcasts/${t.broadcastId}/pause`],
  ["POST", "broadcast resume", (t) => `/api/v1/broadcasts/${t.broadcastId}/resume`],
  ["POST", "broadcast cancel", (t) => `/api/v1/broadcasts/${t.broadcastId}/cancel`],
  ["DELETE", "broadcast", (t) => `/api/v1/broadcasts/${t.broadcastId}`],
  ["GET", "follow-up", (t) => `/api/v1/follow-ups/${t.followUpId}`],
  ["PATCH", "follow-up", (t) => `/api/v1/follow-ups/${t.followUpId}`, { enabled: false }],
  ["DELETE", "follow-up", (t) => `/api/v1/follow-ups/${t.followUpId}`],
  ["GET", "service", (t) => `/api/v1/services/${t.serviceId}`],
  ["PATCH", "service", (t) => `/api/v1/services/${t.serviceId}`, { name: "Robado" }],
  ["DELETE", "service", (t) => `/api/v1/services/${t.serviceId}`],
  [
    "GET",
    "availability",
    (t) => `/api/v1/bookings/availability?service_id=${t.serviceId}&from=2031-01-07&to=2031-01-07`,
  ],
  ["POST", "booking", () => "/api/v1/bookings", undefined],
  ["PATCH", "booking", (t) => `/api/v1/bookings/${t.bookingId}`, { status: "cancelled" }],
  ["GET", "payments", (t) => `/api/v1/conversations/${t.conversationId}/payments`],
  [
    "POST",
    "payment link",
    (t) => `/api/v1/conversations/${t.conversationId}/payment-links`,
    { amount: "10", currency: "EUR", description: "Robado" },
  ],
  ["POST", "booking flow", (t) => `/api/v1/conversations/${t.conversationId}/booking-flow`, {}],
];

describe("routes with an id of another organization", () => {
  it.each(ROUTES_WITH_IDS)("%s %s is 404", async (method, name, path, body) => {
    // Three routes carry the id in the body rather than the path.
    const payload =
      name === "send message"
        ? { conversation_id: a.conversationId, content: "Hola" }
        : name === "conversion with a session"
          ? { event_name: "lead", tracking_session_id: a.sessionId }
          : method === "POST" && name === "booking"
            ? {
                service_id: a.serviceId,
                conversation_id: a.conversationId,
                start: "2031-01-07T09:00:00Z",
              }
            : body;
    const response = await call(method, path(a), { token: b.owner.token, body: payload });
    expect(response.status, JSON.stringify(response.body)).toBe(404);
    expect(response.body.error).toBe("not_found");
  });

  it("left A's data as it was", async () => {
    const token = a.owner.token;
    const agent = await call("GET", `/api/v1/agents/${a.agentId}`, { token });
    expect(agent.body.data).toMatchObject({ name: "Agente A", whatsapp_status: "disconnected" });
    const conversation = await call("GET", `/api/v1/conversations/${a.conversationId}`, { token });
    expect(conversation.body.data.status).not.toBe("closed");
    expect(conversation.body.data.unread_count).toBe(1);
    const messages = await call("GET", `/api/v1/conversations/${a.conversationId}/messages`, {
      token,
    });
    // The customer's image, and the booking's line in the thread.
    expect(messages.body.data.messages.map((m: any) => m.type)).toEqual(["image", "note"]);
    expect(messages.body.data.messages[0].reactions).toEqual([]);
    const session = await call("GET", `/api/v1/tracking/sessions/${a.sessionId}`, { token });
    expect(session.body.data.phone_number).toBeNull();
    const members = await call("GET", "/api/v1/organizations/members", { token });
    expect(members.body.data.map((m: any) => m.user_id)).toContain(a.memberUserId);
    const invitations = await call("GET", "/api/v1/organizations/invitations", { token });
    expect(invitations.body.data.map((i: any) => i.id)).toContain(a.invitationId);
    const replies = await call("GET", "/api/v1/quick-replies", { token });
    expect(replies.body.data.map((r: any) => r.id)).toContain(a.quickReplyId);
    const broadcast = await call("GET", `/api/v1/broadcasts/${a.broadcastId}`, { token });
    expect(broadcast.body.data).toMatchObject({ name: "Difusión A", status: "draft" });
    const followUp = await call("GET", `/api/v1/follow-ups/${a.followUpId}`, { token });
    expect(followUp.body.data).toMatchObject({ name: "Seguimiento A", enabled: true });
    const service = await call("GET", `/api/v1/services/${a.serviceId}`, { token });
    expect(service.body.data).toMatchObject({ name: "Servicio A" });
    const bookings = await call("GET", "/api/v1/bookings", { token });
    expect(bookings.body.data.bookings).toMatchObject([
      { id: a.bookingId, status: "pending_payment" },
    ]);
  });
});

describe("lists, stats and exports", () => {
  it("show each organization only its own rows", async () => {
    const token = b.owner.token;
    const lists = await Promise.all([
      call("GET", "/api/v1/conversations", { token }),
      call("GET", `/api/v1/conversations/search?q=${a.phone}`, { token }),
      call("GET", "/api/v1/agents", { token }),
      call("GET", "/api/v1/quick-replies", { token }),
      call("GET", "/api/v1/tracking/conversions", { token }),
      call("GET", "/api/v1/organizations/members", { token }),
      call("GET", "/api/v1/organizations/invitations", { token }),
      call("GET", "/api/v1/broadcasts", { token }),
      call("GET", "/api/v1/follow-ups", { token }),
      call("GET", "/api/v1/services", { token }),
      call("GET", "/api/v1/bookings", { token }),
      call("GET", "/api/v1/integrations/payments", { token }),
    ]);
    const text = JSON.stringify(lists.map((r) => r.body));
    const idsOfA = [a.conversationId, a.agentId, a.quickReplyId, a.sessionId, a.phone];
    for (const idOfA of [...idsOfA, a.broadcastId, a.followUpId, a.serviceId, a.bookingId]) {
      expect(text).not.toContain(idOfA);
    }
    expect(text).not.toContain("Cliente A");
    expect(text).not.toContain(a.owner.organization.id);
    expect(lists.at(-1)!.body.data).toMatchObject({ provider: "stripe" });
    expect(lists[1]!.body.data.total).toBe(0);

    const stats = await call("GET", "/api/v1/conversations/stats", { token });
    expect(stats.body.data).toMatchObject({ total: 1, unread: 1 });
    const tracking = await call("GET", "/api/v1/tracking/stats", { token });
    expect(tracking.body.data).toMatchObject({
      total_sessions: 1,
      total_conversions: 1,
      total_value: 10,
      by_source: { "fuente-b": 1 },
      by_campaign: { "campana-B": 1 },
    });
  });

  it("keep each organization's marketing limits and what they used to itself", async () => {
    const patch = (token: string, id: string, body: unknown) =>
      call("PATCH", `/api/v1/organizations/${id}`, { token, body });
    const budget = { monthly_sends: 777, currency: "EUR" };
    const aId = a.owner.organization.id;
    expect((await patch(a.owner.token, aId, { marketing_budget: budget })).status).toBe(200);
    // B can neither change A's limits nor read them, in its organization or its allowance.
    const stolen = await patch(b.owner.token, aId, { marketing_budget: null });
    expect(stolen.status).toBe(404);
    const seen = await Promise.all([
      call("GET", "/api/v1/organizations/me", { token: b.owner.token }),
      call("GET", "/api/v1/broadcasts/allowance", { token: b.owner.token }),
    ]);
    expect(seen[0]!.body.data.marketing_budget).toBeNull();
    expect(seen[1]!.body.data.budget).toBeNull();
    const own = await call("GET", "/api/v1/broadcasts/allowance", { token: a.owner.token });
    expect(own.body.data.budget).toMatchObject({ monthly_sends: 777, sends_used: 0 });
  });

  it("exports only the caller's organization", async () => {
    const exported = await call("GET", "/api/v1/profiles/me/export", { token: b.owner.token });
    expect(exported.status).toBe(200);
    const text = JSON.stringify(exported.body);
    expect(text).toContain("Cliente B");
    expect(text).toContain(b.phone);
    expect(text).not.toContain("Cliente A");
    expect(text).not.toContain(a.phone);
    expect(text).not.toContain(a.owner.email);
  });

  it("keeps the rows of both in the database", async () => {
    // Each in its own organization's data, which holds nothing of the other.
    const rows = await Promise.all(
      [a, b].map(({ owner }) =>
        orgFirst<{ n: number }>(
          owner.organization.id,
          "SELECT count(*) AS n FROM conversations WHERE organization_id IN (?, ?)",
          a.owner.organization.id,
          b.owner.organization.id,
        ),
      ),
    );
    expect(rows.map((row) => row!.n)).toEqual([1, 1]);
  });
});
