// Hand-built requests here are the subject: raw bad queries and bodies invalid on purpose.
import type { InferRequestType } from "hono/client";
import { describe, expect, it } from "vitest";
import { createAgent, createConversation, createOwner, registerUser } from "../support/factories";
import { openWindow, seedMessage } from "../support/db";
import { answer, api } from "../support/api";
import { call } from "../support/http";
import { orgFirst, orgSql } from "../support/org-data";

type Client = ReturnType<typeof api>;
type ListQuery = InferRequestType<Client["conversations"]["$get"]>["query"];

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

async function setLastMessageAt(organizationId: string, id: string, at: string) {
  await orgSql(organizationId, "UPDATE conversations SET last_message_at = ? WHERE id = ?", at, id);
}

describe("GET /conversations", () => {
  it("lists newest activity first, 20 per page by default, with the total", async () => {
    const owner = await createOwner();
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      const c = await createConversation(owner, { contact_name: `Cliente ${i}` });
      await setLastMessageAt(owner.organization.id, c.id, minutesAgo(100 - i));
      ids.push(c.id);
    }
    const page = (query: ListQuery) => answer(api(owner.token).conversations.$get({ query }));
    const first = await page({});
    expect(first.status).toBe(200);
    expect(first.body.data.total).toBe(23);
    expect(first.body.data.limit).toBe(20);
    expect(first.body.data.conversations).toHaveLength(20);
    expect(first.body.data.conversations[0]!.id).toBe(ids[22]);

    const second = await page({ page: "2" });
    expect(second.body.data.conversations.map((c) => c.id)).toEqual([ids[2], ids[1], ids[0]]);
    const beyond = await page({ page: "9" });
    expect(beyond.body.data.conversations).toEqual([]);
    expect(beyond.body.data.total).toBe(23);
  });

  it("filters by status, priority, agent and unassigned, combined", async () => {
    const owner = await createOwner();
    const agent = await createAgent(owner);
    const a = await createConversation(owner, { priority: "urgent", agent_id: agent.id });
    const b = await createConversation(owner, { priority: "urgent" });
    const c = await createConversation(owner, { priority: "low" });
    await answer(
      api(owner.token).conversations[":id"].$patch({
        param: { id: c.id },
        json: { status: "closed" },
      }),
    );

    const list = async (query: ListQuery) =>
      (await answer(api(owner.token).conversations.$get({ query }))).body.data.conversations
        .map((x) => x.id)
        .sort();

    expect(await list({ status: "assigned" })).toEqual([a.id]);
    expect(await list({ priority: "urgent" })).toEqual([a.id, b.id].sort());
    expect(await list({ agent_id: agent.id })).toEqual([a.id]);
    expect(await list({ agent_id: "unassigned" })).toEqual([b.id, c.id].sort());
    expect(await list({ unassigned: "true", priority: "urgent" })).toEqual([b.id]);
    expect(await list({ status: "closed", priority: "urgent" })).toEqual([]);
  });

  it("searches contact name, phone and message text", async () => {
    const owner = await createOwner();
    const byName = await createConversation(owner, { contact_name: "Lucía Fernández" });
    const byPhone = await createConversation(owner, { phone_number: "+34 611 22 33 44" });
    const byText = await createConversation(owner, { contact_name: "Otro" });
    await seedMessage(owner.organization.id, byText.id, {
      content: "¿Tenéis cita para ortodoncia?",
    });

    const conversations = api(owner.token).conversations;
    const search = async (search: string) =>
      (await answer(conversations.$get({ query: { search } }))).body.data.conversations.map(
        (x) => x.id,
      );
    expect(await search("lucía")).toEqual([byName.id]);
    expect(await search("611 22")).toEqual([byPhone.id]);
    expect(await search("ortodoncia")).toEqual([byText.id]);
    const aliased = await answer(conversations.search.$get({ query: { q: "ortodoncia" } }));
    expect(aliased.body.data.conversations.map((x) => x.id)).toEqual([byText.id]);
    expect(await search("%")).toEqual([]); // LIKE wildcards are matched literally
  });

  it.each([
    "limit=0",
    "limit=101",
    "limit=abc",
    "page=0",
    "page=-1",
    "status=abierta",
    "priority=critical",
    "unassigned=si",
  ])("answers 400 to a bad query (%s)", async (query) => {
    const owner = await createOwner();
    // On `call`: `details` is read (and some rows are values the typed client would refuse).
    const res = await call("GET", `/api/v1/conversations?${query}`, { token: owner.token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("bad_request");
    expect(res.body.details.length).toBeGreaterThan(0);
  });

  it("is 404 organization_not_found for a user without an organization", async () => {
    const user = await registerUser();
    const res = await answer(api(user.token).conversations.$get({ query: {} }));
    expect(res.status).toBe(404);
    expect(res.body.error).toBe("organization_not_found");
  });
});

describe("GET /conversations/stats", () => {
  it("counts by status and priority, unassigned and unread", async () => {
    const owner = await createOwner();
    const agent = await createAgent(owner);
    await createConversation(owner, { agent_id: agent.id, priority: "high" });
    const b = await createConversation(owner);
    await createConversation(owner, { priority: "urgent" });
    await orgSql(
      owner.organization.id,
      "UPDATE conversations SET unread_count = 3 WHERE id = ?",
      b.id,
    );
    const res = await answer(api(owner.token).conversations.stats.$get());
    expect(res.body.data).toEqual({
      total: 3,
      unassigned: 2,
      unread: 1,
      by_status: { open: 2, pending: 0, assigned: 1, closed: 0 },
      by_priority: { urgent: 1, high: 1, medium: 1, low: 0 },
    });
  });

  it("stays equal to counting the conversations, through every kind of change", async () => {
    const owner = await createOwner();
    const other = await createOwner();
    const agent = await createAgent(owner);
    const counted = async () => {
      const row = (sql: string) =>
        orgSql<{ k: string; n: number }>(owner.organization.id, sql, owner.organization.id);
      const [status, priority, rest] = await Promise.all([
        row(
          "SELECT status AS k, count(*) AS n FROM conversations WHERE organization_id = ? GROUP BY 1",
        ),
        row(
          "SELECT priority AS k, count(*) AS n FROM conversations WHERE organization_id = ? GROUP BY 1",
        ),
        row(
          "SELECT 'unassigned' AS k, count(agent_id IS NULL OR NULL) AS n FROM conversations WHERE organization_id = ?1 UNION ALL SELECT 'unread', count(unread_count > 0 OR NULL) FROM conversations WHERE organization_id = ?1",
        ),
      ]);
      const of = (rows: { k: string; n: number }[], keys: readonly string[]) =>
        Object.fromEntries(keys.map((k) => [k, rows.find((r) => r.k === k)?.n ?? 0]));
      const byStatus = of(status, ["open", "pending", "assigned", "closed"]);
      return {
        total: Object.values(byStatus).reduce((a, b) => a + b, 0),
        unassigned: rest[0]!.n,
        unread: rest[1]!.n,
        by_status: byStatus,
        by_priority: of(priority, ["urgent", "high", "medium", "low"]),
      };
    };
    const listed = async (query: ListQuery) =>
      (await answer(api(owner.token).conversations.$get({ query }))).body.data.total;
    const expectTallies = async () => {
      const res = await answer(api(owner.token).conversations.stats.$get());
      const truth = await counted();
      expect(res.body.data).toEqual(truth);
      // The list's totals come from the same tallies when filtered on one of them at most.
      expect(await listed({})).toBe(truth.total);
      expect(await listed({ status: "open" })).toBe(truth.by_status.open);
      expect(await listed({ priority: "urgent" })).toBe(truth.by_priority.urgent);
      expect(await listed({ unassigned: "true" })).toBe(truth.unassigned);
      expect(await listed({ agent_id: "unassigned" })).toBe(truth.unassigned);
      const [combined, ofAgent] = await Promise.all([
        orgFirst<{ n: number }>(
          owner.organization.id,
          "SELECT count(*) AS n FROM conversations WHERE organization_id = ? AND status = 'open' AND priority = 'urgent'",
          owner.organization.id,
        ),
        orgFirst<{ n: number }>(
          owner.organization.id,
          "SELECT count(*) AS n FROM conversations WHERE agent_id = ?",
          agent.id,
        ),
      ]);
      expect(await listed({ status: "open", priority: "urgent" })).toBe(combined!.n);
      expect(await listed({ agent_id: agent.id })).toBe(ofAgent!.n);
    };

    const [a, b, c] = [
      await createConversation(owner),
      await createConversation(owner, { priority: "urgent" }),
      await createConversation(owner, { agent_id: agent.id }),
    ];
    await createConversation(other);
    await expectTallies();
    const conversation = api(owner.token).conversations[":id"];
    await answer(
      conversation.$patch({ param: { id: a.id }, json: { status: "pending", priority: "low" } }),
    );
    await answer(conversation.assign.$patch({ param: { id: b.id }, json: { agent_id: agent.id } }));
    await answer(conversation.unassign.$patch({ param: { id: c.id } }));
    await expectTallies();
    // Unread: set from 0, raised while unread (no tally change), then read.
    const orgId = owner.organization.id;
    await orgSql(orgId, "UPDATE conversations SET unread_count = 2 WHERE id IN (?, ?)", a.id, b.id);
    await orgSql(orgId, "UPDATE conversations SET unread_count = 5 WHERE id = ?", a.id);
    await expectTallies();
    await answer(conversation.read.$patch({ param: { id: a.id } }));
    await answer(conversation.$patch({ param: { id: b.id }, json: { status: "closed" } }));
    await expectTallies();
    await orgSql(orgId, "DELETE FROM conversations WHERE id = ?", c.id);
    await expectTallies();
    expect((await answer(api(other.token).conversations.stats.$get())).body.data).toMatchObject({
      total: 1,
      unassigned: 1,
      by_status: { open: 1 },
    });
  });
});

describe("changing a conversation", () => {
  it("creates with a normalized phone number, and refuses a duplicate or a bad one", async () => {
    const owner = await createOwner();
    const create = (json: InferRequestType<Client["conversations"]["$post"]>["json"]) =>
      answer(api(owner.token).conversations.$post({ json }));
    const res = await create({ phone_number: "+34 (600) 11-22-33", contact_name: "Ana" });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      phone_number: "34600112233",
      contact: { name: "Ana", phone_number: "34600112233" },
      status: "open",
      priority: "medium",
      platform: "whatsapp",
      window_expires_at: null,
    });
    const again = await create({ phone_number: "34600112233" });
    expect(again.status).toBe(409);
    // On `call`: the refusal's `details` is read.
    const bad = await call("POST", "/api/v1/conversations", {
      token: owner.token,
      body: { phone_number: "hola" },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.details[0].path).toBe("phone_number");
  });

  it("patches status and priority; any status can go to any other", async () => {
    const owner = await createOwner();
    const c = await createConversation(owner);
    for (const status of ["closed", "pending", "open", "assigned", "closed"] as const) {
      const res = await answer(
        api(owner.token).conversations[":id"].$patch({
          param: { id: c.id },
          json: { status, priority: "urgent" },
        }),
      );
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe(status);
      expect(res.body.data.priority).toBe("urgent");
    }
  });

  it("rejects unknown values with 422 and changes nothing", async () => {
    const owner = await createOwner();
    const c = await createConversation(owner);
    // On `call`: an unknown status and a number for the priority, which the typed client
    // would not send; `details` is read too.
    const res = await call("PATCH", `/api/v1/conversations/${c.id}`, {
      token: owner.token,
      body: { status: "archivada", priority: 5 },
    });
    expect(res.status).toBe(422);
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual([
      "priority",
      "status",
    ]);
    const now = await answer(api(owner.token).conversations[":id"].$get({ param: { id: c.id } }));
    expect(now.body.data.status).toBe("open");
    expect(now.body.data.priority).toBe("medium");
  });

  it("assigns (status assigned) and unassigns (status open)", async () => {
    const owner = await createOwner();
    const agent = await createAgent(owner);
    const c = await createConversation(owner);
    const conversation = api(owner.token).conversations[":id"];
    const assigned = await answer(
      conversation.assign.$patch({ param: { id: c.id }, json: { agent_id: agent.id } }),
    );
    expect(assigned.body.data).toMatchObject({ agent_id: agent.id, status: "assigned" });
    const unassigned = await answer(conversation.unassign.$patch({ param: { id: c.id } }));
    expect(unassigned.body.data).toMatchObject({ agent_id: null, status: "open" });
  });

  it("marks read: unread count to zero and the customer's messages read", async () => {
    const owner = await createOwner();
    const c = await createConversation(owner);
    const m = await seedMessage(owner.organization.id, c.id);
    await orgSql(
      owner.organization.id,
      "UPDATE conversations SET unread_count = 2 WHERE id = ?",
      c.id,
    );
    const res = await answer(
      api(owner.token).conversations[":id"].read.$patch({ param: { id: c.id } }),
    );
    expect(res.body.data.unread_count).toBe(0);
    const row = await orgFirst(
      owner.organization.id,
      "SELECT status FROM messages WHERE id = ?",
      m.id,
    );
    expect(row).toEqual({ status: "read" });
  });
});

describe("messages", () => {
  it("pages back in time with before/limit, oldest first within a page", async () => {
    const owner = await createOwner();
    const c = await createConversation(owner);
    const ids: string[] = [];
    for (let i = 0; i < 45; i++) {
      const m = await seedMessage(owner.organization.id, c.id, {
        content: `m${i}`,
        at: minutesAgo(100 - i),
      });
      ids.push(m.id);
    }
    const messages = (
      query: InferRequestType<Client["conversations"][":id"]["messages"]["$get"]>["query"],
    ) =>
      answer(api(owner.token).conversations[":id"].messages.$get({ param: { id: c.id }, query }));
    const newest = await messages({});
    expect(newest.body.data.total).toBe(45);
    expect(newest.body.data.has_more).toBe(true);
    expect(newest.body.data.messages.map((m) => m.content)).toEqual(
      Array.from({ length: 20 }, (_, i) => `m${25 + i}`),
    );
    const older = await messages({ before: ids[25]!, limit: "20" });
    expect(older.body.data.messages[0]!.content).toBe("m5");
    expect(older.body.data.messages.at(-1)!.content).toBe("m24");
    expect(older.body.data.has_more).toBe(true);
    const oldest = await messages({ before: ids[5]!, limit: "20" });
    expect(oldest.body.data.messages.map((m) => m.content)).toEqual(["m0", "m1", "m2", "m3", "m4"]);
    expect(oldest.body.data.has_more).toBe(false);
    const legacy = await answer(
      api(owner.token).whatsapp.messages[":conversationId"].$get({
        param: { conversationId: c.id },
        query: { limit: "5" },
      }),
    );
    expect(legacy.body.data.messages.map((m) => m.content)).toEqual([
      "m40",
      "m41",
      "m42",
      "m43",
      "m44",
    ]);
  });

  it("refuses a free-form message outside the 24-hour window, storing nothing", async () => {
    const owner = await createOwner();
    const c = await createConversation(owner);
    await openWindow(
      owner.organization.id,
      c.id,
      new Date(Date.now() - 25 * 3600_000).toISOString(),
    );
    const res = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: c.id, content: "Hola" },
      }),
    );
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("window_closed");
    const count = await orgFirst<{ n: number }>(
      owner.organization.id,
      "SELECT count(*) AS n FROM messages WHERE conversation_id = ?",
      c.id,
    );
    expect(count!.n).toBe(0);
  });

  it("stores a reply and records why it failed when WhatsApp is not connected", async () => {
    const owner = await createOwner();
    const c = await createConversation(owner);
    await openWindow(owner.organization.id, c.id);
    const res = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: c.id, content: "  Hola, ¿en qué te ayudo?  " },
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      content: "Hola, ¿en qué te ayudo?",
      direction: "outbound",
      sender_type: "agent",
      status: "failed",
      error: expect.stringContaining("WhatsApp no está conectado"),
    });
    const conversation = await answer(
      api(owner.token).conversations[":id"].$get({ param: { id: c.id } }),
    );
    expect(conversation.body.data.last_message).toBe("Hola, ¿en qué te ayudo?");
  });

  it("rejects blank and oversized content with 422", async () => {
    const owner = await createOwner();
    const c = await createConversation(owner);
    await openWindow(owner.organization.id, c.id);
    for (const content of ["   ", "x".repeat(4097), null]) {
      // On `call`: a null content the typed client would refuse; `details` is read too.
      const res = await call("POST", "/api/v1/conversations/messages", {
        token: owner.token,
        body: { conversation_id: c.id, content },
      });
      expect(res.status).toBe(422);
      expect(res.body.details[0].path).toBe("content");
    }
  });
});

describe("two organizations", () => {
  it("reach only their own conversations: everything else is 404", async () => {
    const a = await createOwner();
    const b = await createOwner();
    const agentB = await createAgent(b);
    const agentA = await createAgent(a);
    const cb = await createConversation(b, { contact_name: "De B" });
    await openWindow(b.organization.id, cb.id);
    const ca = await createConversation(a);

    const byA = api(a.token);
    const param = { id: cb.id };
    const attempts = [
      answer(byA.conversations[":id"].$get({ param })),
      answer(byA.whatsapp.conversations[":id"].$get({ param })),
      answer(byA.conversations[":id"].$patch({ param, json: { status: "closed" } })),
      answer(byA.conversations[":id"].assign.$patch({ param, json: { agent_id: agentA.id } })),
      answer(byA.conversations[":id"].unassign.$patch({ param })),
      answer(byA.conversations[":id"].read.$patch({ param })),
      answer(byA.conversations[":id"].messages.$get({ param, query: {} })),
      answer(byA.conversations.messages.$post({ json: { conversation_id: cb.id, content: "x" } })),
      // A's own conversation with B's agent: the agent is not found either.
      answer(
        byA.conversations[":id"].assign.$patch({
          param: { id: ca.id },
          json: { agent_id: agentB.id },
        }),
      ),
      answer(byA.agents[":id"].conversations.$get({ param: { id: agentB.id } })),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
    }
    const listA = await answer(byA.conversations.$get({ query: { search: "De B" } }));
    expect(listA.body.data.total).toBe(0);
    const statsA = await answer(byA.conversations.stats.$get());
    expect(statsA.body.data.total).toBe(1);
    const still = await answer(api(b.token).conversations[":id"].$get({ param }));
    expect(still.body.data).toMatchObject({ status: "open", agent_id: null });
  });
});
