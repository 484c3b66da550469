import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createAgent, createConversation, createOwner, registerUser } from "../support/factories";
import { openWindow, seedMessage } from "../support/db";
import { call } from "../support/http";

const minutesAgo = (n: number) => new Date(Date.now() - n * 60_000).toISOString();

async function setLastMessageAt(id: string, at: string) {
  await env.DB.prepare("UPDATE conversations SET last_message_at = ? WHERE id = ?")
    .bind(at, id)
    .run();
}

describe("GET /conversations", () => {
  it("lists newest activity first, 20 per page by default, with the total", async () => {
    const owner = await createOwner();
    const ids: string[] = [];
    for (let i = 0; i < 23; i++) {
      const c = await createConversation(owner, { contact_name: `Cliente ${i}` });
      await setLastMessageAt(c.id, minutesAgo(100 - i));
      ids.push(c.id);
    }
    const first = await call("GET", "/api/v1/conversations", { token: owner.token });
    expect(first.status).toBe(200);
    expect(first.body.data.total).toBe(23);
    expect(first.body.data.limit).toBe(20);
    expect(first.body.data.conversations).toHaveLength(20);
    expect(first.body.data.conversations[0].id).toBe(ids[22]);

    const second = await call("GET", "/api/v1/conversations?page=2", { token: owner.token });
    expect(second.body.data.conversations.map((c: { id: string }) => c.id)).toEqual([
      ids[2],
      ids[1],
      ids[0],
    ]);
    const beyond = await call("GET", "/api/v1/conversations?page=9", { token: owner.token });
    expect(beyond.body.data.conversations).toEqual([]);
    expect(beyond.body.data.total).toBe(23);
  });

  it("filters by status, priority, agent and unassigned, combined", async () => {
    const owner = await createOwner();
    const agent = await createAgent(owner);
    const a = await createConversation(owner, { priority: "urgent", agent_id: agent.id });
    const b = await createConversation(owner, { priority: "urgent" });
    const c = await createConversation(owner, { priority: "low" });
    await call("PATCH", `/api/v1/conversations/${c.id}`, {
      token: owner.token,
      body: { status: "closed" },
    });

    const list = async (query: string) =>
      (
        await call("GET", `/api/v1/conversations?${query}`, { token: owner.token })
      ).body.data.conversations
        .map((x: { id: string }) => x.id)
        .sort();

    expect(await list("status=assigned")).toEqual([a.id]);
    expect(await list("priority=urgent")).toEqual([a.id, b.id].sort());
    expect(await list(`agent_id=${agent.id}`)).toEqual([a.id]);
    expect(await list("agent_id=unassigned")).toEqual([b.id, c.id].sort());
    expect(await list("unassigned=true&priority=urgent")).toEqual([b.id]);
    expect(await list("status=closed&priority=urgent")).toEqual([]);
  });

  it("searches contact name, phone and message text", async () => {
    const owner = await createOwner();
    const byName = await createConversation(owner, { contact_name: "Lucía Fernández" });
    const byPhone = await createConversation(owner, { phone_number: "+34 611 22 33 44" });
    const byText = await createConversation(owner, { contact_name: "Otro" });
    await seedMessage(owner.organization.id, byText.id, {
      content: "¿Tenéis cita para ortodoncia?",
    });

    const search = async (q: string, path = "/api/v1/conversations?search=") =>
      (
        await call("GET", `${path}${encodeURIComponent(q)}`, { token: owner.token })
      ).body.data.conversations.map((x: { id: string }) => x.id);
    expect(await search("lucía")).toEqual([byName.id]);
    expect(await search("611 22")).toEqual([byPhone.id]);
    expect(await search("ortodoncia")).toEqual([byText.id]);
    expect(await search("ortodoncia", "/api/v1/conversations/search?q=")).toEqual([byText.id]);
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
    const res = await call("GET", `/api/v1/conversations?${query}`, { token: owner.token });
    expect(res.status).toBe(400);
    expect(res.body.error).toBe("bad_request");
    expect(res.body.details.length).toBeGreaterThan(0);
  });

  it("is 404 organization_not_found for a user without an organization", async () => {
    const user = await registerUser();
    const res = await call("GET", "/api/v1/conversations", { token: user.token });
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
    await env.DB.prepare("UPDATE conversations SET unread_count = 3 WHERE id = ?").bind(b.id).run();
    const res = await call("GET", "/api/v1/conversations/stats", { token: owner.token });
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
        env.DB.prepare(sql).bind(owner.organization.id).all<{ k: string; n: number }>();
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
      const byStatus = of(status.results, ["open", "pending", "assigned", "closed"]);
      return {
        total: Object.values(byStatus).reduce((a, b) => a + b, 0),
        unassigned: rest.results[0]!.n,
        unread: rest.results[1]!.n,
        by_status: byStatus,
        by_priority: of(priority.results, ["urgent", "high", "medium", "low"]),
      };
    };
    const listed = async (query: string) =>
      (await call("GET", `/api/v1/conversations?${query}`, { token: owner.token })).body.data
        .total as number;
    const expectTallies = async () => {
      const res = await call("GET", "/api/v1/conversations/stats", { token: owner.token });
      const truth = await counted();
      expect(res.body.data).toEqual(truth);
      // The list's totals come from the same tallies when filtered on one of them at most.
      expect(await listed("")).toBe(truth.total);
      expect(await listed("status=open")).toBe(truth.by_status.open);
      expect(await listed("priority=urgent")).toBe(truth.by_priority.urgent);
      expect(await listed("unassigned=true")).toBe(truth.unassigned);
      expect(await listed("agent_id=unassigned")).toBe(truth.unassigned);
      const [combined, ofAgent] = await Promise.all([
        env.DB.prepare(
          "SELECT count(*) AS n FROM conversations WHERE organization_id = ? AND status = 'open' AND priority = 'urgent'",
        )
          .bind(owner.organization.id)
          .first<number>("n"),
        env.DB.prepare("SELECT count(*) AS n FROM conversations WHERE agent_id = ?")
          .bind(agent.id)
          .first<number>("n"),
      ]);
      expect(await listed("status=open&priority=urgent")).toBe(combined);
      expect(await listed(`agent_id=${agent.id}`)).toBe(ofAgent);
    };

    const [a, b, c] = [
      await createConversation(owner),
      await createConversation(owner, { priority: "urgent" }),
      await createConversation(owner, { agent_id: agent.id }),
    ];
    await createConversation(other);
    await expectTallies();
    const patch = (id: string, path: string, body?: unknown) =>
      call("PATCH", `/api/v1/conversations/${id}${path}`, { token: owner.token, body });
    await patch(a.id, "", { status: "pending", priority: "low" });
    await patch(b.id, "/assign", { agent_id: agent.id });
    await patch(c.id, "/unassign");
    await expectTallies();
    // Unread: set from 0, raised while unread (no tally change), then read.
    await env.DB.prepare("UPDATE conversations SET unread_count = 2 WHERE id IN (?, ?)")
      .bind(a.id, b.id)
      .run();
    await env.DB.prepare("UPDATE conversations SET unread_count = 5 WHERE id = ?").bind(a.id).run();
    await expectTallies();
    await patch(a.id, "/read");
    await patch(b.id, "", { status: "closed" });
    await expectTallies();
    await env.DB.prepare("DELETE FROM conversations WHERE id = ?").bind(c.id).run();
    await expectTallies();
    expect(
      (await call("GET", "/api/v1/conversations/stats", { token: other.token })).body.data,
    ).toMatchObject({ total: 1, unassigned: 1, by_status: { open: 1 } });
  });
});

describe("changing a conversation", () => {
  it("creates with a normalized phone number, and refuses a duplicate or a bad one", async () => {
    const owner = await createOwner();
    const res = await call("POST", "/api/v1/conversations", {
      token: owner.token,
      body: { phone_number: "+34 (600) 11-22-33", contact_name: "Ana" },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      phone_number: "34600112233",
      contact: { name: "Ana", phone_number: "34600112233" },
      status: "open",
      priority: "medium",
      platform: "whatsapp",
      window_expires_at: null,
    });
    const again = await call("POST", "/api/v1/conversations", {
      token: owner.token,
      body: { phone_number: "34600112233" },
    });
    expect(again.status).toBe(409);
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
    for (const status of ["closed", "pending", "open", "assigned", "closed"]) {
      const res = await call("PATCH", `/api/v1/conversations/${c.id}`, {
        token: owner.token,
        body: { status, priority: "urgent" },
      });
      expect(res.status).toBe(200);
      expect(res.body.data.status).toBe(status);
      expect(res.body.data.priority).toBe("urgent");
    }
  });

  it("rejects unknown values with 422 and changes nothing", async () => {
    const owner = await createOwner();
    const c = await createConversation(owner);
    const res = await call("PATCH", `/api/v1/conversations/${c.id}`, {
      token: owner.token,
      body: { status: "archivada", priority: 5 },
    });
    expect(res.status).toBe(422);
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual([
      "priority",
      "status",
    ]);
    const now = await call("GET", `/api/v1/conversations/${c.id}`, { token: owner.token });
    expect(now.body.data.status).toBe("open");
    expect(now.body.data.priority).toBe("medium");
  });

  it("assigns (status assigned) and unassigns (status open)", async () => {
    const owner = await createOwner();
    const agent = await createAgent(owner);
    const c = await createConversation(owner);
    const assigned = await call("PATCH", `/api/v1/conversations/${c.id}/assign`, {
      token: owner.token,
      body: { agent_id: agent.id },
    });
    expect(assigned.body.data).toMatchObject({ agent_id: agent.id, status: "assigned" });
    const unassigned = await call("PATCH", `/api/v1/conversations/${c.id}/unassign`, {
      token: owner.token,
    });
    expect(unassigned.body.data).toMatchObject({ agent_id: null, status: "open" });
  });

  it("marks read: unread count to zero and the customer's messages read", async () => {
    const owner = await createOwner();
    const c = await createConversation(owner);
    const m = await seedMessage(owner.organization.id, c.id);
    await env.DB.prepare("UPDATE conversations SET unread_count = 2 WHERE id = ?").bind(c.id).run();
    const res = await call("PATCH", `/api/v1/conversations/${c.id}/read`, { token: owner.token });
    expect(res.body.data.unread_count).toBe(0);
    const row = await env.DB.prepare("SELECT status FROM messages WHERE id = ?").bind(m.id).first();
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
    const newest = await call("GET", `/api/v1/conversations/${c.id}/messages`, {
      token: owner.token,
    });
    expect(newest.body.data.total).toBe(45);
    expect(newest.body.data.has_more).toBe(true);
    expect(newest.body.data.messages.map((m: { content: string }) => m.content)).toEqual(
      Array.from({ length: 20 }, (_, i) => `m${25 + i}`),
    );
    const older = await call(
      "GET",
      `/api/v1/conversations/${c.id}/messages?before=${ids[25]}&limit=20`,
      {
        token: owner.token,
      },
    );
    expect(older.body.data.messages[0].content).toBe("m5");
    expect(older.body.data.messages.at(-1).content).toBe("m24");
    expect(older.body.data.has_more).toBe(true);
    const oldest = await call(
      "GET",
      `/api/v1/conversations/${c.id}/messages?before=${ids[5]}&limit=20`,
      {
        token: owner.token,
      },
    );
    expect(oldest.body.data.messages.map((m: { content: string }) => m.content)).toEqual([
      "m0",
      "m1",
      "m2",
      "m3",
      "m4",
    ]);
    expect(oldest.body.data.has_more).toBe(false);
    const legacy = await call("GET", `/api/v1/whatsapp/messages/${c.id}?limit=5`, {
      token: owner.token,
    });
    expect(legacy.body.data.messages.map((m: { content: string }) => m.content)).toEqual([
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
    await openWindow(c.id, new Date(Date.now() - 25 * 3600_000).toISOString());
    const res = await call("POST", "/api/v1/conversations/messages", {
      token: owner.token,
      body: { conversation_id: c.id, content: "Hola" },
    });
    expect(res.status).toBe(422);
    expect(res.body.error).toBe("window_closed");
    const count = await env.DB.prepare(
      "SELECT count(*) AS n FROM messages WHERE conversation_id = ?",
    )
      .bind(c.id)
      .first<{ n: number }>();
    expect(count!.n).toBe(0);
  });

  it("stores a reply and records why it failed when WhatsApp is not connected", async () => {
    const owner = await createOwner();
    const c = await createConversation(owner);
    await openWindow(c.id);
    const res = await call("POST", "/api/v1/conversations/messages", {
      token: owner.token,
      body: { conversation_id: c.id, content: "  Hola, ¿en qué te ayudo?  " },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      content: "Hola, ¿en qué te ayudo?",
      direction: "outbound",
      sender_type: "agent",
      status: "failed",
      error: expect.stringContaining("WhatsApp no está conectado"),
    });
    const conversation = await call("GET", `/api/v1/conversations/${c.id}`, { token: owner.token });
    expect(conversation.body.data.last_message).toBe("Hola, ¿en qué te ayudo?");
  });

  it("rejects blank and oversized content with 422", async () => {
    const owner = await createOwner();
    const c = await createConversation(owner);
    await openWindow(c.id);
    for (const content of ["   ", "x".repeat(4097), null]) {
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
    await openWindow(cb.id);
    const ca = await createConversation(a);

    const attempts = [
      call("GET", `/api/v1/conversations/${cb.id}`, { token: a.token }),
      call("GET", `/api/v1/whatsapp/conversations/${cb.id}`, { token: a.token }),
      call("PATCH", `/api/v1/conversations/${cb.id}`, {
        token: a.token,
        body: { status: "closed" },
      }),
      call("PATCH", `/api/v1/conversations/${cb.id}/assign`, {
        token: a.token,
        body: { agent_id: agentA.id },
      }),
      call("PATCH", `/api/v1/conversations/${cb.id}/unassign`, { token: a.token }),
      call("PATCH", `/api/v1/conversations/${cb.id}/read`, { token: a.token }),
      call("GET", `/api/v1/conversations/${cb.id}/messages`, { token: a.token }),
      call("POST", "/api/v1/conversations/messages", {
        token: a.token,
        body: { conversation_id: cb.id, content: "x" },
      }),
      // A's own conversation with B's agent: the agent is not found either.
      call("PATCH", `/api/v1/conversations/${ca.id}/assign`, {
        token: a.token,
        body: { agent_id: agentB.id },
      }),
      call("GET", `/api/v1/agents/${agentB.id}/conversations`, { token: a.token }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(404);
    }
    const listA = await call("GET", "/api/v1/conversations?search=De%20B", { token: a.token });
    expect(listA.body.data.total).toBe(0);
    const statsA = await call("GET", "/api/v1/conversations/stats", { token: a.token });
    expect(statsA.body.data.total).toBe(1);
    const still = await call("GET", `/api/v1/conversations/${cb.id}`, { token: b.token });
    expect(still.body.data).toMatchObject({ status: "open", agent_id: null });
  });
});
