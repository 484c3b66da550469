import { Hono } from "hono";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { requireRole } from "../../worker/http/auth";
import { jsonBody, optionalJsonBody, queryParams } from "../../worker/http/validate";
import {
  broadcastInput,
  broadcastListQuery,
  broadcastUpdateInput,
  recipientListQuery,
  sendInput,
} from "../../contracts/broadcasts";
import * as broadcasts from "./service";
import * as sending from "./sending";
import { audienceAds } from "./audience";
import { marketingAllowance } from "./marketing-limits";

const manager = requireRole("owner", "admin");

/**
 * `/broadcasts` ("Difusiones"): every member reads them and their preview; owners and admins
 * write them. Served by the organization's store like the rest of its data.
 */
export const broadcastRoutes = new Hono<AppContext>()
  .get("/", queryParams(broadcastListQuery), async (c) => {
    const page = await broadcasts.listBroadcasts(storeDeps(c), c.var.member, c.req.valid("query"));
    return c.json({ data: page });
  })
  .post("/", manager, ...jsonBody(broadcastInput), async (c) => {
    const broadcast = await broadcasts.createBroadcast(
      storeDeps(c),
      c.var.member,
      c.req.valid("json"),
    );
    return c.json({ data: broadcast }, 201);
  })
  .get("/audience/ads", async (c) => {
    const ads = await audienceAds(storeDeps(c).orgDb, c.var.member.organizationId);
    return c.json({ data: ads });
  })
  // The owner's marketing budget left this month and the frequency cap, where one is prepared.
  .get("/allowance", async (c) => {
    const allowance = await marketingAllowance(storeDeps(c), c.var.member.organizationId);
    return c.json({ data: allowance });
  })
  .get("/:id", async (c) => {
    const broadcast = await broadcasts.getBroadcast(storeDeps(c), c.var.member, c.req.param("id"));
    return c.json({ data: broadcast });
  })
  .patch("/:id", manager, ...jsonBody(broadcastUpdateInput), async (c) => {
    const broadcast = await broadcasts.updateBroadcast(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
      changes: c.req.valid("json"),
    });
    return c.json({ data: broadcast });
  })
  .delete("/:id", manager, async (c) => {
    await broadcasts.deleteBroadcast(storeDeps(c), c.var.member, c.req.param("id"));
    return c.json({ data: { success: true } });
  })
  .post("/:id/preview", async (c) => {
    const preview = await broadcasts.previewBroadcast(
      storeDeps(c),
      c.var.member,
      c.req.param("id"),
    );
    return c.json({ data: preview });
  })
  .get("/:id/recipients", queryParams(recipientListQuery), async (c) => {
    const page = await broadcasts.listRecipients(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
      query: c.req.valid("query"),
    });
    return c.json({ data: page });
  })
  .post("/:id/send", manager, ...optionalJsonBody(sendInput), async (c) => {
    const broadcast = await sending.sendBroadcast(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
      confirm: c.req.valid("json"),
    });
    return c.json({ data: broadcast });
  })
  .post("/:id/pause", manager, async (c) => {
    const broadcast = await sending.pauseBroadcast(storeDeps(c), c.var.member, c.req.param("id"));
    return c.json({ data: broadcast });
  })
  .post("/:id/resume", manager, async (c) => {
    const broadcast = await sending.resumeBroadcast(storeDeps(c), c.var.member, c.req.param("id"));
    return c.json({ data: broadcast });
  })
  .post("/:id/cancel", manager, async (c) => {
    const broadcast = await sending.cancelBroadcast(storeDeps(c), c.var.member, c.req.param("id"));
    return c.json({ data: broadcast });
  });
