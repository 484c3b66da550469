import { Hono } from "hono";
import type { AppContext } from "../http/context";
import { requireCaller, requireMember } from "../http/auth";
import { jsonBody } from "../http/validate";
import { quickReplyInput, quickReplyUpdateInput } from "./quick-replies-contract";
import * as quickReplies from "./quick-replies-service";

/** Every member uses and manages the team's quick replies. */
export const quickReplyRoutes = new Hono<AppContext>()
  .use(requireCaller, requireMember)
  .get("/", async (c) =>
    c.json({ data: await quickReplies.listQuickReplies(c.var.deps.orgDb, c.var.member) }),
  )
  .post("/", ...jsonBody(quickReplyInput), async (c) => {
    const reply = await quickReplies.createQuickReply(
      c.var.deps.orgDb,
      c.var.member,
      c.req.valid("json"),
    );
    return c.json({ data: reply }, 201);
  })
  .patch("/:id", ...jsonBody(quickReplyUpdateInput), async (c) => {
    const reply = await quickReplies.updateQuickReply(c.var.deps.orgDb, c.var.member, {
      id: c.req.param("id"),
      changes: c.req.valid("json"),
    });
    return c.json({ data: reply });
  })
  .delete("/:id", async (c) => {
    await quickReplies.deleteQuickReply(c.var.deps.orgDb, c.var.member, { id: c.req.param("id") });
    return c.json({ data: { success: true } });
  });
