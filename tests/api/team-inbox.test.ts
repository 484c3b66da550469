// Hand-built requests here are the subject: a body invalid on purpose.
// The team inbox for people (contract section 14): assignment to people and round robin,
// internal notes with mentions, labels. Every rule across two organizations.
import { env } from "cloudflare:workers";
import type { InferRequestType } from "hono/client";
import { describe, expect, it } from "vitest";
import { autoAssign } from "../../durable-objects/team-inbox/assignment";
import { mentionText } from "../../contracts/team-inbox";
import { delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { connectWhatsapp } from "../support/db";
import { addMember, createAgent, createConversation, createOwner } from "../support/factories";
import { answer, api, personalExport } from "../support/api";
import { call } from "../support/http";
import { orgFirst, withStoreDeps } from "../support/org-data";
import { botMessages, runDueReplies } from "../support/replies";
import { connect, tick } from "../support/sockets";
import { customerPhone, deliver, graphRequests, modelRequests } from "../support/webhooks";
import { organizationStore } from "../../worker/stores/registry";

/** The round robin's choice for each conversation, all at once, on the organization's data. */
const roundRobin = (organizationId: string, conversationIds: string[]) =>
  withStoreDeps(organizationId, (deps) => {
    return Promise.all(conversationIds.map((id) => autoAssign(deps, organizationId, id)));
  });

async function team() {
  const owner = await createOwner();
  const marta = await addMember(owner.organization.id, "agent");
  const pablo = await addMember(owner.organization.id, "agent");
  return { owner, marta, pablo };
}

type Client = ReturnType<typeof api>;

const patch = (
  token: string,
  id: string,
  json: InferRequestType<Client["conversations"][":id"]["$patch"]>["json"],
) => answer(api(token).conversations[":id"].$patch({ param: { id }, json }));

const list = async (
  token: string,
  query: InferRequestType<Client["conversations"]["$get"]>["query"],
) => (await answer(api(token).conversations.$get({ query }))).body.data;

describe("assignment to people", () => {
  it("assigns to a colleague, live for the team, listed as theirs, audited", async () => {
    const { owner, marta } = await team();
    const conversation = await createConversation(owner);
    const other = await createConversation(owner);
    const inbox = await connect(marta.token);

    const res = await patch(owner.token, conversation.id, { assignee_id: marta.user.id });
    expect(res.status).toBe(200);
    expect(res.body.data.assignee_id).toBe(marta.user.id);
    const event = await inbox.receive(
      (e) => e.type === "conversation_update" && e.data.conversation.id === conversation.id,
    );
    expect(event.data.conversation.assignee_id).toBe(marta.user.id);
    inbox.socket.close();

    const mine = await list(marta.token, { assignee_id: "me" });
    expect(mine.conversations.map((c) => c.id)).toEqual([conversation.id]);
    expect(mine.total).toBe(1);
    const nobodys = await list(owner.token, { assignee_id: "none" });
    expect(nobodys.conversations.map((c) => c.id)).toEqual([other.id]);
    const hers = await list(owner.token, { assignee_id: marta.user.id });
    expect(hers.conversations.map((c) => c.id)).toEqual([conversation.id]);

    const audit = await orgFirst<{ user_id: string; target: string; metadata: string }>(
      owner.organization.id,
      "SELECT user_id, target, metadata FROM audit_events WHERE action = 'conversation.assign' AND target = ?",
      conversation.id,
    );
    expect(audit).toMatchObject({ user_id: owner.user.id, target: conversation.id });
    expect(JSON.parse(audit!.metadata)).toEqual({ assignee_id: marta.user.id, how: "manual" });

    // "Sin asignar" releases it.
    const released = await patch(marta.token, conversation.id, { assignee_id: null });
    expect(released.body.data.assignee_id).toBeNull();
  });

  it("gives back to the team what a removed member held: unassigned, announced, audited, their mentions gone", async () => {
    const { owner, marta, pablo } = await team();
    await answer(api(marta.token).profiles.me.$patch({ json: { full_name: "Marta López" } }));
    const held = await createConversation(owner);
    const kept = await createConversation(owner);
    await patch(owner.token, held.id, { assignee_id: marta.user.id });
    await patch(owner.token, kept.id, { assignee_id: pablo.user.id });
    await answer(
      api(owner.token).conversations[":id"].notes.$post({
        param: { id: held.id },
        json: { content: "Revisa esto, @marta lopez" },
      }),
    );
    const inbox = await connect(pablo.token);

    const removed = await answer(
      api(owner.token).organizations.members[":userId"].$delete({
        param: { userId: marta.user.id },
      }),
    );
    expect(removed.status).toBe(200);
    const event = await inbox.receive(
      (e) => e.type === "conversation_update" && e.data.conversation.id === held.id,
    );
    expect(event.data.conversation.assignee_id).toBeNull();
    inbox.socket.close();

    const nobodys = await list(owner.token, { assignee_id: "none" });
    expect(nobodys.conversations.map((c) => c.id)).toEqual([held.id]);
    expect((await list(owner.token, { assignee_id: pablo.user.id })).total).toBe(1);
    const audit = await orgFirst<{ user_id: string; metadata: string }>(
      owner.organization.id,
      "SELECT user_id, metadata FROM audit_events WHERE action = 'conversation.assign' AND target = ? ORDER BY created_at DESC",
      held.id,
    );
    expect(audit!.user_id).toBe(owner.user.id);
    expect(JSON.parse(audit!.metadata)).toEqual({ assignee_id: null, how: "member_removed" });
    const mentions = await orgFirst<{ n: number }>(
      owner.organization.id,
      "SELECT count(*) AS n FROM mentions WHERE user_id = ?",
      marta.user.id,
    );
    expect(mentions!.n).toBe(0);
  });

  it("refuses another organization's member (404) and a malformed id (422), changing nothing", async () => {
    const { owner } = await team();
    const stranger = await createOwner();
    const conversation = await createConversation(owner);
    const foreign = await patch(owner.token, conversation.id, { assignee_id: stranger.user.id });
    expect(foreign.status).toBe(404);
    expect(foreign.body.message).toBe("Miembro no encontrado.");
    // A number where the id goes: a body the typed client would not let through.
    const malformed = await call("PATCH", `/api/v1/conversations/${conversation.id}`, {
      token: owner.token,
      body: { assignee_id: 42 },
    });
    expect(malformed.status).toBe(422);
    const tooLong = await answer(
      api(owner.token).conversations.$get({ query: { assignee_id: "x".repeat(65) } }),
    );
    expect(tooLong.status).toBe(400);
    const after = await answer(
      api(owner.token).conversations[":id"].$get({ param: { id: conversation.id } }),
    );
    expect(after.body.data.assignee_id).toBeNull();
    // Nor can a stranger assign this organization's conversation.
    expect((await patch(stranger.token, conversation.id, { assignee_id: null })).status).toBe(404);
  });

  it("keeps the AI silent while a person holds the conversation, and answers once released", async () => {
    const { owner, marta } = await team();
    const agent = await createAgent(owner, { name: "Sofía" });
    const { phoneNumberId } = await connectWhatsapp(owner.organization.id, {
      defaultAgentId: agent.id,
    });
    const hub = await organizationStore(env, owner.organization.id);
    const from = customerPhone();
    const held = `Marta me atiende ${crypto.randomUUID()}`;
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Hola" })));
    const conversation = (await list(owner.token, { search: from })).conversations[0]!;
    await patch(owner.token, conversation.id, { assignee_id: marta.user.id });

    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: held })));
    await runDueReplies(hub);
    const asked = (await modelRequests()).filter((r) => JSON.stringify(r.body).includes(held));
    expect(asked).toEqual([]);
    const before = await botMessages(owner.organization.id, conversation.id);

    await patch(marta.token, conversation.id, { assignee_id: null });
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "¿Hay alguien?" })));
    await runDueReplies(hub);
    expect((await botMessages(owner.organization.id, conversation.id)).length).toBe(
      before.length + 1,
    );
  });
});

describe("round robin", () => {
  async function roundRobinTeam() {
    const setup = await team();
    const res = await answer(
      api(setup.owner.token).organizations[":id"].$patch({
        param: { id: setup.owner.organization.id },
        json: { auto_assign: "round_robin" },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data.auto_assign).toBe("round_robin");
    return setup;
  }

  const setWork = (
    token: string,
    userId: string,
    json: InferRequestType<Client["organizations"]["members"][":userId"]["$patch"]>["json"],
  ) => answer(api(token).organizations.members[":userId"].$patch({ param: { userId }, json }));

  it("gives a new conversation without a default agent to the available member with fewest", async () => {
    const { owner, marta, pablo } = await roundRobinTeam();
    // The owner is away; Marta already holds one conversation.
    await setWork(owner.token, owner.user.id, { available: false });
    const held = await createConversation(owner);
    await patch(owner.token, held.id, { assignee_id: marta.user.id });

    const { phoneNumberId } = await connectWhatsapp(owner.organization.id);
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Hola" })));
    const conversation = (await list(owner.token, { search: from })).conversations[0]!;
    expect(conversation.assignee_id).toBe(pablo.user.id);
  });

  it("never gives two concurrent handoffs past a member's capacity; nobody left leaves it unassigned", async () => {
    const { owner, marta, pablo } = await roundRobinTeam();
    expect((await setWork(owner.token, owner.user.id, { available: false })).status).toBe(200);
    expect((await setWork(owner.token, marta.user.id, { max_open: 1 })).status).toBe(200);
    expect((await setWork(owner.token, pablo.user.id, { max_open: 1 })).status).toBe(200);
    const conversations = await Promise.all([1, 2, 3, 4].map(() => createConversation(owner)));
    const assigned = await roundRobin(
      owner.organization.id,
      conversations.map((c) => c.id),
    );
    const holders = assigned.map((row) => row?.assigneeId ?? null);
    expect(holders.filter((h) => h === marta.user.id)).toHaveLength(1);
    expect(holders.filter((h) => h === pablo.user.id)).toHaveLength(1);
    expect(holders.filter((h) => h === null)).toHaveLength(2);

    // Closing Marta's frees her place: the next one goes to her.
    const martas = conversations[holders.indexOf(marta.user.id)]!;
    await patch(owner.token, martas.id, { status: "closed" });
    const waiting = conversations[holders.indexOf(null)]!;
    expect((await roundRobin(owner.organization.id, [waiting.id]))[0]?.assigneeId).toBe(
      marta.user.id,
    );
  });

  it("gives an AI handoff to the available member who waited longest, audited and announced", async () => {
    const { owner, marta, pablo } = await roundRobinTeam();
    await setWork(owner.token, owner.user.id, { available: false });
    const agent = await createAgent(owner, { name: "Sofía" });
    const { phoneNumberId } = await connectWhatsapp(owner.organization.id, {
      phoneNumberId: `pn-${crypto.randomUUID().slice(0, 8)}`,
      defaultAgentId: agent.id,
    });
    // Marta was given one before (and it is closed): both hold none, Pablo waited longer.
    const earlier = await createConversation(owner);
    expect((await roundRobin(owner.organization.id, [earlier.id]))[0]?.assigneeId).toBe(
      marta.user.id,
    );
    await patch(owner.token, earlier.id, { status: "closed" });

    const inbox = await connect(owner.token);
    const from = customerPhone();
    const text = `Quiero hablar con una persona ${crypto.randomUUID()}`;
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text })));
    await runDueReplies(await organizationStore(env, owner.organization.id));

    const conversation = (await list(owner.token, { search: from })).conversations[0]!;
    expect(conversation).toMatchObject({ status: "pending", assignee_id: pablo.user.id });
    const event = await inbox.receive(
      (e) =>
        e.type === "conversation_update" &&
        e.data.conversation.id === conversation.id &&
        e.data.conversation.assignee_id === pablo.user.id,
    );
    expect(event.data.conversation.assignee_id).toBe(pablo.user.id);
    inbox.socket.close();
    const audit = await orgFirst<{ user_id: string | null; metadata: string }>(
      owner.organization.id,
      "SELECT user_id, metadata FROM audit_events WHERE action = 'conversation.assign' AND target = ?",
      conversation.id,
    );
    expect(audit!.user_id).toBeNull();
    expect(JSON.parse(audit!.metadata)).toEqual({ assignee_id: pablo.user.id, how: "round_robin" });
  });

  it("lets each member set their own availability, and only managers the rest", async () => {
    const { owner, marta, pablo } = await team();
    const own = await setWork(marta.token, marta.user.id, { available: false });
    expect(own.status).toBe(200);
    expect(own.body.data).toMatchObject({ user_id: marta.user.id, available: false });
    expect((await setWork(marta.token, pablo.user.id, { available: false })).status).toBe(403);
    expect((await setWork(marta.token, marta.user.id, { max_open: 5 })).status).toBe(403);
    expect((await setWork(marta.token, marta.user.id, { role: "admin" })).status).toBe(403);
    expect((await setWork(owner.token, marta.user.id, { max_open: 0 })).status).toBe(422);
    const members = (await answer(api(owner.token).organizations.members.$get())).body.data;
    expect(members.find((m) => m.user_id === marta.user.id)).toMatchObject({
      available: false,
      max_open: null,
    });
    const stranger = await createOwner();
    expect((await setWork(stranger.token, marta.user.id, { available: true })).status).toBe(404);
    // Only managers choose round robin.
    const chosen = await answer(
      api(marta.token).organizations[":id"].$patch({
        param: { id: owner.organization.id },
        json: { auto_assign: "round_robin" },
      }),
    );
    expect(chosen.status).toBe(403);
  });
});

describe("internal notes and mentions", () => {
  it("stores a note in the thread, tells only the mentioned member, never sends it", async () => {
    const { owner, marta, pablo } = await team();
    await answer(api(marta.token).profiles.me.$patch({ json: { full_name: "Marta López" } }));
    const conversation = await createConversation(owner);
    const martaInbox = await connect(marta.token);
    const pabloInbox = await connect(pablo.token);
    const text = `Ojo @marta lopez, este cliente ya pagó ${crypto.randomUUID()}`;

    const res = await answer(
      api(owner.token).conversations[":id"].notes.$post({
        param: { id: conversation.id },
        json: { content: text },
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data.note).toMatchObject({
      content: text,
      author_id: owner.user.id,
      mentions: [marta.user.id],
    });
    const mention = await martaInbox.receive((e) => e.type === "mention");
    expect(mention.data.mention).toMatchObject({ conversation_id: conversation.id });
    const created = await pabloInbox.receive((e) => e.type === "note_created");
    expect(created.data).toMatchObject({
      conversation_id: conversation.id,
      note: { id: res.body.data.note.id, content: text, author_id: owner.user.id },
    });
    await tick();
    expect(pabloInbox.received.filter((e) => e.type === "mention")).toEqual([]);
    martaInbox.socket.close();
    pabloInbox.socket.close();

    // In the thread, marked internal; never to WhatsApp.
    const thread = await answer(
      api(owner.token).conversations[":id"].messages.$get({
        param: { id: conversation.id },
        query: {},
      }),
    );
    expect(thread.body.data.messages.at(-1)).toMatchObject({
      content: text,
      type: "note",
      direction: "internal",
      author_id: owner.user.id,
    });
    expect((await graphRequests()).filter((r) => JSON.stringify(r.body).includes(text))).toEqual(
      [],
    );

    // "Menciones" lists it until read, for Marta alone.
    const unread = await answer(api(marta.token).mentions.$get({ query: { unread: "true" } }));
    expect(unread.body.data.mentions).toHaveLength(1);
    const id = unread.body.data.mentions[0]!.id;
    expect(
      (await answer(api(pablo.token).mentions[":id"].read.$patch({ param: { id } }))).status,
    ).toBe(404);
    expect(
      (await answer(api(marta.token).mentions[":id"].read.$patch({ param: { id } }))).status,
    ).toBe(200);
    const after = await answer(api(marta.token).mentions.$get({ query: { unread: "true" } }));
    expect(after.body.data.mentions).toEqual([]);

    // The owner's export carries it.
    const exported = await personalExport(owner.token);
    expect(JSON.stringify(exported.body.data)).toContain(text);
  });

  it("keeps notes out of the AI's history", async () => {
    const { owner } = await team();
    const agent = await createAgent(owner);
    const { phoneNumberId } = await connectWhatsapp(owner.organization.id, {
      defaultAgentId: agent.id,
    });
    const hub = await organizationStore(env, owner.organization.id);
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Hola" })));
    const conversation = (await list(owner.token, { search: from })).conversations[0]!;
    const secret = `Nota secreta ${crypto.randomUUID()}`;
    await answer(
      api(owner.token).conversations[":id"].notes.$post({
        param: { id: conversation.id },
        json: { content: secret },
      }),
    );
    const question = `¿Abrís mañana? ${crypto.randomUUID()}`;
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: question })));
    await runDueReplies(hub);
    const asked = (await modelRequests()).filter((r) => JSON.stringify(r.body).includes(question));
    expect(asked.length).toBeGreaterThan(0);
    expect(asked.some((r) => JSON.stringify(r.body).includes(secret))).toBe(false);
  });

  /** A member renamed as the test needs (everyone registers as "Ana Pérez"). */
  async function named(organizationId: string, fullName: string) {
    const member = await addMember(organizationId, "agent");
    await answer(api(member.token).profiles.me.$patch({ json: { full_name: fullName } }));
    return member;
  }

  const mentioned = async (token: string, conversationId: string, content: string) => {
    const res = await answer(
      api(token).conversations[":id"].notes.$post({
        param: { id: conversationId },
        json: { content },
      }),
    );
    expect(res.status).toBe(201);
    return [...res.body.data.note.mentions].sort();
  };

  it("names a member by first name when no other member shares it, nobody when two do", async () => {
    const owner = await createOwner();
    const gomez = await named(owner.organization.id, "Marta Gómez");
    const pedro = await named(owner.organization.id, "Pedro Sanz");
    const conversation = await createConversation(owner);

    expect(await mentioned(pedro.token, conversation.id, "@Marta, ¿lo ves tú?")).toEqual([
      gomez.user.id,
    ]);
    expect(await mentioned(owner.token, conversation.id, "Pásaselo a @marta y @PEDRO")).toEqual(
      [gomez.user.id, pedro.user.id].sort(),
    );

    // A second Marta: "@Marta" is nobody's; the full name still names each.
    const ruiz = await named(owner.organization.id, "Marta Ruiz");
    expect(await mentioned(pedro.token, conversation.id, "@Marta, ¿lo ves tú?")).toEqual([]);
    expect(
      await mentioned(pedro.token, conversation.id, "@Marta Ruiz y @marta gomez, mirad esto"),
    ).toEqual([ruiz.user.id, gomez.user.id].sort());
    // The same person named twice is named once, and the second "@Marta Ruiz" is not read
    // as some shorter name.
    expect(await mentioned(pedro.token, conversation.id, "@Marta Ruiz, @Marta Ruiz")).toEqual([
      ruiz.user.id,
    ]);
  });

  it("inserts from the console's suggestions what names exactly that member", async () => {
    const owner = await createOwner();
    // The owner and Pablo are both "Ana Pérez": the full name is nobody's.
    const pablo = await addMember(owner.organization.id, "agent");
    const gomez = await named(owner.organization.id, "Marta Gómez");
    const ruiz = await named(owner.organization.id, "Marta Ruiz");
    const conversation = await createConversation(owner);
    const tokens = new Map(
      [owner, pablo, gomez, ruiz].map((m) => [m.user.id as string, m.token] as const),
    );
    const members = (await answer(api(owner.token).organizations.members.$get())).body.data;
    const team = members.map((m) => ({ id: m.user_id, name: m.full_name, email: m.email }));
    expect(team).toHaveLength(4);

    for (const member of team) {
      const author = team.find((m) => m.id !== member.id)!;
      const content = `Revisa esto, @${mentionText(member, team)} gracias`;
      expect(await mentioned(tokens.get(author.id)!, conversation.id, content)).toEqual([
        member.id,
      ]);
    }
    expect(await mentioned(gomez.token, conversation.id, "@Ana Pérez, ¿puedes?")).toEqual([]);
  });

  it("refuses a blank note and another organization's conversation", async () => {
    const { owner } = await team();
    const stranger = await createOwner();
    const conversation = await createConversation(owner);
    const note = (token: string, content: string) =>
      answer(
        api(token).conversations[":id"].notes.$post({
          param: { id: conversation.id },
          json: { content },
        }),
      );
    const blank = await note(owner.token, "   ");
    expect(blank.status).toBe(422);
    const foreign = await note(stranger.token, "hola");
    expect(foreign.status).toBe(404);
  });
});

describe("labels", () => {
  it("managers write labels; an agent-role member cannot (403)", async () => {
    const { owner, marta } = await team();
    const refused = await answer(
      api(marta.token).labels.$post({ json: { name: "VIP", color: "#dc2626" } }),
    );
    expect(refused.status).toBe(403);
    const created = await answer(
      api(owner.token).labels.$post({ json: { name: "VIP", color: "#DC2626" } }),
    );
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name: "VIP", color: "#dc2626" });
    const twice = await answer(
      api(owner.token).labels.$post({ json: { name: "VIP", color: "#2563eb" } }),
    );
    expect(twice.status).toBe(409);
    const badColor = await answer(
      api(owner.token).labels.$post({ json: { name: "Otro", color: "rojo" } }),
    );
    expect(badColor.status).toBe(422);
    const listed = await answer(api(marta.token).labels.$get());
    expect(listed.body.data.labels.map((l) => l.name)).toEqual(["VIP"]);
  });

  it("renames to a name another label holds get 409, even two at once; agents cannot rename (403)", async () => {
    const { owner, marta } = await team();
    const stranger = await createOwner();
    const make = async (name: string) =>
      (await answer(api(owner.token).labels.$post({ json: { name, color: "#2563eb" } }))).body.data;
    const [first, second, third] = [await make("Uno"), await make("Dos"), await make("Tres")];
    const rename = (token: string, id: string, name: string) =>
      answer(api(token).labels[":id"].$patch({ param: { id }, json: { name } }));

    expect((await rename(owner.token, first.id, "Dos")).status).toBe(409);
    const both = await Promise.all([
      rename(owner.token, second.id, "Nuevo"),
      rename(owner.token, third.id, "Nuevo"),
    ]);
    expect(both.map((r) => r.status).sort()).toEqual([200, 409]);
    expect((await rename(marta.token, first.id, "Otro")).status).toBe(403);
    expect((await rename(stranger.token, first.id, "Otro")).status).toBe(404);
    // One of the two took the name; the other kept its own.
    const names = (await answer(api(owner.token).labels.$get())).body.data.labels.map(
      (l) => l.name,
    );
    expect([
      ["Dos", "Nuevo", "Uno"],
      ["Nuevo", "Tres", "Uno"],
    ]).toContainEqual(names.sort());
  });

  it("labels conversations, filters by one, follows renames and deletions", async () => {
    const { owner, marta } = await team();
    const stranger = await createOwner();
    const label = async (token: string, name: string) =>
      (await answer(api(token).labels.$post({ json: { name, color: "#2563eb" } }))).body.data;
    const vip = await label(owner.token, "VIP");
    const urgent = await label(owner.token, "Reclamación");
    const foreign = await label(stranger.token, "Ajena");
    const [a, b] = [await createConversation(owner), await createConversation(owner)];

    const put = (token: string, id: string, label_ids: string[]) =>
      answer(api(token).conversations[":id"].labels.$put({ param: { id }, json: { label_ids } }));
    const labelled = await put(marta.token, a.id, [vip.id, urgent.id]);
    expect(labelled.status).toBe(200);
    expect(labelled.body.data.labels.map((l) => l.name)).toEqual(["Reclamación", "VIP"]);
    await put(marta.token, b.id, [urgent.id]);
    expect((await put(owner.token, a.id, [foreign.id])).status).toBe(404);
    expect((await put(stranger.token, a.id, [])).status).toBe(404);

    const vips = await list(owner.token, { label_id: vip.id });
    expect(vips.conversations.map((c) => c.id)).toEqual([a.id]);
    expect(vips.total).toBe(1);
    const strangers = await list(stranger.token, { label_id: vip.id });
    expect(strangers).toMatchObject({ conversations: [], total: 0 });
    // With another filter the count is of the conversations that meet both.
    expect((await list(owner.token, { label_id: urgent.id })).total).toBe(2);
    expect((await list(owner.token, { label_id: urgent.id, status: "closed" })).total).toBe(0);

    // Open consoles hear each conversation wearing a label change with it.
    const inbox = await connect(marta.token);
    const renamed = await answer(
      api(owner.token).labels[":id"].$patch({
        param: { id: vip.id },
        json: { name: "Cliente VIP" },
      }),
    );
    expect(renamed.status).toBe(200);
    const shown = await answer(api(owner.token).conversations[":id"].$get({ param: { id: a.id } }));
    expect(shown.body.data.labels.map((l) => l.name)).toEqual(["Cliente VIP", "Reclamación"]);
    const renamedLive = await inbox.receive(
      (e) => e.type === "conversation_update" && e.data.conversation.id === a.id,
    );
    expect(renamedLive.data.conversation.labels.map((l: { name: string }) => l.name)).toEqual([
      "Cliente VIP",
      "Reclamación",
    ]);

    expect(
      (await answer(api(owner.token).labels[":id"].$delete({ param: { id: urgent.id } }))).status,
    ).toBe(200);
    const deletedLive = await inbox.receive(
      (e) =>
        e.type === "conversation_update" &&
        e.data.conversation.id === b.id &&
        e.data.conversation.labels.length === 0,
    );
    expect(deletedLive.data.conversation.labels).toEqual([]);
    inbox.socket.close();
    const [afterA, afterB] = await Promise.all(
      [a, b].map((c) =>
        answer(api(owner.token).conversations[":id"].$get({ param: { id: c.id } })),
      ),
    );
    expect(afterA!.body.data.labels.map((l) => l.name)).toEqual(["Cliente VIP"]);
    expect(afterB!.body.data.labels).toEqual([]);
    expect((await list(owner.token, { label_id: urgent.id })).conversations).toEqual([]);
  });
});
