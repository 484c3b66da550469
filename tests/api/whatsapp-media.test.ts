// Hand-built uploads here are the subject: multipart forms as a browser sends them, some broken.
// Beyond text (server-contract §7b): templates, media both ways and the business's reactions,
// against the local Graph fake.
import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { delivery, inboundMessage, wamid } from "../fakes/whatsapp-payloads.mjs";
import { connectWhatsapp, openWindow } from "../support/db";
import { createConversation, createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { customerThread } from "../support/conversations";
import { orgSql } from "../support/org-data";
import { customerPhone, deliver, graphRequests } from "../support/webhooks";

const F = GRAPH_FIXTURES;

/** An owner whose number is connected to the fake's account (which has templates). */
async function connectedOwner() {
  const owner = await createOwner();
  const connection = await connectWhatsapp(owner.organization.id, { businessAccountId: F.wabaId });
  return { ...owner, connection };
}

function messageRows(organizationId: string, conversationId: string) {
  return orgSql<Record<string, string>>(
    organizationId,
    "SELECT type, content, status, media_id, media_mime_type, reactions, direction FROM messages WHERE conversation_id = ? ORDER BY created_at",
    conversationId,
  );
}

function upload(token: string, conversationId: string, file: File | null, caption?: string) {
  const form = new FormData();
  if (file) form.set("file", file);
  if (caption !== undefined) form.set("caption", caption);
  return exports.default.fetch(`http://localhost/api/v1/conversations/${conversationId}/media`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}` },
    body: form,
  });
}

describe("templates", () => {
  it("lists the account's templates as Meta has them", async () => {
    const owner = await connectedOwner();
    const response = await answer(api(owner.token)["whatsapp-config"].templates.$get());
    expect(response.status).toBe(200);
    const templates = response.body.data.templates;
    expect(templates.map((t: any) => `${t.name}:${t.status}`)).toEqual([
      "seguimiento_cita:APPROVED",
      "bienvenida:APPROVED",
      "codigo_acceso:APPROVED",
      "promo_rechazada:REJECTED",
    ]);
    expect(templates[0]).toEqual({
      name: "seguimiento_cita",
      language: "es",
      category: "UTILITY",
      status: "APPROVED",
      components: [{ type: "BODY", text: "Hola {{1}}, ¿te confirmamos la cita?" }],
    });
  });

  it("sends an approved template outside the window, with its parameter filled in", async () => {
    const owner = await connectedOwner();
    // Created by the team: the customer never wrote, so the window is closed.
    const conversation = await createConversation(owner);
    const text = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: conversation.id, content: "Hola" },
      }),
    );
    expect(text.status).toBe(422);
    expect(text.body.error).toBe("window_closed");

    const response = await answer(
      api(owner.token).conversations.messages.$post({
        json: {
          conversation_id: conversation.id,
          template: { name: "seguimiento_cita", language: "es", parameters: ["Ana"] },
        },
      }),
    );
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      type: "template",
      content: "Hola Ana, ¿te confirmamos la cita?",
      status: "sent",
      sender_type: "agent",
    });
    const sent = (await graphRequests(`/${owner.connection.phoneNumberId}/messages`)).at(-1);
    expect(sent.body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: conversation.phone_number,
      type: "template",
      template: {
        name: "seguimiento_cita",
        language: { code: "es" },
        components: [{ type: "body", parameters: [{ type: "text", text: "Ana" }] }],
      },
    });
  });

  it.each([
    ["a rejected template", { name: "promo_rechazada", language: "es" }, "template_not_approved"],
    ["an unknown template", { name: "no_existe", language: "es" }, "template_not_found"],
    [
      "a missing parameter",
      { name: "seguimiento_cita", language: "es", parameters: [] },
      "template_parameters",
    ],
  ])("refuses %s before calling Meta, storing nothing", async (_, template, code) => {
    const owner = await connectedOwner();
    const conversation = await createConversation(owner);
    const response = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: conversation.id, template },
      }),
    );
    expect(response.status).toBe(422);
    expect(response.body.error).toBe(code);
    expect(await messageRows(owner.organization.id, conversation.id)).toEqual([]);
    expect(await graphRequests(`/${owner.connection.phoneNumberId}/messages`)).toEqual([]);
  });

  it("refuses text and template together, and neither", async () => {
    const owner = await connectedOwner();
    const conversation = await createConversation(owner);
    for (const body of [
      {
        conversation_id: conversation.id,
        content: "Hola",
        template: { name: "bienvenida", language: "es" },
      },
      { conversation_id: conversation.id },
    ]) {
      const response = await answer(api(owner.token).conversations.messages.$post({ json: body }));
      expect(response.status).toBe(422);
    }
  });

  it("follows the status webhook: a template Meta pauses can no longer be sent", async () => {
    const owner = await connectedOwner();
    const conversation = await createConversation(owner);
    await answer(api(owner.token)["whatsapp-config"].templates.$get());
    const update = await deliver({
      object: "whatsapp_business_account",
      entry: [
        {
          id: F.wabaId,
          time: Math.floor(Date.now() / 1000),
          changes: [
            {
              field: "message_template_status_update",
              value: {
                event: "PAUSED",
                message_template_id: 1002,
                message_template_name: "bienvenida",
                message_template_language: "es",
                reason: "Calidad baja",
              },
            },
          ],
        },
      ],
    });
    expect(update.status).toBe(200);
    const response = await answer(
      api(owner.token).conversations.messages.$post({
        json: {
          conversation_id: conversation.id,
          template: { name: "bienvenida", language: "es" },
        },
      }),
    );
    expect(response.status).toBe(422);
    expect(response.body.error).toBe("template_not_approved");
  });
});

describe("media", () => {
  async function inboundImage(owner: Awaited<ReturnType<typeof connectedOwner>>) {
    const from = customerPhone();
    await deliver(
      delivery(
        inboundMessage({
          phoneNumberId: owner.connection.phoneNumberId,
          from,
          type: "image",
          part: { id: "4455667788", mime_type: "image/png", sha256: "x", caption: "Mi sonrisa" },
        }),
      ),
    );
    const { conversation, messages } = await customerThread(owner.token, from);
    return { conversation, message: messages[0]! };
  }

  it("streams a customer's image to the organization, and to nobody else", async () => {
    const owner = await connectedOwner();
    const { conversation, message } = await inboundImage(owner);
    expect(message).toMatchObject({
      type: "image",
      content: "Mi sonrisa",
      media: { id: "4455667788", mime_type: "image/png" },
    });
    const media = (token?: string) =>
      api(token).conversations[":id"].messages[":messageId"].media.$get({
        param: { id: conversation.id, messageId: message.id },
      });
    const file = await media(owner.token);
    expect(file.status).toBe(200);
    expect(file.headers.get("Content-Type")).toBe("image/png");
    expect(file.headers.get("Content-Disposition")).toBe("inline");
    const bytes = new Uint8Array(await file.arrayBuffer());
    expect([...bytes.slice(1, 4)].map((b) => String.fromCharCode(b)).join("")).toBe("PNG");
    // Meta's download URL was fetched with the organization's token.
    const download = (await graphRequests("/media-download/4455667788")).at(-1);
    expect(download.headers.authorization).toBe("Bearer test-access-token");

    const stranger = await connectedOwner();
    const other = await media(stranger.token);
    expect(other.status).toBe(404);
    const anonymous = await media();
    expect(anonymous.status).toBe(401);
  });

  describe("served so that nothing a customer sent can run in the console's origin", () => {
    /** A customer's file as the console fetches it. */
    async function served(type: string, part: Record<string, unknown>) {
      const owner = await connectedOwner();
      const from = customerPhone();
      const id = String(Math.floor(Math.random() * 1e12));
      await deliver(
        delivery(
          inboundMessage({
            phoneNumberId: owner.connection.phoneNumberId,
            from,
            type,
            part: { id, sha256: "x", ...part },
          }),
        ),
      );
      const { conversation, messages } = await customerThread(owner.token, from);
      const message = messages[0]!;
      const file = await api(owner.token).conversations[":id"].messages[":messageId"].media.$get({
        param: { id: conversation.id, messageId: message.id },
      });
      expect(file.status).toBe(200);
      await file.arrayBuffer();
      expect(file.headers.get("X-Content-Type-Options")).toBe("nosniff");
      expect(file.headers.get("Content-Security-Policy")).toMatch(/default-src 'none'.*sandbox/);
      return file.headers;
    }

    it("an HTML document is a download of no runnable type", async () => {
      const headers = await served("document", {
        mime_type: "text/html",
        filename: "factura <script>.html",
      });
      expect(headers.get("Content-Type")).toBe("application/octet-stream");
      expect(headers.get("Content-Disposition")).toBe(
        `attachment; filename="factura_script_.html"; filename*=UTF-8''factura%20%3Cscript%3E.html`,
      );
    });

    it("an SVG picture is not shown inline (it can carry script)", async () => {
      const headers = await served("image", { mime_type: "image/svg+xml" });
      expect(headers.get("Content-Type")).toBe("application/octet-stream");
      expect(headers.get("Content-Disposition")).toMatch(/^attachment; filename="archivo"/);
    });

    it("a PDF is a download of its own type", async () => {
      const headers = await served("document", {
        mime_type: "application/pdf",
        filename: "presupuesto.pdf",
      });
      expect(headers.get("Content-Type")).toBe("application/pdf");
      expect(headers.get("Content-Disposition")).toMatch(/^attachment; filename="presupuesto.pdf"/);
    });

    it("pictures, voice notes and videos are shown inline", async () => {
      for (const [type, mime, servedAs] of [
        ["image", "image/jpeg", "image/jpeg"],
        ["audio", "audio/ogg; codecs=opus", "audio/ogg"],
        ["video", "video/mp4", "video/mp4"],
      ]) {
        const headers = await served(type!, { mime_type: mime });
        expect(headers.get("Content-Type")).toBe(servedAs);
        expect(headers.get("Content-Disposition")).toBe("inline");
      }
    });
  });

  it("answers 404 for a message without a file", async () => {
    const owner = await connectedOwner();
    const conversation = await createConversation(owner);
    await openWindow(owner.organization.id, conversation.id);
    const sent = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: conversation.id, content: "Hola" },
      }),
    );
    const response = await answer(
      api(owner.token).conversations[":id"].messages[":messageId"].media.$get({
        param: { id: conversation.id, messageId: sent.body.data.id },
      }),
    );
    expect(response.status).toBe(404);
  });

  it("uploads a file to Meta and sends it with its caption", async () => {
    const owner = await connectedOwner();
    const conversation = await createConversation(owner);
    await openWindow(owner.organization.id, conversation.id);
    const pdf = new File([new Uint8Array([37, 80, 68, 70, 45])], "presupuesto.pdf", {
      type: "application/pdf",
    });
    const response = await upload(owner.token, conversation.id, pdf, "Tu presupuesto");
    expect(response.status).toBe(201);
    const message = ((await response.json()) as any).data;
    expect(message).toMatchObject({
      type: "document",
      content: "Tu presupuesto",
      status: "sent",
      media: { mime_type: "application/pdf" },
    });

    const uploaded = (await graphRequests(`/${owner.connection.phoneNumberId}/media`)).at(-1);
    expect(uploaded.body).toMatchObject({
      messaging_product: "whatsapp",
      type: "application/pdf",
      file: { name: "presupuesto.pdf", type: "application/pdf", size: 5 },
    });
    const sent = (await graphRequests(`/${owner.connection.phoneNumberId}/messages`)).at(-1);
    expect(sent.body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: conversation.phone_number,
      type: "document",
      document: { id: message.media.id, caption: "Tu presupuesto", filename: "presupuesto.pdf" },
    });
  });

  it.each([
    [
      "an unsupported type",
      new File(["MZ"], "programa.exe", { type: "application/x-msdownload" }),
      422,
      /no admite este tipo de archivo/,
    ],
    [
      "an image over 5 MB",
      new File([new Uint8Array(5 * 1024 * 1024 + 1)], "foto.png", { type: "image/png" }),
      413,
      /supera el máximo de WhatsApp para este tipo \(5 MB\)/,
    ],
    [
      "a file over the console's 16 MB",
      new File([new Uint8Array(17 * 1024 * 1024)], "video.mp4", { type: "video/mp4" }),
      413,
      /16 MB/,
    ],
    ["no file", null, 422, /Datos inválidos/],
  ])("refuses %s before uploading, storing nothing", async (_, file, status, message) => {
    const owner = await connectedOwner();
    const conversation = await createConversation(owner);
    await openWindow(owner.organization.id, conversation.id);
    const response = await upload(owner.token, conversation.id, file);
    expect(response.status).toBe(status);
    expect(((await response.json()) as any).message).toMatch(message);
    expect(await messageRows(owner.organization.id, conversation.id)).toEqual([]);
    expect(await graphRequests(`/${owner.connection.phoneNumberId}/media`)).toEqual([]);
  });

  it("refuses a file outside the window", async () => {
    const owner = await connectedOwner();
    const conversation = await createConversation(owner);
    const image = new File([new Uint8Array([137, 80, 78, 71])], "a.png", { type: "image/png" });
    const response = await upload(owner.token, conversation.id, image);
    expect(response.status).toBe(422);
    expect(((await response.json()) as any).error).toBe("window_closed");
  });
});

describe("reactions from the business", () => {
  it("reacts to a customer's message through WhatsApp, and removes the reaction", async () => {
    const owner = await connectedOwner();
    const from = customerPhone();
    const id = wamid();
    await deliver(
      delivery(inboundMessage({ phoneNumberId: owner.connection.phoneNumberId, from, id })),
    );
    const { conversation, messages } = await customerThread(owner.token, from);
    const message = messages[0]!;
    const react = (token: string, emoji: string) =>
      answer(
        api(token).conversations[":id"].messages[":messageId"].reaction.$post({
          param: { id: conversation.id, messageId: message.id },
          json: { emoji },
        }),
      );

    const reacted = await react(owner.token, "👍");
    expect(reacted.status).toBe(200);
    expect(reacted.body.data.reactions).toEqual([
      { emoji: "👍", from: "business", at: expect.any(String) },
    ]);
    const sent = (await graphRequests(`/${owner.connection.phoneNumberId}/messages`)).at(-1);
    expect(sent.body).toMatchObject({
      type: "reaction",
      to: from,
      reaction: { message_id: id, emoji: "👍" },
    });

    const removed = await react(owner.token, "");
    expect(removed.body.data.reactions).toEqual([]);

    const twoEmojis = await react(owner.token, "👍👍");
    expect(twoEmojis.status).toBe(422);
    const stranger = await connectedOwner();
    expect((await react(stranger.token, "👍")).status).toBe(404);
  });
});
