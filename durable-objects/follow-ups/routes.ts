import { Hono } from "hono";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { requireRole } from "../../worker/http/auth";
import { jsonBody } from "../../worker/http/validate";
import { followUpInput, followUpUpdateInput } from "../../contracts/follow-ups";
import * as followUps from "./service";

const manager = requireRole("owner", "admin");

/**
 * `/follow-ups` ("Seguimientos"): every member reads the rules and what they did; owners and
 * admins write them. Served by the organization's store like the rest of its data.
 */
export const followUpRoutes = new Hono<AppContext>()
  .get("/", async (c) => {
    const rules = await followUps.listFollowUps(storeDeps(c), c.var.member);
    return c.json({ data: rules });
  })
  .post("/", manager, ...jsonBody(followUpInput), async (c) => {
    const rule = await followUps.createFollowUp(storeDeps(c), c.var.member, c.req.valid("json"));
    return c.json({ data: rule }, 201);
  })
  .get("/:id", async (c) => {
    const rule = await followUps.getFollowUp(storeDeps(c), c.var.member, c.req.param("id"));
    return c.json({ data: rule });
  })
  .patch("/:id", manager, ...jsonBody(followUpUpdateInput), async (c) => {
    const rule = await followUps.updateFollowUp(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
      changes: c.req.valid("json"),
    });
    return c.json({ data: rule });
  })
  .delete("/:id", manager, async (c) => {
    await followUps.deleteFollowUp(storeDeps(c), c.var.member, c.req.param("id"));
    return c.json({ data: { success: true } });
  });
