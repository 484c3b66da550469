// Two organizations, each with one of everything. For every route that takes an id, the
// other organization reaches only its own: 404, and the owner's data unchanged. Lists,
// stats and exports never show the other's rows.
import { hc } from "hono/client";
import { beforeAll, describe, expect, it } from "vitest";
import type { ApiRoutes } from "../../worker/api";
import { API_BASE } from "../../worker/http/api-base";
import {
  organizationRouteHandlers,
  organizationRouteMatch,
  type OrganizationRouteHandler,
} from "../../worker/stores/organization-route-table";
import { delivery, inboundMessage, wamid } from "../fakes/whatsapp-payloads.mjs";
import { connectWhatsapp } from "../support/db";
import { createAgent, createOwner, registerUser } from "../support/factories";
import { answer, api, personalExport } from "../support/api";
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
  knowledgeId: string;
  labelId: string;
  mentionId: string;
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
  const client = api(owner.token);
  const list = await answer(client.conversations.$get({ query: {} }));
  const conversationId = list.body.data.conversations[0]!.id;
  const page = await answer(
    client.conversations[":id"].messages.$get({ param: { id: conversationId }, query: {} }),
  );
  const reply = await answer(
    client["quick-replies"].$post({
      json: { shortcut: `hola-${label.toLowerCase()}`, content: `Hola de ${label}` },
    }),
  );
  const session = await answer(
    client.tracking.sessions.$post({
      json: {
        tracking_params: { utm_source: `fuente-${label}`, utm_campaign: `campana-${label}` },
      },
    }),
  );
  await client.tracking.conversions.$post({
    json: { event_name: "lead", tracking_session_id: session.body.data.id, conversion_value: 10 },
  });
  const invitation = await answer(
    client.organizations.invitations.$post({
      json: { email: `invitado-${label.toLowerCase()}-${Date.now()}@example.com`, role: "agent" },
    }),
  );
  const member = await registerUser({ full_name: `Marta Equipo${label}` });
  const second = await answer(
    client.organizations.invitations.$post({ json: { email: member.email, role: "agent" } }),
  );
  const joined = await answer(
    api(member.token).organizations.invitations.accept.$post({
      json: { token: new URL(second.body.data.url!).searchParams.get("invitation")! },
    }),
  );
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
  const broadcast = await answer(
    client.broadcasts.$post({
      json: { name: `Difusión ${label}`, template: { name: "promo", language: "es" } },
    }),
  );
  expect(broadcast.status).toBe(201);
  const followUp = await answer(
    client["follow-ups"].$post({
      json: { name: `Seguimiento ${label}`, trigger: { no_reply_minutes: 60 }, text: "¿Seguimos?" },
    }),
  );
  expect(followUp.status).toBe(201);
  const hours = await answer(
    client.organizations[":id"].$patch({
      param: { id: owner.organization.id },
      json: {
        business_hours: {
          time_zone: "Europe/Madrid",
          week: { tue: [["09:00", "14:00"]] },
          closed_dates: [],
        },
      },
    }),
  );
  expect(hours.status).toBe(200);
  const service = await answer(
    client.services.$post({
      // Paid ahead: held, so that it records no lead beside the tracking's conversion.
      json: { name: `Servicio ${label}`, duration_minutes: 30, price: "30", payment: "full" },
    }),
  );
  expect(service.status).toBe(201);
  const booking = await answer(
    client.bookings.$post({
      header: {},
      json: {
        service_id: service.body.data.id,
        conversation_id: conversationId,
        start: "2031-01-07T08:00:00Z",
      },
    }),
  );
  expect(booking.status).toBe(201);
  const payments = await answer(
    client.integrations.payments.$put({
      json: { provider: "stripe", secret: `sk_test_${label}`, webhook_secret: `whsec_${label}` },
    }),
  );
  expect(payments.status).toBe(200);
  const knowledge = await answer(
    client.knowledge.$post({ json: { title: `Horario ${label}`, content: "De 9 a 14." } }),
  );
  const label_ = await answer(
    client.labels.$post({ json: { name: `Etiqueta ${label}`, color: "#2563eb" } }),
  );
  const note = await answer(
    client.conversations[":id"].notes.$post({
      param: { id: conversationId },
      json: { content: `Mira esto, @marta equipo${label.toLowerCase()}` },
    }),
  );
  expect(note.body.data.note.mentions).toEqual([member.user.id]);
  const mentions = await answer(api(member.token).mentions.$get({ query: {} }));
  return {
    owner,
    agentId: agent.id,
    conversationId,
    messageId: page.body.data.messages[0]!.id,
    phone,
    quickReplyId: reply.body.data.id,
    sessionId: session.body.data.id,
    invitationId: invitation.body.data.id,
    memberUserId: member.user.id,
    broadcastId: broadcast.body.data.id,
    followUpId: followUp.body.data.id,
    serviceId: service.body.data.id,
    bookingId: booking.body.data.id,
    knowledgeId: knowledge.body.data.id,
    labelId: label_.body.data.id,
    mentionId: mentions.body.data.mentions[0]!.id,
  };
}

let a: Tenant;
let b: Tenant;

beforeAll(async () => {
  [a, b] = await Promise.all([tenant("A"), tenant("B")]);
});

type Client = ReturnType<typeof api>;

/** A 1x1 PNG, for the upload route. */
const PNG = Uint8Array.from(
  atob(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  ),
  (ch) => ch.charCodeAt(0),
);
type Sent = Promise<{ status: number; headers: Headers; json(): Promise<unknown> }>;

/** Every route with an id of A's, as B would call it (some carry the id in the body). */
const ROUTES_WITH_IDS: [string, string, (c: Client, t: Tenant) => Sent][] = [
  ["GET", "agent", (c, t) => c.agents[":id"].$get({ param: { id: t.agentId } })],
  [
    "PATCH",
    "agent",
    (c, t) => c.agents[":id"].$patch({ param: { id: t.agentId }, json: { name: "Robado" } }),
  ],
  [
    "PATCH",
    "agent whatsapp",
    (c, t) =>
      c.agents[":id"].whatsapp.$patch({ param: { id: t.agentId }, json: { status: "error" } }),
  ],
  [
    "POST",
    "agent test",
    (c, t) =>
      c.agents[":id"].test.$post({
        param: { id: t.agentId },
        json: { messages: [{ role: "user", content: "Hola" }] },
      }),
  ],
  [
    "GET",
    "agent conversations",
    (c, t) => c.agents[":id"].conversations.$get({ param: { id: t.agentId } }),
  ],
  ["DELETE", "agent", (c, t) => c.agents[":id"].$delete({ param: { id: t.agentId } })],
  [
    "GET",
    "conversation",
    (c, t) => c.conversations[":id"].$get({ param: { id: t.conversationId } }),
  ],
  [
    "GET",
    "legacy conversation",
    (c, t) => c.whatsapp.conversations[":id"].$get({ param: { id: t.conversationId } }),
  ],
  [
    "PATCH",
    "conversation",
    (c, t) =>
      c.conversations[":id"].$patch({
        param: { id: t.conversationId },
        json: { status: "closed" },
      }),
  ],
  [
    "PATCH",
    "assign",
    (c, t) =>
      c.conversations[":id"].assign.$patch({
        param: { id: t.conversationId },
        json: { agent_id: "x" },
      }),
  ],
  [
    "PATCH",
    "unassign",
    (c, t) => c.conversations[":id"].unassign.$patch({ param: { id: t.conversationId } }),
  ],
  [
    "PATCH",
    "read",
    (c, t) => c.conversations[":id"].read.$patch({ param: { id: t.conversationId } }),
  ],
  [
    "GET",
    "messages",
    (c, t) => c.conversations[":id"].messages.$get({ param: { id: t.conversationId }, query: {} }),
  ],
  [
    "GET",
    "legacy messages",
    (c, t) =>
      c.whatsapp.messages[":conversationId"].$get({
        param: { conversationId: t.conversationId },
        query: {},
      }),
  ],
  [
    "GET",
    "media",
    (c, t) =>
      c.conversations[":id"].messages[":messageId"].media.$get({
        param: { id: t.conversationId, messageId: t.messageId },
      }),
  ],
  [
    "POST",
    "reaction",
    (c, t) =>
      c.conversations[":id"].messages[":messageId"].reaction.$post({
        param: { id: t.conversationId, messageId: t.messageId },
        json: { emoji: "👍" },
      }),
  ],
  [
    "POST",
    "send message",
    (c, t) =>
      c.conversations.messages.$post({
        json: { conversation_id: t.conversationId, content: "Hola" },
      }),
  ],
  [
    "PATCH",
    "quick reply",
    (c, t) =>
      c["quick-replies"][":id"].$patch({ param: { id: t.quickReplyId }, json: { content: "x" } }),
  ],
  [
    "DELETE",
    "quick reply",
    (c, t) => c["quick-replies"][":id"].$delete({ param: { id: t.quickReplyId } }),
  ],
  [
    "GET",
    "tracking session",
    (c, t) => c.tracking.sessions[":id"].$get({ param: { id: t.sessionId } }),
  ],
  [
    "PATCH",
    "tracking session",
    (c, t) =>
      c.tracking.sessions[":id"].$patch({
        param: { id: t.sessionId },
        json: { phone_number: "34600999999" },
      }),
  ],
  [
    "POST",
    "conversion with a session",
    (c, t) =>
      c.tracking.conversions.$post({
        json: { event_name: "lead", tracking_session_id: t.sessionId },
      }),
  ],
  [
    "DELETE",
    "invitation",
    (c, t) => c.organizations.invitations[":id"].$delete({ param: { id: t.invitationId } }),
  ],
  [
    "PATCH",
    "member role",
    (c, t) =>
      c.organizations.members[":userId"].$patch({
        param: { userId: t.memberUserId },
        json: { role: "admin" },
      }),
  ],
  [
    "DELETE",
    "member",
    (c, t) => c.organizations.members[":userId"].$delete({ param: { userId: t.memberUserId } }),
  ],
  ["GET", "broadcast", (c, t) => c.broadcasts[":id"].$get({ param: { id: t.broadcastId } })],
  [
    "PATCH",
    "broadcast",
    (c, t) =>
      c.broadcasts[":id"].$patch({ param: { id: t.broadcastId }, json: { name: "Robada" } }),
  ],
  [
    "POST",
    "broadcast preview",
    (c, t) => c.broadcasts[":id"].preview.$post({ param: { id: t.broadcastId } }),
  ],
  [
    "GET",
    "broadcast recipients",
    (c, t) => c.broadcasts[":id"].recipients.$get({ param: { id: t.broadcastId }, query: {} }),
  ],
  [
    "POST",
    "broadcast send",
    (c, t) => c.broadcasts[":id"].send.$post({ param: { id: t.broadcastId }, json: {} }),
  ],
  [
    "POST",
    "broadcast pause",
    (c, t) => c.broadcasts[":id"].pause.$post({ param: { id: t.broadcastId } }),
  ],
  [
    "POST",
    "broadcast resume",
    (c, t) => c.broadcasts[":id"].resume.$post({ param: { id: t.broadcastId } }),
  ],
  [
    "POST",
    "broadcast cancel",
    (c, t) => c.broadcasts[":id"].cancel.$post({ param: { id: t.broadcastId } }),
  ],
  ["DELETE", "broadcast", (c, t) => c.broadcasts[":id"].$delete({ param: { id: t.broadcastId } })],
  ["GET", "follow-up", (c, t) => c["follow-ups"][":id"].$get({ param: { id: t.followUpId } })],
  [
    "PATCH",
    "follow-up",
    (c, t) =>
      c["follow-ups"][":id"].$patch({ param: { id: t.followUpId }, json: { enabled: false } }),
  ],
  [
    "DELETE",
    "follow-up",
    (c, t) => c["follow-ups"][":id"].$delete({ param: { id: t.followUpId } }),
  ],
  ["GET", "service", (c, t) => c.services[":id"].$get({ param: { id: t.serviceId } })],
  [
    "PATCH",
    "service",
    (c, t) => c.services[":id"].$patch({ param: { id: t.serviceId }, json: { name: "Robado" } }),
  ],
  ["DELETE", "service", (c, t) => c.services[":id"].$delete({ param: { id: t.serviceId } })],
  [
    "GET",
    "availability",
    (c, t) =>
      c.bookings.availability.$get({
        query: { service_id: t.serviceId, from: "2031-01-07", to: "2031-01-07" },
      }),
  ],
  [
    "POST",
    "booking",
    (c, t) =>
      c.bookings.$post({
        header: {},
        json: {
          service_id: t.serviceId,
          conversation_id: t.conversationId,
          start: "2031-01-07T09:00:00Z",
        },
      }),
  ],
  [
    "PATCH",
    "booking",
    (c, t) =>
      c.bookings[":id"].$patch({ param: { id: t.bookingId }, json: { status: "cancelled" } }),
  ],
  [
    "GET",
    "payments",
    (c, t) => c.conversations[":id"].payments.$get({ param: { id: t.conversationId } }),
  ],
  [
    "POST",
    "payment link",
    (c, t) =>
      c.conversations[":id"]["payment-links"].$post({
        param: { id: t.conversationId },
        header: {},
        json: { amount: "10", currency: "EUR", description: "Robado" },
      }),
  ],
  [
    "POST",
    "booking flow",
    (c, t) =>
      c.conversations[":id"]["booking-flow"].$post({ param: { id: t.conversationId }, json: {} }),
  ],
  [
    "PATCH",
    "organization",
    (c, t) =>
      c.organizations[":id"].$patch({
        param: { id: t.owner.organization.id },
        json: { min_notice_minutes: 600 },
      }),
  ],
  ["GET", "knowledge", (c, t) => c.knowledge[":id"].$get({ param: { id: t.knowledgeId } })],
  [
    "PATCH",
    "knowledge",
    (c, t) =>
      c.knowledge[":id"].$patch({ param: { id: t.knowledgeId }, json: { title: "Robado" } }),
  ],
  ["DELETE", "knowledge", (c, t) => c.knowledge[":id"].$delete({ param: { id: t.knowledgeId } })],
  [
    "POST",
    "media",
    (c, t) =>
      c.conversations[":id"].media.$post({
        param: { id: t.conversationId },
        form: { file: new File([PNG], "foto.png", { type: "image/png" }), caption: "" },
      }),
  ],
  [
    "POST",
    "resume AI",
    (c, t) => c.conversations[":id"]["resume-ai"].$post({ param: { id: t.conversationId } }),
  ],
  [
    "POST",
    "return to Meta AI",
    (c, t) =>
      c.conversations[":id"]["return-to-meta-ai"].$post({ param: { id: t.conversationId } }),
  ],
  [
    "POST",
    "request phone",
    (c, t) => c.conversations[":id"]["request-phone"].$post({ param: { id: t.conversationId } }),
  ],
  [
    "POST",
    "message retry",
    (c, t) =>
      c.conversations[":id"].messages[":messageId"].retry.$post({
        param: { id: t.conversationId, messageId: t.messageId },
      }),
  ],
  [
    "POST",
    "message transcript",
    (c, t) =>
      c.conversations[":id"].messages[":messageId"].transcript.$post({
        param: { id: t.conversationId, messageId: t.messageId },
      }),
  ],
  [
    "POST",
    "sale",
    (c, t) =>
      c.conversations[":id"].sales.$post({
        param: { id: t.conversationId },
        header: {},
        json: { value: 10 },
      }),
  ],
  [
    "GET",
    "conversions",
    (c, t) => c.conversations[":id"].conversions.$get({ param: { id: t.conversationId } }),
  ],
  [
    "POST",
    "suggestion confirm",
    (c, t) =>
      c.conversations[":id"].suggestions[":suggestionId"].confirm.$post({
        param: { id: t.conversationId, suggestionId: crypto.randomUUID() },
      }),
  ],
  [
    "DELETE",
    "suggestion",
    (c, t) =>
      c.conversations[":id"].suggestions[":suggestionId"].$delete({
        param: { id: t.conversationId, suggestionId: crypto.randomUUID() },
      }),
  ],
  [
    "POST",
    "draft",
    (c, t) => c.conversations[":id"].draft.$post({ param: { id: t.conversationId } }),
  ],
  [
    "DELETE",
    "draft",
    (c, t) => c.conversations[":id"].draft.$delete({ param: { id: t.conversationId } }),
  ],
  [
    "PUT",
    "conversation labels",
    (c, t) =>
      c.conversations[":id"].labels.$put({
        param: { id: t.conversationId },
        json: { label_ids: [] },
      }),
  ],
  [
    "POST",
    "note",
    (c, t) =>
      c.conversations[":id"].notes.$post({
        param: { id: t.conversationId },
        json: { content: "Robado" },
      }),
  ],
  [
    "PATCH",
    "label",
    (c, t) => c.labels[":id"].$patch({ param: { id: t.labelId }, json: { name: "Robado" } }),
  ],
  ["DELETE", "label", (c, t) => c.labels[":id"].$delete({ param: { id: t.labelId } })],
  [
    "PATCH",
    "mention read",
    (c, t) => c.mentions[":id"].read.$patch({ param: { id: t.mentionId } }),
  ],
];

/** An organization route whose path names a row (`/:id`), as the store's table mounts it. */
const namesARow = (route: OrganizationRouteHandler) => route.path.includes("/:");
const routeName = ({ method, path }: OrganizationRouteHandler) => `${method} ${path}`;
const ROUTES_NAMING_A_ROW = new Set(organizationRouteHandlers.filter(namesARow).map(routeName));

/** The organization routes the walk's requests reach, read from the URLs it builds. */
async function walkedRoutes() {
  const walked = new Set<string>();
  const recording = hc<ApiRoutes>(`http://localhost${API_BASE}`, {
    fetch: (input: RequestInfo | URL, init?: RequestInit) => {
      const path = new URL(input instanceof Request ? input.url : input).pathname;
      const matched = organizationRouteMatch(init?.method ?? "GET", path.slice(API_BASE.length));
      for (const route of matched.filter(namesARow)) walked.add(routeName(route));
      return Promise.resolve(Response.json({}));
    },
  });
  for (const [, , send] of ROUTES_WITH_IDS) await send(recording, a);
  return walked;
}

describe("routes with an id of another organization", () => {
  it("are every organization route whose path names a row", async () => {
    const walked = await walkedRoutes();
    expect([...ROUTES_NAMING_A_ROW].filter((route) => !walked.has(route))).toEqual([]);
  });

  it.each(ROUTES_WITH_IDS)("%s %s is 404", async (_method, _name, send) => {
    const response = await answer(send(api(b.owner.token), a));
    expect(response.status, JSON.stringify(response.body)).toBe(404);
    // Another organization's id in the path is that organization, not found as one.
    expect(["not_found", "organization_not_found"]).toContain(response.body.error);
  });

  it("left A's data as it was", async () => {
    const client = api(a.owner.token);
    const agent = await answer(client.agents[":id"].$get({ param: { id: a.agentId } }));
    expect(agent.body.data).toMatchObject({ name: "Agente A", whatsapp_status: "disconnected" });
    const conversation = await answer(
      client.conversations[":id"].$get({ param: { id: a.conversationId } }),
    );
    expect(conversation.body.data.status).not.toBe("closed");
    expect(conversation.body.data.unread_count).toBe(1);
    const messages = await answer(
      client.conversations[":id"].messages.$get({ param: { id: a.conversationId }, query: {} }),
    );
    // The customer's image, the note mentioning Marta and the booking's line in the thread.
    expect(messages.body.data.messages.map((m) => m.type)).toEqual(["image", "note", "note"]);
    expect(messages.body.data.messages[0]!.reactions).toEqual([]);
    const session = await answer(
      client.tracking.sessions[":id"].$get({ param: { id: a.sessionId } }),
    );
    expect(session.body.data).toMatchObject({ phone_number: null });
    const members = await answer(client.organizations.members.$get());
    expect(members.body.data.map((m) => m.user_id)).toContain(a.memberUserId);
    const invitations = await answer(client.organizations.invitations.$get());
    expect(invitations.body.data.map((i) => i.id)).toContain(a.invitationId);
    const replies = await answer(client["quick-replies"].$get());
    expect(replies.body.data.map((r) => r.id)).toContain(a.quickReplyId);
    const broadcast = await answer(client.broadcasts[":id"].$get({ param: { id: a.broadcastId } }));
    expect(broadcast.body.data).toMatchObject({ name: "Difusión A", status: "draft" });
    const followUp = await answer(
      client["follow-ups"][":id"].$get({ param: { id: a.followUpId } }),
    );
    expect(followUp.body.data).toMatchObject({ name: "Seguimiento A", enabled: true });
    const service = await answer(client.services[":id"].$get({ param: { id: a.serviceId } }));
    expect(service.body.data).toMatchObject({ name: "Servicio A" });
    const entry = await answer(client.knowledge[":id"].$get({ param: { id: a.knowledgeId } }));
    expect(entry.body.data).toMatchObject({ title: "Horario A" });
    const labels = await answer(client.labels.$get());
    expect(labels.body.data.labels).toMatchObject([{ id: a.labelId, name: "Etiqueta A" }]);
    const settings = await answer(client.organizations.me.$get());
    expect(settings.body.data.min_notice_minutes).not.toBe(600);
    const bookings = await answer(client.bookings.$get({ query: {} }));
    expect(bookings.body.data.bookings).toMatchObject([
      { id: a.bookingId, status: "pending_payment" },
    ]);
  });
});

describe("lists, stats and exports", () => {
  it("show each organization only its own rows", async () => {
    const client = api(b.owner.token);
    const lists = await Promise.all([
      answer(client.conversations.$get({ query: {} })),
      answer(client.conversations.search.$get({ query: { q: a.phone } })),
      answer(client.agents.$get()),
      answer(client["quick-replies"].$get()),
      answer(client.tracking.conversions.$get({ query: {} })),
      answer(client.organizations.members.$get()),
      answer(client.organizations.invitations.$get()),
      answer(client.broadcasts.$get({ query: {} })),
      answer(client["follow-ups"].$get()),
      answer(client.services.$get()),
      answer(client.bookings.$get({ query: {} })),
      answer(client.integrations.payments.$get()),
    ]);
    const text = JSON.stringify(lists.map((r) => r.body));
    const idsOfA = [a.conversationId, a.agentId, a.quickReplyId, a.sessionId, a.phone];
    for (const idOfA of [...idsOfA, a.broadcastId, a.followUpId, a.serviceId, a.bookingId]) {
      expect(text).not.toContain(idOfA);
    }
    expect(text).not.toContain("Cliente A");
    expect(text).not.toContain(a.owner.organization.id);
    const [, found] = lists;
    expect(lists.at(-1)!.body.data).toMatchObject({ provider: "stripe" });
    expect(found.body.data.total).toBe(0);

    const stats = await answer(client.conversations.stats.$get({ query: {} }));
    expect(stats.body.data).toMatchObject({ total: 1, unread: 1 });
    const tracking = await answer(client.tracking.stats.$get({ query: {} }));
    expect(tracking.body.data).toMatchObject({
      total_sessions: 1,
      total_conversions: 1,
      total_value: 10,
      by_source: { "fuente-b": 1 },
      by_campaign: { "campana-B": 1 },
    });
  });

  it("keep each organization's marketing limits and what they used to itself", async () => {
    type Limits = { monthly_sends: number; currency: string } | null;
    const patch = (token: string, id: string, marketing_budget: Limits) =>
      answer(api(token).organizations[":id"].$patch({ param: { id }, json: { marketing_budget } }));
    const budget = { monthly_sends: 777, currency: "EUR" };
    const aId = a.owner.organization.id;
    expect((await patch(a.owner.token, aId, budget)).status).toBe(200);
    // B can neither change A's limits nor read them, in its organization or its allowance.
    const stolen = await patch(b.owner.token, aId, null);
    expect(stolen.status).toBe(404);
    const [organization, allowance] = await Promise.all([
      answer(api(b.owner.token).organizations.me.$get()),
      answer(api(b.owner.token).broadcasts.allowance.$get()),
    ]);
    expect(organization.body.data.marketing_budget).toBeNull();
    expect(allowance.body.data.budget).toBeNull();
    const own = await answer(api(a.owner.token).broadcasts.allowance.$get());
    expect(own.body.data.budget).toMatchObject({ monthly_sends: 777, sends_used: 0 });
  });

  it("exports only the caller's organization", async () => {
    const exported = await personalExport(b.owner.token);
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
