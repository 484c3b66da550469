import { Hono } from "hono";
import { storeDeps, type AppContext } from "../http/context";
import { requireCaller, requireMember } from "../http/auth";
import { costlyWrite } from "../http/write-limits";
import { discardDraft, suggestDraft } from "./drafts";

/** Mounted beside the conversation routes: middleware stays on each route, not on a prefix. */
const member = [requireCaller, requireMember] as const;

/** `/conversations/{id}/draft`: the AI's suggestion, asked for or discarded by any member. */
export const draftRoutes = new Hono<AppContext>()
  // A model call: the member's costly-write limit, as the sandbox.
  .post("/:id/draft", ...member, costlyWrite("model"), async (c) => {
    const draft = await suggestDraft(storeDeps(c), c.var.member, { id: c.req.param("id") });
    return c.json({ data: { draft } });
  })
  .delete("/:id/draft", ...member, async (c) => {
    await discardDraft(storeDeps(c), c.var.member, { id: c.req.param("id") });
    return c.json({ data: { success: true } });
  });
