// Draft mode ("Borrador") and "Sugerir respuesta": the agent's answer waits on the conversation
// for a person, and nothing of it reaches WhatsApp (docs/decisions/0028).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { COSTLY_WRITES } from "../../worker/http/write-limits";
import { delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { connectWhatsapp, openWindow, seedMessage } from "../support/db";
import { createAgent, createConversation, createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { orgFirst } from "../support/org-data";
import { botMessages, runDueReplies } from "../support/replies";
import { connect } from "../support/sockets";
import { customerPhone, deliver, graphRequests, modelRequests } from "../support/webhooks";
import { organizationStore } from "../../worker/stores/registry";

const fakeAnswer = (text: string) => `Respuesta de prueba (google/gemini-2.5-flash): ${text}`;

/** An organization whose number is answered by an agent in `mode`. */
async function setup(mode: "auto" | "draft" | "off") {
  const owner = await createOwner({ name: "Clínica Sonrisa" });
  const agent = await createAgent(owner, { name: "Sofía", mode });
  const { phoneNumberId } = await connectWhatsapp(owner.organization.id, {
    phoneNumberId: `pn-${crypto.randomUUID().slice(0, 8)}`,
    defaultAgentId: agent.id,
  });
  const hub = await organizationStore(env, owner.organization.id);
  return { owner, agent, phoneNumberId, hub };
}

async function conversationIdOf(organizationId: string, phone: string) {
  const row = await orgFirst<{ id: string }>(
    organizationId,
    "SELECT id FROM conversations WHERE organization_id = ? AND phone_number = ?",
    organizationId,
    phone,
  );
  return row!.id;
}

/** A customer message to the organization's number, the AI's work not yet run. */
async function customerWrites(
  setupResult: Awaited<ReturnType<typeof setup>>,
  from: string,
  text: string,
) {
  await deliver(delivery(inboundMessage({ phoneNumberId: setupResult.phoneNumberId, from, text })));
  return conversationIdOf(setupResult.owner.organization.id, from);
}

const getConversation = async (token: string, id: string) =>
  (await answer(api(token).conversations[":id"].$get({ param: { id } }))).body.data;

describe("draft mode", () => {
  it("prepares the answer, publishes it, and sends nothing to WhatsApp (not even typing)", async () => {
    const org = await setup("draft");
    const socket = await connect(org.owner.token);
    const from = customerPhone();
    const question = `¿Abrís los sábados? ${crypto.randomUUID()}`;
    const conversationId = await customerWrites(org, from, question);
    await runDueReplies(org.hub);

    const event = await socket.receive((e) => e.type === "draft_ready");
    expect(event.data).toEqual({
      conversation_id: conversationId,
      draft: {
        content: fakeAnswer(question),
        agent_id: org.agent.id,
        sources: [],
        created_at: expect.any(String),
      },
    });
    expect((await getConversation(org.owner.token, conversationId)).ai_draft).toEqual(
      event.data.draft,
    );
    expect(await graphRequests(`/${org.phoneNumberId}/messages`)).toEqual([]);
    expect(await botMessages(org.owner.organization.id, conversationId)).toEqual([]);
    // The model was asked once, as in auto mode.
    const asked = (await modelRequests()).filter((r) =>
      JSON.stringify(r.body.messages).includes(question),
    );
    expect(asked).toHaveLength(1);
  });

  it("sends the edited draft as a person's message noted as suggested, and clears it", async () => {
    const org = await setup("draft");
    const conversationId = await customerWrites(org, customerPhone(), "Hola, ¿precio de limpieza?");
    await runDueReplies(org.hub);
    expect((await getConversation(org.owner.token, conversationId)).ai_draft).not.toBeNull();

    const sent = await answer(
      api(org.owner.token).conversations.messages.$post({
        json: {
          conversation_id: conversationId,
          content: "Son 40 €. ¿Te va el lunes?",
          from_draft: true,
        },
      }),
    );
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({
      content: "Son 40 €. ¿Te va el lunes?",
      direction: "outbound",
      sender_type: "agent",
      suggested_by_ai: true,
      status: "sent",
    });
    expect((await getConversation(org.owner.token, conversationId)).ai_draft).toBeNull();
    const texts = (await graphRequests(`/${org.phoneNumberId}/messages`)).filter(
      (r) => r.body.type === "text",
    );
    expect(texts.map((r) => r.body.text.body)).toEqual(["Son 40 €. ¿Te va el lunes?"]);

    // A person's own words are not noted as suggested.
    const own = await answer(
      api(org.owner.token).conversations.messages.$post({
        json: { conversation_id: conversationId, content: "Te esperamos." },
      }),
    );
    expect(own.body.data.suggested_by_ai).toBe(false);
  });

  it("a person's reply of their own also retires the waiting draft", async () => {
    const org = await setup("draft");
    const conversationId = await customerWrites(org, customerPhone(), "¿Tenéis cita mañana?");
    await runDueReplies(org.hub);
    await answer(
      api(org.owner.token).conversations.messages.$post({
        json: { conversation_id: conversationId, content: "Sí, a las 10." },
      }),
    );
    expect((await getConversation(org.owner.token, conversationId)).ai_draft).toBeNull();
  });

  it("a new customer message replaces a stale draft", async () => {
    const org = await setup("draft");
    const from = customerPhone();
    const conversationId = await customerWrites(org, from, "Primera pregunta");
    await runDueReplies(org.hub);
    expect((await getConversation(org.owner.token, conversationId)).ai_draft!.content).toBe(
      fakeAnswer("Primera pregunta"),
    );

    const socket = await connect(org.owner.token);
    await customerWrites(org, from, "Segunda pregunta");
    // At once: the draft answered the older message.
    expect((await getConversation(org.owner.token, conversationId)).ai_draft).toBeNull();
    const arrived = await socket.receive((e) => e.type === "new_message");
    expect(arrived.data.conversation.ai_draft).toBeNull();

    await runDueReplies(org.hub);
    expect((await getConversation(org.owner.token, conversationId)).ai_draft!.content).toBe(
      fakeAnswer("Segunda pregunta"),
    );
  });

  it("still hands over to a person in draft mode, with no draft", async () => {
    const org = await setup("draft");
    const conversationId = await customerWrites(
      org,
      customerPhone(),
      "Quiero hablar con una persona",
    );
    await runDueReplies(org.hub);
    const conversation = await getConversation(org.owner.token, conversationId);
    expect(conversation).toMatchObject({ status: "pending", ai_draft: null });
    expect(await graphRequests(`/${org.phoneNumberId}/messages`)).toEqual([]);
  });

  it("still records a lead in draft mode, beside the draft", async () => {
    const org = await setup("draft");
    const conversationId = await customerWrites(
      org,
      customerPhone(),
      "Quiero comprar, ¿qué precio tiene?",
    );
    await runDueReplies(org.hub);
    const conversation = await getConversation(org.owner.token, conversationId);
    expect(conversation.stage).toBe("lead");
    expect(conversation.ai_draft).not.toBeNull();
    expect(await graphRequests(`/${org.phoneNumberId}/messages`)).toEqual([]);
  });

  it("is silent in off mode: no model call, no draft, nothing sent", async () => {
    const org = await setup("off");
    const question = `¿Hay aparcamiento? ${crypto.randomUUID()}`;
    const conversationId = await customerWrites(org, customerPhone(), question);
    await runDueReplies(org.hub);
    expect((await getConversation(org.owner.token, conversationId)).ai_draft).toBeNull();
    const asked = (await modelRequests()).filter((r) =>
      JSON.stringify(r.body.messages).includes(question),
    );
    expect(asked).toEqual([]);
    expect(await graphRequests(`/${org.phoneNumberId}/messages`)).toEqual([]);
  });

  it("refuses from_draft with a template", async () => {
    const org = await setup("draft");
    const conversationId = await customerWrites(org, customerPhone(), "Hola");
    const res = await answer(
      api(org.owner.token).conversations.messages.$post({
        json: {
          conversation_id: conversationId,
          template: { name: "hello_world", language: "es" },
          from_draft: true,
        },
      }),
    );
    expect(res.status).toBe(422);
    expect(res.body.details).toEqual([{ path: "from_draft", message: expect.any(String) }]);
  });
});

describe("Sugerir respuesta", () => {
  it("asks the number's agent on demand (whatever its mode), stores and publishes the draft", async () => {
    const org = await setup("off");
    // A conversation without an agent of its own: the number's agent drafts.
    const conversation = await createConversation(org.owner);
    expect(conversation.agent_id).toBeNull();
    await seedMessage(org.owner.organization.id, conversation.id, {
      content: "¿Hacéis ortodoncia?",
    });
    await openWindow(org.owner.organization.id, conversation.id);
    const socket = await connect(org.owner.token);

    const res = await answer(
      api(org.owner.token).conversations[":id"].draft.$post({ param: { id: conversation.id } }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data.draft).toMatchObject({
      content: fakeAnswer("¿Hacéis ortodoncia?"),
      agent_id: org.agent.id,
      sources: [],
    });
    const event = await socket.receive((e) => e.type === "draft_ready");
    expect(event.data).toEqual({ conversation_id: conversation.id, draft: res.body.data.draft });
    expect((await getConversation(org.owner.token, conversation.id)).ai_draft).toEqual(
      res.body.data.draft,
    );
    expect(await graphRequests(`/${org.phoneNumberId}/messages`)).toEqual([]);
  });

  it("reads the business's knowledge like an answer on WhatsApp, and names its sources", async () => {
    const org = await setup("draft");
    const entry = await answer(
      api(org.owner.token).knowledge.$post({
        json: { title: "Ortodoncia invisible", content: "La ortodoncia invisible cuesta 2.400 €." },
      }),
    );
    expect(entry.status).toBe(201);
    const conversationId = await customerWrites(
      org,
      customerPhone(),
      "¿Hacéis ortodoncia invisible?",
    );
    await runDueReplies(org.hub);
    const automatic = (await getConversation(org.owner.token, conversationId)).ai_draft!;
    expect(automatic.sources).toEqual([{ id: entry.body.data.id, title: "Ortodoncia invisible" }]);

    const onDemand = await answer(
      api(org.owner.token).conversations[":id"].draft.$post({ param: { id: conversationId } }),
    );
    expect(onDemand.status).toBe(200);
    expect(onDemand.body.data.draft.sources).toEqual(automatic.sources);
    const prompts = (await modelRequests()).filter((r) =>
      JSON.stringify(r.body.messages).includes("¿Hacéis ortodoncia invisible?"),
    );
    expect(prompts).toHaveLength(2);
    for (const prompt of prompts) {
      expect(prompt.body.messages[0].content).toContain("La ortodoncia invisible cuesta 2.400 €.");
    }
  });

  it("asks the conversation's own agent before the number's", async () => {
    const org = await setup("off");
    const other = await createAgent(org.owner, { name: "Lucía", mode: "off" });
    const conversation = await createConversation(org.owner, { agent_id: other.id });
    await seedMessage(org.owner.organization.id, conversation.id, { content: "Hola" });
    const res = await answer(
      api(org.owner.token).conversations[":id"].draft.$post({ param: { id: conversation.id } }),
    );
    expect(res.body.data.draft.agent_id).toBe(other.id);
  });

  it("says plainly when no agent can draft, or the customer has not written", async () => {
    const owner = await createOwner();
    const conversation = await createConversation(owner);
    const noAgent = await answer(
      api(owner.token).conversations[":id"].draft.$post({ param: { id: conversation.id } }),
    );
    expect(noAgent.status).toBe(422);
    expect(noAgent.body.error).toBe("no_agent");

    const agent = await createAgent(owner);
    const silent = await createConversation(owner, { agent_id: agent.id });
    const nothing = await answer(
      api(owner.token).conversations[":id"].draft.$post({ param: { id: silent.id } }),
    );
    expect(nothing.status).toBe(422);
    expect(nothing.body.error).toBe("nothing_to_answer");
  });

  it("discards the draft and tells the consoles", async () => {
    const org = await setup("draft");
    const conversationId = await customerWrites(org, customerPhone(), "¿Abrís en agosto?");
    await runDueReplies(org.hub);
    const socket = await connect(org.owner.token);

    const res = await answer(
      api(org.owner.token).conversations[":id"].draft.$delete({ param: { id: conversationId } }),
    );
    expect(res.status).toBe(200);
    expect((await getConversation(org.owner.token, conversationId)).ai_draft).toBeNull();
    const event = await socket.receive((e) => e.type === "conversation_update");
    expect(event.data.conversation).toMatchObject({ id: conversationId, ai_draft: null });
  });

  it("another organization's conversation is not found, and its draft untouched", async () => {
    const org = await setup("draft");
    const conversationId = await customerWrites(org, customerPhone(), "Hola");
    await runDueReplies(org.hub);
    const stranger = await createOwner();
    const draft = api(stranger.token).conversations[":id"].draft;
    for (const [method, res] of [
      ["POST", await draft.$post({ param: { id: conversationId } })],
      ["DELETE", await draft.$delete({ param: { id: conversationId } })],
    ] as const) {
      expect(res.status, method).toBe(404);
    }
    const sent = await answer(
      api(stranger.token).conversations.messages.$post({
        json: { conversation_id: conversationId, content: "Hola", from_draft: true },
      }),
    );
    expect(sent.status).toBe(404);
    expect((await getConversation(org.owner.token, conversationId)).ai_draft).not.toBeNull();
  });

  it("is limited per member like the sandbox (429 with Retry-After)", async () => {
    const owner = await createOwner();
    const ask = () =>
      answer(
        api(owner.token).conversations[":id"].draft.$post({ param: { id: crypto.randomUUID() } }),
      );
    for (let i = 0; i < COSTLY_WRITES.model.max; i++) expect((await ask()).status).toBe(404);
    const refused = await ask();
    expect(refused.status).toBe(429);
    expect(refused.headers.get("Retry-After")).toBeTruthy();
  });
});
