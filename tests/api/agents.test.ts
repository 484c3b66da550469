import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { connectWhatsapp } from "../support/db";
import { createAgent, createConversation, createOwner, addMember } from "../support/factories";
import { call } from "../support/http";

describe("agents", () => {
  it("creates with the defaults: flash model, temperature 0.7, active", async () => {
    const owner = await createOwner();
    const res = await call("POST", "/api/v1/agents", {
      token: owner.token,
      body: { name: " Sofía ", system_prompt: "Eres amable." },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      name: "Sofía",
      model: "google/gemini-2.5-flash",
      temperature: 0.7,
      is_active: true,
      can_mark_leads: true,
      whatsapp_status: "disconnected",
    });
  });

  it("switches marking leads off and on, on create and on update", async () => {
    const owner = await createOwner();
    const quiet = await createAgent(owner, { can_mark_leads: false });
    expect(quiet.can_mark_leads).toBe(false);
    const on = await call("PATCH", `/api/v1/agents/${quiet.id}`, {
      token: owner.token,
      body: { can_mark_leads: true },
    });
    expect(on.body.data).toMatchObject({ can_mark_leads: true, name: quiet.name });
    // Another field's update leaves it as it is.
    await call("PATCH", `/api/v1/agents/${quiet.id}`, { token: owner.token, body: { name: "B" } });
    const got = await call("GET", `/api/v1/agents/${quiet.id}`, { token: owner.token });
    expect(got.body.data).toMatchObject({ can_mark_leads: true, name: "B" });
    const off = await call("PATCH", `/api/v1/agents/${quiet.id}`, {
      token: owner.token,
      body: { can_mark_leads: false },
    });
    expect(off.body.data.can_mark_leads).toBe(false);
    const bad = await call("PATCH", `/api/v1/agents/${quiet.id}`, {
      token: owner.token,
      body: { can_mark_leads: "no" },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(["can_mark_leads"]);
    const list = await call("GET", "/api/v1/agents", { token: owner.token });
    expect(list.body.data[0].can_mark_leads).toBe(false);
  });

  it("is on WhatsApp only as the default agent of the organization's connected number", async () => {
    const owner = await createOwner();
    const answering = await createAgent(owner, { name: "Recepción" });
    const other = await createAgent(owner, { name: "Ventas" });
    const statusById = async () => {
      const list = await call("GET", "/api/v1/agents", { token: owner.token });
      return Object.fromEntries(
        list.body.data.map((a: { id: string; whatsapp_status: string }) => [
          a.id,
          a.whatsapp_status,
        ]),
      );
    };
    // No number: nobody is connected.
    expect(await statusById()).toEqual({
      [answering.id]: "disconnected",
      [other.id]: "disconnected",
    });

    const number = await connectWhatsapp(owner.organization.id, { defaultAgentId: answering.id });
    expect(await statusById()).toEqual({ [answering.id]: "connected", [other.id]: "disconnected" });
    const got = await call("GET", `/api/v1/agents/${answering.id}`, { token: owner.token });
    expect(got.body.data.whatsapp_status).toBe("connected");

    // What a client stores through PATCH /agents/{id}/whatsapp does not make a badge lie.
    const claimed = await call("PATCH", `/api/v1/agents/${other.id}/whatsapp`, {
      token: owner.token,
      body: { status: "connected", qr: "qr-data" },
    });
    expect(claimed.status).toBe(200);
    expect(claimed.body.data).toMatchObject({
      whatsapp_status: "disconnected",
      whatsapp_qr: "qr-data",
    });

    // The number failing shows on the agent that answers it.
    await env.DB.prepare("UPDATE whatsapp_connections SET status = 'error' WHERE id = ?")
      .bind(number.id)
      .run();
    expect(await statusById()).toEqual({ [answering.id]: "error", [other.id]: "disconnected" });

    // Another organization's number never counts, even one naming this agent.
    await env.DB.prepare("DELETE FROM whatsapp_connections WHERE id = ?").bind(number.id).run();
    const stranger = await createOwner();
    await connectWhatsapp(stranger.organization.id, { defaultAgentId: answering.id });
    expect(await statusById()).toEqual({
      [answering.id]: "disconnected",
      [other.id]: "disconnected",
    });
  });

  it.each([
    [{ system_prompt: "x" }, ["name"]],
    [{ name: "  ", system_prompt: "  " }, ["name", "system_prompt"]],
    [{ name: "A", system_prompt: "x", temperature: 1.1 }, ["temperature"]],
    [{ name: "A", system_prompt: "x", temperature: -0.1 }, ["temperature"]],
    [{ name: "A", system_prompt: "x", temperature: 0.75 }, ["temperature"]],
    [{ name: "A", system_prompt: "x", temperature: "0.5" }, ["temperature"]],
    [{ name: "A", system_prompt: "x", model: "openai/gpt-4o" }, ["model"]],
    [{ name: "A", system_prompt: "x", is_active: "yes" }, ["is_active"]],
    [{ name: "A", system_prompt: "x", can_mark_leads: 1 }, ["can_mark_leads"]],
  ])("rejects %j naming %j, storing nothing", async (body, fields) => {
    const owner = await createOwner();
    const res = await call("POST", "/api/v1/agents", { token: owner.token, body });
    expect(res.status).toBe(422);
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual(fields);
    const list = await call("GET", "/api/v1/agents", { token: owner.token });
    expect(list.body.data).toEqual([]);
  });

  it("accepts every temperature step from 0 to 1 and each model", async () => {
    const owner = await createOwner();
    for (const temperature of [0, 0.1, 0.3, 0.7, 1]) {
      const agent = await createAgent(owner, { temperature, model: "google/gemini-2.5-pro" });
      expect(agent.temperature).toBe(temperature);
    }
    const lite = await createAgent(owner, { model: "google/gemini-2.5-flash-lite" });
    expect(lite.model).toBe("google/gemini-2.5-flash-lite");
  });

  it("lists newest first with usage totals, gets, patches and stores a WhatsApp QR", async () => {
    const owner = await createOwner();
    const first = await createAgent(owner, { name: "Primero" });
    const second = await createAgent(owner, { name: "Segundo" });
    const list = await call("GET", "/api/v1/agents", { token: owner.token });
    expect(list.body.data.map((a: { id: string }) => a.id)).toEqual([second.id, first.id]);
    expect(list.body.data[0].usage).toEqual({
      calls: 0,
      failures: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
    });

    const patched = await call("PATCH", `/api/v1/agents/${first.id}`, {
      token: owner.token,
      body: { is_active: false, temperature: 0.2 },
    });
    expect(patched.body.data).toMatchObject({
      is_active: false,
      temperature: 0.2,
      name: "Primero",
    });
    const wa = await call("PATCH", `/api/v1/agents/${first.id}/whatsapp`, {
      token: owner.token,
      body: { status: "connecting", qr: "2@qr-code" },
    });
    expect(wa.status).toBe(200);
    expect(wa.body.data.whatsapp_qr).toBe("2@qr-code");
    const got = await call("GET", `/api/v1/agents/${first.id}`, { token: owner.token });
    expect(got.body.data).toMatchObject({ is_active: false, whatsapp_qr: "2@qr-code" });
  });

  it("deleting an agent unassigns its conversations and opens them", async () => {
    const owner = await createOwner();
    const agent = await createAgent(owner);
    const assigned = await createConversation(owner, { agent_id: agent.id });
    const res = await call("DELETE", `/api/v1/agents/${agent.id}`, { token: owner.token });
    expect(res.status).toBe(200);
    const after = await call("GET", `/api/v1/conversations/${assigned.id}`, { token: owner.token });
    expect(after.body.data).toMatchObject({ agent_id: null, status: "open" });
    expect((await call("GET", `/api/v1/agents/${agent.id}`, { token: owner.token })).status).toBe(
      404,
    );
  });

  it("lets admins manage agents, and members with the agent role only read them", async () => {
    const owner = await createOwner();
    const existing = await createAgent(owner);
    const admin = await addMember(owner.organization.id, "admin");
    const teammate = await addMember(owner.organization.id, "agent");

    const byAdmin = await call("POST", "/api/v1/agents", {
      token: admin.token,
      body: { name: "Del admin", system_prompt: "x" },
    });
    expect(byAdmin.status).toBe(201);

    const body = { name: "No", system_prompt: "x" };
    expect((await call("POST", "/api/v1/agents", { token: teammate.token, body })).status).toBe(
      403,
    );
    expect(
      (await call("PATCH", `/api/v1/agents/${existing.id}`, { token: teammate.token, body }))
        .status,
    ).toBe(403);
    expect(
      (await call("DELETE", `/api/v1/agents/${existing.id}`, { token: teammate.token })).status,
    ).toBe(403);
    const list = await call("GET", "/api/v1/agents", { token: teammate.token });
    expect(list.body.data).toHaveLength(2);
  });

  it("another organization's agent is 404 for every call", async () => {
    const a = await createOwner();
    const b = await createOwner();
    const agentB = await createAgent(b);
    const results = await Promise.all([
      call("GET", `/api/v1/agents/${agentB.id}`, { token: a.token }),
      call("PATCH", `/api/v1/agents/${agentB.id}`, { token: a.token, body: { name: "Mío" } }),
      call("PATCH", `/api/v1/agents/${agentB.id}/whatsapp`, {
        token: a.token,
        body: { status: "connected" },
      }),
      call("DELETE", `/api/v1/agents/${agentB.id}`, { token: a.token }),
      call("POST", `/api/v1/agents/${agentB.id}/test`, {
        token: a.token,
        body: { messages: [{ role: "user", content: "Hola" }] },
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    const list = await call("GET", "/api/v1/agents", { token: a.token });
    expect(list.body.data).toEqual([]);
    const stillB = await call("GET", `/api/v1/agents/${agentB.id}`, { token: b.token });
    expect(stillB.body.data.name).toBe(agentB.name);
  });
});
