import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { requireRole } from "../../worker/http/auth";
import { formBody, jsonBody, queryParams } from "../../worker/http/validate";
import {
  KNOWLEDGE_FILE_MAX_BYTES,
  knowledgeCreateInput,
  knowledgeImportForm,
  knowledgeListQuery,
  knowledgeUpdateInput,
} from "../../contracts/knowledge";
import { fileTooLarge } from "./extract";
import * as knowledge from "./service";

const manage = requireRole("owner", "admin");

/** The file plus the form's own bytes; a larger body is refused before it is read. */
const importBodyLimit = bodyLimit({
  maxSize: KNOWLEDGE_FILE_MAX_BYTES + 64 * 1024,
  onError: () => {
    throw fileTooLarge();
  },
});

export const knowledgeRoutes = new Hono<AppContext>()
  .get("/", queryParams(knowledgeListQuery), async (c) =>
    c.json({
      data: await knowledge.listKnowledge(storeDeps(c), c.var.member, c.req.valid("query")),
    }),
  )
  .post("/", manage, ...jsonBody(knowledgeCreateInput), async (c) => {
    const entry = await knowledge.createKnowledge(storeDeps(c), c.var.member, c.req.valid("json"));
    return c.json({ data: entry }, 201);
  })
  .post("/import", manage, importBodyLimit, ...formBody(knowledgeImportForm), async (c) => {
    const entry = await knowledge.importKnowledge(storeDeps(c), c.var.member, c.req.valid("form"));
    return c.json({ data: entry }, 201);
  })
  .get("/:id", async (c) =>
    c.json({ data: await knowledge.getKnowledge(storeDeps(c), c.var.member, c.req.param()) }),
  )
  .patch("/:id", manage, ...jsonBody(knowledgeUpdateInput), async (c) => {
    const entry = await knowledge.updateKnowledge(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
      changes: c.req.valid("json"),
    });
    return c.json({ data: entry });
  })
  .delete("/:id", manage, async (c) => {
    await knowledge.deleteKnowledge(storeDeps(c), c.var.member, { id: c.req.param("id") });
    return c.json({ data: { success: true } });
  });
