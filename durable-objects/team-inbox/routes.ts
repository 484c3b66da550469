import { Hono } from "hono";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { requireRole } from "../../worker/http/auth";
import { jsonBody, queryParams } from "../../worker/http/validate";
import {
  conversationLabelsInput,
  labelInput,
  labelUpdateInput,
  mentionsQuery,
  noteInput,
} from "../../contracts/team-inbox";
import * as labels from "./labels-service";
import * as notes from "./notes-service";

const manager = requireRole("owner", "admin");

/** `/labels`: every member reads them; owners and admins write them. */
export const labelRoutes = new Hono<AppContext>()
  .get("/", async (c) => {
    return c.json({ data: { labels: await labels.listLabels(storeDeps(c), c.var.member) } });
  })
  .post("/", manager, ...jsonBody(labelInput), async (c) => {
    const label = await labels.createLabel(storeDeps(c), c.var.member, c.req.valid("json"));
    return c.json({ data: label }, 201);
  })
  .patch("/:id", manager, ...jsonBody(labelUpdateInput), async (c) => {
    const label = await labels.updateLabel(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
      changes: c.req.valid("json"),
    });
    return c.json({ data: label });
  })
  .delete("/:id", manager, async (c) => {
    await labels.deleteLabel(storeDeps(c), c.var.member, { id: c.req.param("id") });
    return c.json({ data: { success: true } });
  });

/** Beside the conversation routes: a conversation's labels and internal notes. */
export const teamConversationRoutes = new Hono<AppContext>()
  .put("/:id/labels", ...jsonBody(conversationLabelsInput), async (c) => {
    const conversation = await labels.setConversationLabels(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
      ...c.req.valid("json"),
    });
    return c.json({ data: conversation });
  })
  .post("/:id/notes", ...jsonBody(noteInput), async (c) => {
    // The note, and the same note as the thread's message (the console places it at once).
    const created = await notes.createNote(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
      ...c.req.valid("json"),
    });
    return c.json({ data: created }, 201);
  });

/** `/mentions`: the caller's own, under "Menciones". */
export const mentionRoutes = new Hono<AppContext>()
  .get("/", queryParams(mentionsQuery), async (c) => {
    const mentions = await notes.listMentions(storeDeps(c), c.var.member, c.req.valid("query"));
    return c.json({ data: { mentions } });
  })
  .patch("/:id/read", async (c) => {
    const mention = await notes.readMention(storeDeps(c), c.var.member, { id: c.req.param("id") });
    return c.json({ data: mention });
  });
