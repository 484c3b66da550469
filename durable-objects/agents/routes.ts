import { Hono } from "hono";
import { conversationsOfAgent } from "../conversations/service";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { requireRole } from "../../worker/http/auth";
import { jsonBody } from "../../worker/http/validate";
import {
  agentCreateInput,
  agentTestInput,
  agentUpdateInput,
  agentWhatsappInput,
} from "../../contracts/agents";
import * as agents from "./service";

const manage = requireRole("owner", "admin");

export const agentRoutes = new Hono<AppContext>()
  .get("/", async (c) => c.json({ data: await agents.listAgents(storeDeps(c), c.var.member) }))
  .post("/", manage, ...jsonBody(agentCreateInput), async (c) => {
    const agent = await agents.createAgent(storeDeps(c), c.var.member, c.req.valid("json"));
    return c.json({ data: agent }, 201);
  })
  // Before "/:id": "usage" is not an agent.
  .get("/usage", async (c) => c.json({ data: await agents.aiUsage(storeDeps(c), c.var.member) }))
  .get("/:id", async (c) => {
    const agent = await agents.getAgent(storeDeps(c), c.var.member, { id: c.req.param("id") });
    return c.json({ data: agent });
  })
  .patch("/:id", manage, ...jsonBody(agentUpdateInput), async (c) => {
    const agent = await agents.updateAgent(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
      changes: c.req.valid("json"),
    });
    return c.json({ data: agent });
  })
  .delete("/:id", manage, async (c) => {
    await agents.deleteAgent(storeDeps(c), c.var.member, { id: c.req.param("id") });
    return c.json({ data: { success: true } });
  })
  .patch("/:id/whatsapp", manage, ...jsonBody(agentWhatsappInput), async (c) => {
    const agent = await agents.updateAgentWhatsapp(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
      changes: c.req.valid("json"),
    });
    return c.json({ data: agent });
  })
  .get("/:id/conversations", async (c) => {
    const list = await conversationsOfAgent(storeDeps(c), c.var.member, { id: c.req.param("id") });
    return c.json({ data: list });
  })
  .post("/:id/test", ...jsonBody(agentTestInput, "model"), async (c) => {
    const reply = await agents.testAgent(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
      transcript: c.req.valid("json"),
    });
    return c.json({ data: reply });
  });
