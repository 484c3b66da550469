import { Hono } from "hono";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { costlyWrite } from "../../worker/http/write-limits";
import { discardDraft, suggestDraft } from "./drafts";

/** `/conversations/{id}/draft`: the AI's suggestion, asked for or discarded by any member. */
export const draftRoutes = new Hono<AppContext>()
  // A model call: the member's costly-write limit, as the sandbox.
  .post("/:id/draft", costlyWrite("model"), async (c) => {
    const draft = await suggestDraft(storeDeps(c), c.var.member, { id: c.req.param("id") });
    return c.json({ data: { draft } });
  })
  .delete("/:id/draft", async (c) => {
    await discardDraft(storeDeps(c), c.var.member, { id: c.req.param("id") });
    return c.json({ data: { success: true } });
  });
