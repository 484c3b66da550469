import { Hono } from "hono";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { requireRole } from "../../worker/http/auth";
import { jsonBody } from "../../worker/http/validate";
import * as connections from "./connection-service";
import { listTemplates } from "./templates-service";
import {
  whatsappConfigInput,
  whatsappConfigUpdateInput,
  whatsappConnectInput,
} from "../../contracts/whatsapp";

const manage = requireRole("owner", "admin");

/** `/whatsapp-config`: the organization's number. Reading is for every member; changes for owners/admins. */
export const whatsappConfigRoutes = new Hono<AppContext>()
  .get("/", async (c) => c.json({ data: await connections.getConfig(storeDeps(c), c.var.member) }))
  .post("/", manage, ...jsonBody(whatsappConfigInput), async (c) => {
    const config = await connections.saveConfig(storeDeps(c), c.var.member, c.req.valid("json"));
    return c.json({ data: config }, 201);
  })
  .patch("/", manage, ...jsonBody(whatsappConfigUpdateInput), async (c) => {
    const config = await connections.updateConfig(storeDeps(c), c.var.member, c.req.valid("json"));
    return c.json({ data: config });
  })
  .delete("/", manage, async (c) => {
    await connections.deleteConfig(storeDeps(c), c.var.member);
    return c.json({ data: { success: true } });
  })
  .post("/test", async (c) => {
    return c.json({ data: await connections.testConfig(storeDeps(c), c.var.member) });
  })
  .post("/connect", manage, ...jsonBody(whatsappConnectInput), async (c) => {
    const config = await connections.reconnect(storeDeps(c), c.var.member, {
      phoneNumber: c.req.valid("json").phone_number,
    });
    return c.json({ data: config });
  })
  .post("/generate-webhook-token", manage, async (c) => {
    return c.json({ data: await connections.generateWebhookToken(storeDeps(c), c.var.member) });
  })
  .get("/templates", async (c) => {
    return c.json({ data: await listTemplates(storeDeps(c), c.var.member) });
  })
  .get("/business-info", async (c) => {
    return c.json({ data: await connections.businessInfo(storeDeps(c), c.var.member) });
  });
