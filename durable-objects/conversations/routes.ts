import { Hono } from "hono";
import { createFactory } from "hono/factory";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { formBody, jsonBody, queryParams } from "../../worker/http/validate";
import { costlyWrite } from "../../worker/http/write-limits";
import {
  assignInput,
  conversationCreateInput,
  conversationListQuery,
  conversationUpdateInput,
  mediaUploadForm,
  messagesQuery,
  reactionInput,
  sendMessageInput,
} from "../../contracts/conversations";
import * as messages from "./messages-service";
import * as conversations from "./service";
import * as threadControl from "./thread-control-service";

/** Handlers answered at more than one path (the spec's aliases), written once. */
const handlers = createFactory<AppContext>();

const listConversations = handlers.createHandlers(queryParams(conversationListQuery), async (c) => {
  const list = await conversations.listConversations(
    storeDeps(c),
    c.var.member,
    c.req.valid("query"),
  );
  return c.json({ data: list });
});

const getConversation = handlers.createHandlers(async (c) => {
  const conversation = await conversations.getConversation(storeDeps(c), c.var.member, {
    id: c.req.param("id")!,
  });
  return c.json({ data: conversation });
});

const sendMessage = handlers.createHandlers(...jsonBody(sendMessageInput), async (c) => {
  const message = await messages.sendMessage(storeDeps(c), c.var.member, c.req.valid("json"));
  return c.json({ data: message }, 201);
});

/** `:id` on the main path, `:conversationId` on the legacy one. */
const listMessages = handlers.createHandlers(queryParams(messagesQuery), async (c) => {
  const page = await messages.listMessages(storeDeps(c), c.var.member, {
    id: (c.req.param("id") ?? c.req.param("conversationId"))!,
    query: c.req.valid("query"),
  });
  return c.json({ data: page });
});

/** Every member of the organization works conversations, whatever their role. */
export const conversationRoutes = new Hono<AppContext>()
  .get("/", ...listConversations)
  .get("/search", ...listConversations)
  .get("/stats", async (c) => {
    return c.json({ data: await conversations.conversationStats(storeDeps(c), c.var.member) });
  })
  .post("/", ...jsonBody(conversationCreateInput), async (c) => {
    const conversation = await conversations.createConversation(
      storeDeps(c),
      c.var.member,
      c.req.valid("json"),
    );
    return c.json({ data: conversation }, 201);
  })
  .post("/messages", ...sendMessage)
  .get("/:id", ...getConversation)
  .patch("/:id", ...jsonBody(conversationUpdateInput), async (c) => {
    const conversation = await conversations.updateConversation(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
      changes: c.req.valid("json"),
    });
    return c.json({ data: conversation });
  })
  .patch("/:id/assign", ...jsonBody(assignInput), async (c) => {
    const conversation = await conversations.assignConversation(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
      agentId: c.req.valid("json").agent_id,
    });
    return c.json({ data: conversation });
  })
  .patch("/:id/unassign", async (c) => {
    const conversation = await conversations.unassignConversation(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
    });
    return c.json({ data: conversation });
  })
  .patch("/:id/read", async (c) => {
    const conversation = await messages.markRead(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
    });
    return c.json({ data: conversation });
  })
  .post("/:id/media", ...formBody(mediaUploadForm), async (c) => {
    const message = await messages.sendMedia(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
      upload: c.req.valid("form"),
    });
    return c.json({ data: message }, 201);
  })
  .get("/:id/messages/:messageId/media", async (c) => {
    const media = await messages.messageMedia(storeDeps(c), c.var.member, c.req.param());
    return c.body(media.body, 200, media.headers);
  })
  // Who answers on a number shared with the WhatsApp Business app or Meta's AI (section 16).
  .post("/:id/resume-ai", async (c) => {
    const conversation = await threadControl.resumeAi(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
    });
    return c.json({ data: conversation });
  })
  .post("/:id/return-to-meta-ai", async (c) => {
    const conversation = await threadControl.returnToMetaAi(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
    });
    return c.json({ data: conversation });
  })
  .post("/:id/request-phone", async (c) => {
    const message = await messages.requestPhone(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
    });
    return c.json({ data: message }, 201);
  })
  .post("/:id/messages/:messageId/retry", async (c) => {
    const message = await messages.retryMessage(storeDeps(c), c.var.member, c.req.param());
    return c.json({ data: message });
  })
  .post("/:id/messages/:messageId/transcript", costlyWrite("model"), async (c) => {
    const message = await messages.retryTranscript(storeDeps(c), c.var.member, c.req.param());
    return c.json({ data: message }, 202);
  })
  .post("/:id/messages/:messageId/reaction", ...jsonBody(reactionInput), async (c) => {
    const message = await messages.reactToMessage(storeDeps(c), c.var.member, {
      ...c.req.param(),
      emoji: c.req.valid("json").emoji,
    });
    return c.json({ data: message });
  })
  .get("/:id/messages", ...listMessages);

/** The legacy `/whatsapp/...` paths of the spec, answered by the same services. */
export const legacyWhatsappRoutes = new Hono<AppContext>()
  .get("/conversations/:id", ...getConversation)
  .get("/messages/:conversationId", ...listMessages)
  .post("/messages", ...sendMessage);
