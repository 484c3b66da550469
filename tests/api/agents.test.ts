// Hand-built requests here are the subject: bodies invalid on purpose the typed client refuses.
import { env } from "cloudflare:workers";
import type { InferRequestType } from "hono/client";
import { describe, expect, it } from "vitest";
import { connectWhatsapp } from "../support/db";
import { createAgent, createConversation, createOwner, addMember } from "../support/factories";
import { answer, api } from "../support/api";
import { call } from "../support/http";

type AgentRoute = ReturnType<typeof api>["agents"][":id"];

describe("agents", () => {
  it("creates with the defaults: flash model, temperature 0.7, active", async () => {
    const owner = await createOwner();
    const res = await answer(
      api(owner.token).agents.$post({ json: { name: " Sofía ", system_prompt: "Eres amable." } }),
    );
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
    const update = (json: InferRequestType<AgentRoute["$patch"]>["json"]) =>
      answer(api(owner.token).agents[":id"].$patch({ param: { id: quiet.id }, json }));
    const on = await update({ can_mark_leads: true });
    expect(on.body.data).toMatchObject({ can_mark_leads: true, name: quiet.name });
    // Another field's update leaves it as it is.
    await update({ name: "B" });
    const got = await answer(api(owner.token).agents[":id"].$get({ param: { id: quiet.id } }));
    expect(got.body.data).toMatchObject({ can_mark_leads: true, name: "B" });
    const off = await update({ can_mark_leads: false });
    expect(off.body.data.can_mark_leads).toBe(false);
    // A string for a boolean: a body the typed client would not let through.
    const bad = await call("PATCH", `/api/v1/agents/${quiet.id}`, {
      token: owner.token,
      body: { can_mark_leads: "no" },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.details.map((d: { path: string }) => d.path)).toEqual(["can_mark_leads"]);
    const list = await answer(api(owner.token).agents.$get());
    expect(list.body.data[0]!.can_mark_leads).toBe(false);
  });

  it("is on WhatsApp only as the default agent of the organization's connected number", async () => {
    const owner = await createOwner();
    const answering = await createAgent(owner, { name: "Recepción" });
    const other = await createAgent(owner, { name: "Ventas" });
    const statusById = async () => {
      const list = await answer(api(owner.token).agents.$get());
      return Object.fromEntries(list.body.data.map((a) => [a.id, a.whatsapp_status]));
    };
    // No number: nobody is connected.
    expect(await statusById()).toEqual({
      [answering.id]: "disconnected",
      [other.id]: "disconnected",
    });

    const number = await connectWhatsapp(owner.organization.id, { defaultAgentId: answering.id });
    expect(await statusById()).toEqual({ [answering.id]: "connected", [other.id]: "disconnected" });
    const got = await answer(api(owner.token).agents[":id"].$get({ param: { id: answering.id } }));
    expect(got.body.data.whatsapp_status).toBe("connected");

    // What a client stores through PATCH /agents/{id}/whatsapp does not make a badge lie.
    const claimed = await answer(
      api(owner.token).agents[":id"].whatsapp.$patch({
        param: { id: other.id },
        json: { status: "connected", qr: "qr-data" },
      }),
    );
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
    // On `call`: most rows are bodies the typed client would refuse; `details` is read too.
    const res = await call("POST", "/api/v1/agents", { token: owner.token, body });
    expect(res.status).toBe(422);
    expect(res.body.details.map((d: { path: string }) => d.path).sort()).toEqual(fields);
    const list = await answer(api(owner.token).agents.$get());
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
    const list = await answer(api(owner.token).agents.$get());
    expect(list.body.data.map((a) => a.id)).toEqual([second.id, first.id]);
    expect(list.body.data[0]!.usage).toEqual({
      calls: 0,
      failures: 0,
      prompt_tokens: 0,
      completion_tokens: 0,
    });

    const patched = await answer(
      api(owner.token).agents[":id"].$patch({
        param: { id: first.id },
        json: { is_active: false, temperature: 0.2 },
      }),
    );
    expect(patched.body.data).toMatchObject({
      is_active: false,
      temperature: 0.2,
      name: "Primero",
    });
    const wa = await answer(
      api(owner.token).agents[":id"].whatsapp.$patch({
        param: { id: first.id },
        json: { status: "connecting", qr: "2@qr-code" },
      }),
    );
    expect(wa.status).toBe(200);
    expect(wa.body.data.whatsapp_qr).toBe("2@qr-code");
    const got = await answer(api(owner.token).agents[":id"].$get({ param: { id: first.id } }));
    expect(got.body.data).toMatchObject({ is_active: false, whatsapp_qr: "2@qr-code" });
  });

  it("deleting an agent unassigns its conversations and opens them", async () => {
    const owner = await createOwner();
    const agent = await createAgent(owner);
    const assigned = await createConversation(owner, { agent_id: agent.id });
    const res = await answer(api(owner.token).agents[":id"].$delete({ param: { id: agent.id } }));
    expect(res.status).toBe(200);
    const after = await answer(
      api(owner.token).conversations[":id"].$get({ param: { id: assigned.id } }),
    );
    expect(after.body.data).toMatchObject({ agent_id: null, status: "open" });
    expect(
      (await answer(api(owner.token).agents[":id"].$get({ param: { id: agent.id } }))).status,
    ).toBe(404);
  });

  it("lets admins manage agents, and members with the agent role only read them", async () => {
    const owner = await createOwner();
    const existing = await createAgent(owner);
    const admin = await addMember(owner.organization.id, "admin");
    const teammate = await addMember(owner.organization.id, "agent");

    const byAdmin = await answer(
      api(admin.token).agents.$post({ json: { name: "Del admin", system_prompt: "x" } }),
    );
    expect(byAdmin.status).toBe(201);

    const param = { id: existing.id };
    const byTeammate = api(teammate.token).agents;
    expect(
      (await answer(byTeammate.$post({ json: { name: "No", system_prompt: "x" } }))).status,
    ).toBe(403);
    expect(
      (await answer(byTeammate[":id"].$patch({ param, json: { name: "No", system_prompt: "x" } })))
        .status,
    ).toBe(403);
    expect((await answer(byTeammate[":id"].$delete({ param }))).status).toBe(403);
    const list = await answer(api(teammate.token).agents.$get());
    expect(list.body.data).toHaveLength(2);
  });

  it("another organization's agent is 404 for every call", async () => {
    const a = await createOwner();
    const b = await createOwner();
    const agentB = await createAgent(b);
    const byA = api(a.token).agents[":id"];
    const param = { id: agentB.id };
    const results = await Promise.all([
      answer(byA.$get({ param })),
      answer(byA.$patch({ param, json: { name: "Mío" } })),
      answer(byA.whatsapp.$patch({ param, json: { status: "connected" } })),
      answer(byA.$delete({ param })),
      answer(byA.test.$post({ param, json: { messages: [{ role: "user", content: "Hola" }] } })),
    ]);
    expect(results.map((r) => r.status)).toEqual([404, 404, 404, 404, 404]);
    const list = await answer(api(a.token).agents.$get());
    expect(list.body.data).toEqual([]);
    const stillB = await answer(api(b.token).agents[":id"].$get({ param }));
    expect(stillB.body.data.name).toBe(agentB.name);
  });
});
