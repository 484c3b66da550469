import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import type { OrganizationStoreCalls } from "../../worker/stores/store-calls";
import { REPLY_FAILED, replyToConversation } from "../../durable-objects/agents/auto-reply";
import { CONVERSATION_AI_LIMIT_REACHED } from "../../durable-objects/ai/budget";
import { delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { connectWhatsapp, spendConversationAiCalls } from "../support/db";
import { createAgent, createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { orgFirst, orgSql, withStoreDeps } from "../support/org-data";
import { botMessages, runDueReplies } from "../support/replies";
import {
  customerPhone,
  deliver,
  failNext,
  graphRequests,
  heldRequests,
  modelRequests,
  releaseHeld,
  scriptModel,
} from "../support/webhooks";
import { organizationStore } from "../../worker/stores/registry";
import { keysUnder } from "../support/scheduled-work";

/** An organization whose number answers with an active AI agent by default. */
async function setup(agentValues: Record<string, unknown> = {}) {
  const owner = await createOwner({ name: "Clínica Sonrisa", business_hours: "L-V 9-19" });
  const agent = await createAgent(owner, {
    name: "Sofía",
    system_prompt: "Eres Sofía, la recepcionista.",
    ...agentValues,
  });
  const { phoneNumberId } = await connectWhatsapp(owner.organization.id, {
    phoneNumberId: `pn-${crypto.randomUUID().slice(0, 8)}`,
    defaultAgentId: agent.id,
  });
  const hub = await organizationStore(env, owner.organization.id);
  return { owner, agent, phoneNumberId, hub };
}

async function conversationOf(organizationId: string, phone: string) {
  return (await orgFirst<Record<string, any>>(
    organizationId,
    "SELECT * FROM conversations WHERE organization_id = ? AND phone_number = ?",
    organizationId,
    phone,
  ))!;
}

/** The replies the organization's hub has scheduled. */
async function scheduledReplies(hub: DurableObjectStub<OrganizationStoreCalls>) {
  return keysUnder(hub, "reply:");
}

describe("auto-reply", () => {
  it("schedules nothing for conversations no agent can answer", async () => {
    const owner = await createOwner();
    const { phoneNumberId } = await connectWhatsapp(owner.organization.id);
    const hub = await organizationStore(env, owner.organization.id);
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Hola" })));
    expect(await scheduledReplies(hub)).toEqual([]);

    // With an agent assigned, the next message is scheduled once, however many arrive.
    const agent = await createAgent(owner);
    const conversation = await conversationOf(owner.organization.id, from);
    await answer(
      api(owner.token).conversations[":id"].assign.$patch({
        param: { id: conversation.id },
        json: { agent_id: agent.id },
      }),
    );
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "¿Seguís ahí?" })));
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Hola?" })));
    expect(await scheduledReplies(hub)).toEqual([`reply:${conversation.id}`]);
    expect(await runInDurableObject(hub, (_i, state) => state.storage.getAlarm())).not.toBeNull();
  });

  it("answers a customer once, as the bot, through WhatsApp, with the organization's facts", async () => {
    const { owner, phoneNumberId, hub } = await setup();
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "¿Abrís los sábados?" })));
    await runDueReplies(hub);

    const conversation = await conversationOf(owner.organization.id, from);
    const replies = await botMessages(owner.organization.id, conversation.id);
    expect(replies.map(({ content, status }) => ({ content, status }))).toEqual([
      {
        content: "Respuesta de prueba (google/gemini-2.5-flash): ¿Abrís los sábados?",
        status: "sent",
      },
    ]);

    const sent = (await graphRequests(`/${phoneNumberId}/messages`)).filter(
      (r) => r.body.type === "text",
    );
    expect(sent).toHaveLength(1);
    expect(sent[0].body.to).toBe(from);

    // Quotes included: drafts.test.ts asks the shared fake "¿Abrís los sábados? <id>".
    const prompt = (await modelRequests()).find((r) =>
      JSON.stringify(r.body.messages).includes(JSON.stringify("¿Abrís los sábados?")),
    );
    expect(prompt.body.model).toBe("google/gemini-2.5-flash");
    expect(prompt.body.temperature).toBe(0.7);
    expect(prompt.body.messages[0].content).toContain("Eres Sofía, la recepcionista.");
    expect(prompt.body.messages[0].content).toContain("Clínica Sonrisa");
    expect(prompt.body.messages[0].content).toContain("L-V 9-19");
    expect(prompt.body.tools[0].function.name).toBe("handoff_to_human");

    // The typing indicator went out before the answer.
    const typing = (await graphRequests(`/${phoneNumberId}/messages`)).find(
      (r) => r.body.typing_indicator,
    );
    expect(typing.body).toMatchObject({ status: "read", typing_indicator: { type: "text" } });

    // Running the alarm again changes nothing: the customer has been answered.
    await runDurableObjectAlarm(hub);
    expect(await botMessages(owner.organization.id, conversation.id)).toHaveLength(1);
  });

  it("writes nothing back when its organization is deleted while an answer is under way", async () => {
    const { owner, phoneNumberId, hub } = await setup();
    const tag = crypto.randomUUID();
    for (const text of [`Primero ${tag}`, `Segundo ${tag}`]) {
      await deliver(delivery(inboundMessage({ phoneNumberId, from: customerPhone(), text })));
    }
    // The model holds the first answer while the last owner deletes their account.
    await failNext("model", { contains: `Primero ${tag}`, hold: tag });
    const running = runDueReplies(hub);
    await vi.waitFor(async () => expect(await heldRequests("model", tag)).toBe(1), {
      timeout: 10_000,
    });
    const res = await answer(
      api(owner.token).profiles.me.$delete({ json: { password: owner.password } }),
    );
    expect(res.body.data).toEqual({ organization_deleted: true });
    await releaseHeld("model", tag);
    await running;

    const left = await runInDurableObject(hub, async (_instance, state) => [
      [...(await state.storage.list()).keys()],
      await state.storage.getAlarm(),
    ]);
    expect(left).toEqual([["erased"], null]);
  });

  it("answers a burst of messages once, reading them all", async () => {
    const { owner, phoneNumberId, hub } = await setup();
    const from = customerPhone();
    for (const text of ["Hola", "Quería saber", "el precio de una limpieza"]) {
      await deliver(delivery(inboundMessage({ phoneNumberId, from, text })));
    }
    await runDueReplies(hub);
    const conversation = await conversationOf(owner.organization.id, from);
    expect(await botMessages(owner.organization.id, conversation.id)).toHaveLength(1);
    const prompt = (await modelRequests()).find((r) =>
      JSON.stringify(r.body.messages).includes("Quería saber"),
    );
    const userTurns = prompt.body.messages
      .filter((m: { role: string }) => m.role === "user")
      .map((m: { content: string }) => m.content);
    expect(userTurns).toEqual(["Hola", "Quería saber", "el precio de una limpieza"]);
  });

  it("hands over to a human when the model calls the tool: pending, high priority, then silent", async () => {
    const { owner, phoneNumberId, hub } = await setup();
    const from = customerPhone();
    await scriptModel([
      {
        when: "Me habéis cobrado dos veces",
        tool_call: { name: "handoff_to_human", arguments: { reason: "Queja sobre una factura" } },
      },
    ]);
    await deliver(
      delivery(inboundMessage({ phoneNumberId, from, text: "Me habéis cobrado dos veces" })),
    );
    await runDueReplies(hub);
    let conversation = await conversationOf(owner.organization.id, from);
    expect(conversation).toMatchObject({ status: "pending", priority: "high" });
    expect(await botMessages(owner.organization.id, conversation.id)).toEqual([]);

    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "¿Hola?" })));
    await runDueReplies(hub);
    expect(await botMessages(owner.organization.id, conversation.id)).toEqual([]);

    // A person gives it back: the AI answers again.
    await answer(
      api(owner.token).conversations[":id"].$patch({
        param: { id: conversation.id },
        json: { status: "assigned" },
      }),
    );
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "¿Seguís ahí?" })));
    await runDueReplies(hub);
    conversation = await conversationOf(owner.organization.id, from);
    expect(await botMessages(owner.organization.id, conversation.id)).toHaveLength(1);
  });

  it("hands over once when handing over failed and is tried again: one note, no answer after it", async () => {
    const { owner, phoneNumberId, hub } = await setup();
    const organizationId = owner.organization.id;
    const from = customerPhone();
    const text = `Quiero hablar con el encargado de facturas ${crypto.randomUUID()}`;
    const handoff = {
      when: text,
      tool_call: { name: "handoff_to_human", arguments: { reason: "Queja" } },
    };
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text })));
    const { id } = await conversationOf(organizationId, from);
    // Making it pending fails, as a passing fault of the store would.
    await orgSql(
      organizationId,
      `CREATE TRIGGER refuse_for_test BEFORE UPDATE OF status ON conversations
       WHEN NEW.status = 'pending' BEGIN SELECT RAISE(ABORT, 'refused for the test'); END`,
    );
    await scriptModel([handoff]);
    await runDueReplies(hub);
    await orgSql(organizationId, "DROP TRIGGER refuse_for_test");
    await scriptModel([handoff]);
    await runDueReplies(hub);

    const notes = await orgSql<{ content: string }>(
      organizationId,
      "SELECT content FROM messages WHERE conversation_id = ? AND type = 'note'",
      id,
    );
    expect(notes.map((n) => n.content)).toEqual(["La IA pasó la conversación al equipo: Queja"]);
    expect(await conversationOf(organizationId, from)).toMatchObject({ status: "pending" });
    expect(await botMessages(organizationId, id)).toEqual([]);
    expect(await scheduledReplies(hub)).toEqual([]);
  });

  it("hands over when the customer asks for a person, without asking the model", async () => {
    const { owner, phoneNumberId, hub } = await setup();
    const from = customerPhone();
    const before = (await modelRequests()).length;
    await deliver(
      delivery(
        inboundMessage({ phoneNumberId, from, text: "Quiero hablar con una persona, por favor" }),
      ),
    );
    await runDueReplies(hub);
    const conversation = await conversationOf(owner.organization.id, from);
    expect(conversation.status).toBe("pending");
    // Matched on the customer's turns: every system prompt mentions "hablar con una persona",
    // so another test's reply landing meanwhile would match the whole body.
    const asked = (await modelRequests())
      .slice(before)
      .filter((r) =>
        r.body.messages.some(
          (m: { role: string; content: string }) =>
            m.role === "user" && m.content.includes("hablar con una persona"),
        ),
      );
    expect(asked).toEqual([]);
  });

  it("stays silent on closed conversations and with an inactive agent", async () => {
    const { owner, phoneNumberId, hub, agent } = await setup();
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "uno" })));
    const conversation = await conversationOf(owner.organization.id, from);
    await answer(
      api(owner.token).conversations[":id"].$patch({
        param: { id: conversation.id },
        json: { status: "closed" },
      }),
    );
    await runDueReplies(hub);
    expect(await botMessages(owner.organization.id, conversation.id)).toEqual([]);

    await answer(
      api(owner.token).conversations[":id"].$patch({
        param: { id: conversation.id },
        json: { status: "assigned" },
      }),
    );
    await answer(
      api(owner.token).agents[":id"].$patch({
        param: { id: agent.id },
        json: { is_active: false },
      }),
    );
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "dos" })));
    await runDueReplies(hub);
    expect(await botMessages(owner.organization.id, conversation.id)).toEqual([]);
  });

  it("keeps the customer's message when the model fails, records it, and retries", async () => {
    const { owner, phoneNumberId, hub, agent } = await setup({ model: "google/gemini-2.5-pro" });
    const from = customerPhone();
    // Three attempts (the client's own retries) fail: the hub records it and schedules a retry.
    const failure = { when: "¿Precio?", status: 503 };
    await scriptModel([failure, failure, failure]);
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "¿Precio?" })));
    await runDueReplies(hub);
    let conversation = await conversationOf(owner.organization.id, from);
    expect(conversation.ai_error).toContain("no está disponible");
    const stored = await orgFirst<{ n: number }>(
      owner.organization.id,
      "SELECT count(*) AS n FROM messages WHERE conversation_id = ? AND direction = 'inbound'",
      conversation.id,
    );
    expect(stored!.n).toBe(1);

    await runDueReplies(hub);
    conversation = await conversationOf(owner.organization.id, from);
    expect(await botMessages(owner.organization.id, conversation.id)).toHaveLength(1);
    expect(conversation.ai_error).toBeNull();

    const agents = await answer(api(owner.token).agents.$get());
    const usage = agents.body.data.find((a) => a.id === agent.id)!.usage;
    expect(usage).toMatchObject({ calls: 2, failures: 1 });
    expect(usage!.prompt_tokens).toBeGreaterThan(0);
  });

  it("tries again after a failure that is not the model's, and says so on the conversation after the last try", async () => {
    const { owner, phoneNumberId, hub } = await setup();
    const organizationId = owner.organization.id;
    const from = customerPhone();
    const text = `¿Abren el sábado? ${crypto.randomUUID()}`;
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text })));
    const { id } = await conversationOf(organizationId, from);
    // Recording the model's call fails, as a passing fault of the store would.
    await orgSql(
      organizationId,
      `CREATE TRIGGER refuse_for_test BEFORE INSERT ON ai_calls
       BEGIN SELECT RAISE(ABORT, 'refused for the test'); END`,
    );
    await runDueReplies(hub);
    expect(await botMessages(organizationId, id)).toEqual([]);
    expect(await scheduledReplies(hub)).toEqual([`reply:${id}`]);

    // Mended: the next try answers, once.
    await orgSql(organizationId, "DROP TRIGGER refuse_for_test");
    await runDueReplies(hub);
    expect(await botMessages(organizationId, id)).toHaveLength(1);
    expect(await scheduledReplies(hub)).toEqual([]);

    // A failure every time: given up after the last try, and shown.
    const again = customerPhone();
    const question = `¿Tienen parking? ${crypto.randomUUID()}`;
    await deliver(delivery(inboundMessage({ phoneNumberId, from: again, text: question })));
    const other = await conversationOf(organizationId, again);
    await orgSql(
      organizationId,
      `CREATE TRIGGER refuse_for_test BEFORE INSERT ON ai_calls
       BEGIN SELECT RAISE(ABORT, 'refused for the test'); END`,
    );
    // The first try and its three retries.
    for (let attempt = 0; attempt < 4; attempt++) await runDueReplies(hub);
    expect(await scheduledReplies(hub)).toEqual([]);
    expect(await botMessages(organizationId, other.id)).toEqual([]);
    expect((await conversationOf(organizationId, again)).ai_error).toBe(REPLY_FAILED);
    await orgSql(organizationId, "DROP TRIGGER refuse_for_test");
  });

  it("answers in the agent sandbox without WhatsApp", async () => {
    const { owner, agent } = await setup();
    const res = await answer(
      api(owner.token).agents[":id"].test.$post({
        param: { id: agent.id },
        json: { messages: [{ role: "user", content: "Hola, ¿cuánto cuesta?" }] },
      }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      reply: "Respuesta de prueba (google/gemini-2.5-flash): Hola, ¿cuánto cuesta?",
      handoff: null,
      lead: null,
      sources: [],
    });
    const handoff = await answer(
      api(owner.token).agents[":id"].test.$post({
        param: { id: agent.id },
        json: { messages: [{ role: "user", content: "Pásame con un humano" }] },
      }),
    );
    expect(handoff.body.data.handoff).toEqual({ reason: expect.any(String) });
  });

  it("reports a model failure in the sandbox as a Spanish error, not a 500", async () => {
    const { owner, agent } = await setup();
    const question = `Hola ${crypto.randomUUID()}`;
    await failNext("model", {
      path: "/api/v1/chat/completions",
      contains: question,
      status: 401,
      error: { message: "bad key" },
    });
    const res = await answer(
      api(owner.token).agents[":id"].test.$post({
        param: { id: agent.id },
        json: { messages: [{ role: "user", content: question }] },
      }),
    );
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({
      error: "ai_error",
      message: "La clave de la IA (AI_API_KEY) no es válida.",
    });
  });

  it("without an AI key, skips replies and keeps every customer message", async () => {
    const { owner, phoneNumberId } = await setup();
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Hola" })));
    const conversation = await conversationOf(owner.organization.id, from);
    const outcome = await withStoreDeps(owner.organization.id, (storeDeps) => {
      const deps = { ...storeDeps, env: { ...env, AI_API_KEY: "" } };
      return replyToConversation(deps, owner.organization.id, conversation.id);
    });
    expect(outcome).toBe("skipped");
    expect(await botMessages(owner.organization.id, conversation.id)).toEqual([]);
    const inbound = await orgSql(
      owner.organization.id,
      "SELECT content FROM messages WHERE conversation_id = ?",
      conversation.id,
    );
    expect(inbound).toEqual([{ content: "Hola" }]);
  });
});

describe("the AI marks the lead", () => {
  it("moves the conversation to Interesado once, records one lead, and still answers", async () => {
    const { owner, phoneNumberId, hub } = await setup();
    const from = customerPhone();
    await scriptModel([
      {
        when: "precio de la ortodoncia invisible",
        tool_call: { name: "mark_lead", arguments: { reason: "Pide precio para empezar" } },
      },
      { when: "Conversación marcada como interesado", content: "Son 2.900 €. ¿Te reservo cita?" },
    ]);
    await deliver(
      delivery(
        inboundMessage({ phoneNumberId, from, text: "¿Qué precio de la ortodoncia invisible?" }),
      ),
    );
    await runDueReplies(hub);
    const conversation = await conversationOf(owner.organization.id, from);
    expect(conversation.stage).toBe("lead");
    expect(await botMessages(owner.organization.id, conversation.id)).toEqual([
      expect.objectContaining({ content: "Son 2.900 €. ¿Te reservo cita?", status: "sent" }),
    ]);
    const leads = await orgFirst<{ n: number }>(
      owner.organization.id,
      "SELECT count(*) AS n FROM conversions WHERE conversation_id = ? AND event_name = 'lead'",
      conversation.id,
    );
    expect(leads!.n).toBe(1);
    // Taken on the customer's words alone, the lead says so, and the team is told why.
    const lead = await orgFirst<{ custom_data: string }>(
      owner.organization.id,
      "SELECT custom_data FROM conversions WHERE conversation_id = ? AND event_name = 'lead'",
      conversation.id,
    );
    expect(JSON.parse(lead!.custom_data)).toEqual({ source: "ia" });
    const notes = await orgSql<{ content: string }>(
      owner.organization.id,
      "SELECT content FROM messages WHERE conversation_id = ? AND direction = 'internal'",
      conversation.id,
    );
    expect(notes.map((n) => n.content)).toEqual([
      "La IA marcó la conversación como Interesado: Pide precio para empezar. Si no lo es, cambia la etapa.",
    ]);

    // Offered the tool, the model got the tool's result before writing the answer.
    const asked = (await modelRequests()).filter((r) =>
      JSON.stringify(r.body.messages).includes("precio de la ortodoncia invisible"),
    );
    expect(asked).toHaveLength(2);
    expect(asked[0].body.tools.map((t: any) => t.function.name)).toEqual([
      "handoff_to_human",
      "mark_lead",
    ]);
    expect(asked[1].body.tools.map((t: any) => t.function.name)).toEqual(["handoff_to_human"]);
    expect(asked[1].body.messages.at(-1)).toMatchObject({ role: "tool" });
  });

  it("is not offered the tool when the agent may not mark leads", async () => {
    const { owner, phoneNumberId, hub } = await setup({ can_mark_leads: false });
    const from = customerPhone();
    await deliver(
      delivery(inboundMessage({ phoneNumberId, from, text: "Quiero comprar sin marcar lead" })),
    );
    await runDueReplies(hub);
    const asked = (await modelRequests()).filter((r) =>
      JSON.stringify(r.body.messages).includes("Quiero comprar sin marcar lead"),
    );
    expect(asked).toHaveLength(1);
    expect(asked[0].body.tools.map((t: any) => t.function.name)).toEqual(["handoff_to_human"]);
    expect((await conversationOf(owner.organization.id, from)).stage).toBe("new");
  });
});

describe("a customer cannot spend the organization's AI month", () => {
  it("past the conversation's model calls for the hour, hands it to the team without asking the model", async () => {
    const { owner, phoneNumberId, hub } = await setup();
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Hola" })));
    const conversation = await conversationOf(owner.organization.id, from);
    await spendConversationAiCalls(owner.organization.id, conversation.id);
    const text = `¿Me contáis otra vez los precios? ${crypto.randomUUID().slice(0, 8)}`;
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text })));
    await runDueReplies(hub);

    const asked = (await modelRequests()).filter((r) => JSON.stringify(r.body).includes(text));
    expect(asked).toEqual([]);
    expect(await botMessages(owner.organization.id, conversation.id)).toEqual([]);
    expect((await conversationOf(owner.organization.id, from)).status).toBe("pending");
    const notes = await orgSql<{ content: string }>(
      owner.organization.id,
      "SELECT content FROM messages WHERE conversation_id = ? AND direction = 'internal'",
      conversation.id,
    );
    expect(notes.map((n) => n.content)).toEqual([
      `La IA pasó la conversación al equipo: ${CONVERSATION_AI_LIMIT_REACHED}`,
    ]);
  });
});
