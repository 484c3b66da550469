import { Hono } from "hono";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { jsonBody } from "../../worker/http/validate";
import { quickReplyInput, quickReplyUpdateInput } from "../../contracts/quick-replies";
import * as quickReplies from "./quick-replies-service";

/** Every member uses and manages the team's quick replies. */
export const quickReplyRoutes = new Hono<AppContext>()
  .get("/", async (c) =>
    c.json({ data: await quickReplies.listQuickReplies(storeDeps(c).orgDb, c.var.member) }),
  )
  .post("/", ...jsonBody(quickReplyInput), async (c) => {
    const reply = await quickReplies.createQuickReply(
      storeDeps(c).orgDb,
      c.var.member,
      c.req.valid("json"),
    );
    return c.json({ data: reply }, 201);
  })
  .patch("/:id", ...jsonBody(quickReplyUpdateInput), async (c) => {
    const reply = await quickReplies.updateQuickReply(storeDeps(c).orgDb, c.var.member, {
      id: c.req.param("id"),
      changes: c.req.valid("json"),
    });
    return c.json({ data: reply });
  })
  .delete("/:id", async (c) => {
    await quickReplies.deleteQuickReply(storeDeps(c).orgDb, c.var.member, {
      id: c.req.param("id"),
    });
    return c.json({ data: { success: true } });
  });
