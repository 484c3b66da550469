// Hand-built requests here are the subject: a body invalid on purpose.
// The organization's monthly AI budget: the owner sets it, every model call counts against it,
// and past it nothing reaches the model (docs/decisions/0029).
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DEFAULT_AI_MONTHLY_TOKEN_BUDGET } from "../../contracts/agents";
import {
  AI_CALLS_PER_CONVERSATION_HOUR,
  takeConversationAiCall,
  usageMonth,
} from "../../durable-objects/ai/budget";
import { delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { connectWhatsapp, seedMessage } from "../support/db";
import { createAgent, createConversation, createOwner, addMember } from "../support/factories";
import { answer, api } from "../support/api";
import { call } from "../support/http";
import { orgSql, withStoreDeps } from "../support/org-data";
import { botMessages, runDueReplies } from "../support/replies";
import { connect } from "../support/sockets";
import { deliver, graphRequests, modelRequests } from "../support/webhooks";
import { organizationStore } from "../../worker/stores/registry";

type Owner = Awaited<ReturnType<typeof createOwner>>;

/** Records `tokens` as spent by the organization in `month`. */
async function spend(organizationId: string, tokens: number, month = usageMonth()) {
  await orgSql(
    organizationId,
    "INSERT INTO ai_usage (organization_id, month, tokens_used) VALUES (?, ?, ?) ON CONFLICT (organization_id, month) DO UPDATE SET tokens_used = excluded.tokens_used",
    organizationId,
    month,
    tokens,
  );
}

const usage = async (owner: Owner) =>
  (await answer(api(owner.token).agents.usage.$get())).body.data;

const setBudget = (owner: Owner, token: string, budget: number) =>
  answer(
    api(token).organizations[":id"].$patch({
      param: { id: owner.organization.id },
      json: { ai_monthly_token_budget: budget },
    }),
  );

/** Model requests whose messages carry `marker`. */
const modelRequestsWith = async (marker: string) =>
  (await modelRequests()).filter((r) => JSON.stringify(r.body.messages).includes(marker));

describe("AI budget", () => {
  it("shows the month's usage to every member, counting the sandbox", async () => {
    const owner = await createOwner();
    const agent = await createAgent(owner);
    expect(await usage(owner)).toEqual({
      month: usageMonth(),
      tokens_used: 0,
      budget: DEFAULT_AI_MONTHLY_TOKEN_BUDGET,
    });
    expect(owner.organization.ai_monthly_token_budget).toBe(DEFAULT_AI_MONTHLY_TOKEN_BUDGET);

    await answer(
      api(owner.token).agents[":id"].test.$post({
        param: { id: agent.id },
        json: { messages: [{ role: "user", content: "Hola" }] },
      }),
    );
    const member = await addMember(owner.organization.id, "agent");
    const seen = await answer(api(member.token).agents.usage.$get());
    expect(seen.status).toBe(200);
    expect(seen.body.data.tokens_used).toBeGreaterThan(0);
  });

  it("is set by the owner only, within bounds", async () => {
    const owner = await createOwner();
    const admin = await addMember(owner.organization.id, "admin");

    const refused = await setBudget(owner, admin.token, 10);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/propietaria/);
    // The admin still edits the rest of the organization.
    const renamed = await answer(
      api(admin.token).organizations[":id"].$patch({
        param: { id: owner.organization.id },
        json: { name: "Clínica Nueva" },
      }),
    );
    expect(renamed.status).toBe(200);

    for (const wrong of [-1, 1.5, 2_000_000_000]) {
      expect((await setBudget(owner, owner.token, wrong)).status).toBe(422);
    }
    // On `call`: a word for the number, which the typed client would refuse.
    const word = await call("PATCH", `/api/v1/organizations/${owner.organization.id}`, {
      token: owner.token,
      body: { ai_monthly_token_budget: "mucho" },
    });
    expect(word.status).toBe(422);
    const set = await setBudget(owner, owner.token, 1000);
    expect(set.status).toBe(200);
    expect(set.body.data.ai_monthly_token_budget).toBe(1000);
    expect((await usage(owner)).budget).toBe(1000);
  });

  it("past the budget, the AI stops answering, the team is told and the customer gets nothing", async () => {
    const owner = await createOwner();
    const agent = await createAgent(owner);
    const { phoneNumberId } = await connectWhatsapp(owner.organization.id, {
      phoneNumberId: `pn-${crypto.randomUUID().slice(0, 8)}`,
      defaultAgentId: agent.id,
    });
    await setBudget(owner, owner.token, 500);
    await spend(owner.organization.id, 500);
    const socket = await connect(owner.token);

    const question = `¿Tenéis hueco hoy? ${crypto.randomUUID()}`;
    await deliver(delivery(inboundMessage({ phoneNumberId, from: "34611223344", text: question })));
    await runDueReplies(await organizationStore(env, owner.organization.id));

    expect(await modelRequestsWith(question)).toEqual([]);
    expect(await graphRequests(`/${phoneNumberId}/messages`)).toEqual([]);
    const event = await socket.receive((e) => e.type === "ai_budget_exhausted");
    expect(event.data).toEqual({ month: usageMonth(), tokens_used: 500, budget: 500 });

    // The owner raises the budget: the next customer message is answered.
    await setBudget(owner, owner.token, 100_000);
    const again = `¿Y mañana? ${crypto.randomUUID()}`;
    await deliver(delivery(inboundMessage({ phoneNumberId, from: "34611223344", text: again })));
    await runDueReplies(await organizationStore(env, owner.organization.id));
    expect(await modelRequestsWith(again)).toHaveLength(1);
    const conversation = (await answer(api(owner.token).conversations.$get({ query: {} }))).body
      .data.conversations[0]!;
    expect((await botMessages(owner.organization.id, conversation.id)).length).toBe(1);
  });

  it("refuses the sandbox and on-demand drafts past the budget, without asking the model", async () => {
    const owner = await createOwner();
    const agent = await createAgent(owner);
    const conversation = await createConversation(owner, { agent_id: agent.id });
    const marker = `presupuesto-${crypto.randomUUID()}`;
    await seedMessage(owner.organization.id, conversation.id, { content: marker });
    await setBudget(owner, owner.token, 0);

    const sandbox = await answer(
      api(owner.token).agents[":id"].test.$post({
        param: { id: agent.id },
        json: { messages: [{ role: "user", content: marker }] },
      }),
    );
    const draft = await answer(
      api(owner.token).conversations[":id"].draft.$post({ param: { id: conversation.id } }),
    );
    for (const res of [sandbox, draft]) {
      expect(res.status).toBe(402);
      expect(res.body).toMatchObject({
        error: "ai_budget_exhausted",
        message: expect.stringMatching(/presupuesto mensual de IA/),
      });
    }
    expect(await modelRequestsWith(marker)).toEqual([]);
  });

  it("starts again with the calendar month (UTC)", async () => {
    const owner = await createOwner();
    const agent = await createAgent(owner);
    await setBudget(owner, owner.token, 1000);
    const lastMonth = usageMonth(new Date(Date.now() - 40 * 24 * 60 * 60 * 1000));
    await spend(owner.organization.id, 5000, lastMonth);
    expect(await usage(owner)).toMatchObject({ month: usageMonth(), tokens_used: 0 });

    const marker = `mes-nuevo-${crypto.randomUUID()}`;
    const res = await answer(
      api(owner.token).agents[":id"].test.$post({
        param: { id: agent.id },
        json: { messages: [{ role: "user", content: marker }] },
      }),
    );
    expect(res.status).toBe(200);
    expect(await modelRequestsWith(marker)).toHaveLength(1);
  });
});

describe("a conversation's model calls for the hour (decision 0137)", () => {
  it("are counted per conversation in its organization's store, and start again after the hour", async () => {
    const owner = await createOwner();
    const other = await createOwner();
    const spent = await createConversation(owner);
    const fresh = await createConversation(owner);
    const elsewhere = await createConversation(other);
    const now = Date.now();
    const takes = (organizationId: string, calls: { conversationId: string; at?: number }[]) =>
      withStoreDeps(organizationId, async ({ orgDb }) => {
        const taken: boolean[] = [];
        for (const { conversationId, at = now } of calls) {
          taken.push(await takeConversationAiCall(orgDb, organizationId, conversationId, at));
        }
        return taken;
      });

    const hour = Array.from({ length: AI_CALLS_PER_CONVERSATION_HOUR }, () => ({
      conversationId: spent.id,
    }));
    expect(await takes(owner.organization.id, hour)).toEqual(hour.map(() => true));
    expect(
      await takes(owner.organization.id, [
        { conversationId: spent.id },
        { conversationId: spent.id, at: now + 3_599_999 },
        // Another customer of the organization is not held by the first one's hour.
        { conversationId: fresh.id },
        // The hour over, the window starts again.
        { conversationId: spent.id, at: now + 3_600_000 },
      ]),
    ).toEqual([false, false, true, true]);
    // Nor is another organization's customer, whose count is in its own store.
    expect(await takes(other.organization.id, [{ conversationId: elsewhere.id }])).toEqual([true]);
    expect(
      await orgSql(
        other.organization.id,
        "SELECT conversation_id, count FROM conversation_ai_calls",
      ),
    ).toEqual([{ conversation_id: elsewhere.id, count: 1 }]);
    // D1 counts none of it.
    const inD1 = await env.DB.prepare("SELECT count(*) AS n FROM rate_limits WHERE key LIKE ?")
      .bind(`%${spent.id}%`)
      .first<{ n: number }>();
    expect(inD1?.n).toBe(0);
  });
});
