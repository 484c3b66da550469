// Fault: Meta is down, slow or unreachable when a person sends. The message is kept as
// failed with the reason, and "Reintentar" (POST .../retry) sends the same row once.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { GraphClient } from "../../durable-objects/meta/graph";
import { GraphError } from "../../durable-objects/meta/errors";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { connectWhatsapp, openWindow } from "../support/db";
import { createConversation, createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { orgSql } from "../support/org-data";
import { connect, tick } from "../support/sockets";
import { failNext, graphRequests } from "../support/webhooks";

/** An owner whose number belongs to the fake's account (which has templates), and a conversation. */
async function setup({ window = true } = {}) {
  const owner = await createOwner();
  const connection = await connectWhatsapp(owner.organization.id, {
    businessAccountId: GRAPH_FIXTURES.wabaId,
  });
  const conversation = await createConversation(owner);
  if (window) await openWindow(owner.organization.id, conversation.id);
  const messagesPath = `/${connection.phoneNumberId}/messages`;
  return { owner, connection, conversation, messagesPath };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/** Meta refuses the next send whose body contains `text`, as when it is down. */
const metaDown = (s: Setup, text: string) =>
  failNext("graph", {
    path: `/v25.0${s.messagesPath}`,
    contains: text,
    status: 503,
    error: { message: "Service temporarily unavailable", code: 131000 },
  });

const send = (s: Setup, content: string) =>
  answer(
    api(s.owner.token).conversations.messages.$post({
      json: { conversation_id: s.conversation.id, content },
    }),
  );

const retry = (s: Setup, messageId: string, token = s.owner.token) =>
  answer(
    api(token).conversations[":id"].messages[":messageId"].retry.$post({
      param: { id: s.conversation.id, messageId },
    }),
  );

/** The messages stored in the setup's conversation. */
function storedMessages(s: Setup) {
  return orgSql<Record<string, string | null>>(
    s.owner.organization.id,
    "SELECT id, content, status, wamid, error, media_id FROM messages WHERE conversation_id = ?",
    s.conversation.id,
  );
}

/** Sends to Meta that carried `text`. */
const sendsOf = async (s: Setup, text: string) =>
  (await graphRequests(s.messagesPath)).filter((r) => JSON.stringify(r.body).includes(text));

describe("Meta down when a person sends", () => {
  it("keeps the message failed with Meta's reason; Reintentar sends the same row once", async () => {
    const s = await setup();
    const text = `Su cita es el jueves ${crypto.randomUUID()}`;
    await metaDown(s, text);
    const sent = await send(s, text);
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({
      status: "failed",
      error: "WhatsApp no pudo enviar el mensaje por un error desconocido.",
    });

    const socket = await connect(s.owner.token);
    const retried = await retry(s, sent.body.data.id);
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ id: sent.body.data.id, status: "sent", error: null });
    const rows = await storedMessages(s);
    expect(rows).toEqual([
      expect.objectContaining({ id: sent.body.data.id, status: "sent", error: null }),
    ]);
    expect(rows[0]!.wamid).toMatch(/^wamid\./);
    expect(await sendsOf(s, text)).toHaveLength(2);
    // Every console hears of it.
    await tick();
    expect(socket.received).toContainEqual({
      type: "message_status",
      data: { message: expect.objectContaining({ id: sent.body.data.id, status: "sent" }) },
    });
    socket.socket.close();

    // Sent now: a second retry is refused and sends nothing.
    const again = await retry(s, sent.body.data.id);
    expect(again.status).toBe(409);
    expect(again.body.message).toMatch(/no está fallido/);
    expect(await sendsOf(s, text)).toHaveLength(2);
  });

  it("sends once when two members retry at the same moment", async () => {
    const s = await setup();
    const text = `Doble clic ${crypto.randomUUID()}`;
    await metaDown(s, text);
    const sent = await send(s, text);
    const answers = await Promise.all([
      retry(s, sent.body.data.id),
      retry(s, sent.body.data.id),
      retry(s, sent.body.data.id),
    ]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409]);
    expect(await sendsOf(s, text)).toHaveLength(2);
    expect(await storedMessages(s)).toHaveLength(1);
  });

  it("records a dropped connection as failed, in Spanish, and a retry after it works", async () => {
    const s = await setup();
    const text = `Sin red ${crypto.randomUUID()}`;
    await failNext("graph", {
      path: `/v25.0${s.messagesPath}`,
      contains: text,
      status: 503,
      drop: true,
    });
    const sent = await send(s, text);
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({
      status: "failed",
      error: "No se pudo conectar con Meta. Inténtalo de nuevo.",
    });
    expect((await retry(s, sent.body.data.id)).body.data.status).toBe("sent");
  });

  it("ends failed, never pending nor a 500, when something that is not Meta breaks", async () => {
    const s = await setup();
    // A token that no longer decrypts (a rotated key, a damaged row).
    await env.DB.prepare(
      "UPDATE whatsapp_connections SET access_token_encrypted = 'v1.AAAAAAAAAAAAAAAA.AAAA' WHERE organization_id = ?",
    )
      .bind(s.owner.organization.id)
      .run();
    const sent = await send(s, "Hola");
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({
      status: "failed",
      error: expect.stringContaining("error inesperado"),
    });
    expect((await storedMessages(s))[0]!.status).toBe("failed");
  });

  it("gives up on a Meta that does not answer in time, with a Spanish reason", async () => {
    const s = await setup();
    const text = `Lento ${crypto.randomUUID()}`;
    await failNext("graph", { path: `/v25.0${s.messagesPath}`, contains: text, delay_ms: 1_000 });
    const graph = new GraphClient(env.META_GRAPH_URL, "test-access-token", 100);
    const error = await graph
      .sendMessage(
        s.connection.phoneNumberId,
        { phoneNumber: "34600000000", waUserId: null },
        "text",
        { body: text },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphError);
    expect((error as GraphError).message).toMatch(/^Meta no respondió a tiempo/);
  });

  it("sends a message stored while WhatsApp was disconnected, once it is connected", async () => {
    const owner = await createOwner();
    const conversation = await createConversation(owner);
    await openWindow(owner.organization.id, conversation.id);
    const sent = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: conversation.id, content: "Te llamo mañana" },
      }),
    );
    expect(sent.body.data.error).toMatch(/WhatsApp no está conectado/);
    await connectWhatsapp(owner.organization.id);
    const retried = await answer(
      api(owner.token).conversations[":id"].messages[":messageId"].retry.$post({
        param: { id: conversation.id, messageId: sent.body.data.id },
      }),
    );
    expect(retried.body.data).toMatchObject({ id: sent.body.data.id, status: "sent" });
  });
});

describe("Meta's throughput limit (130429)", () => {
  const throttle = (s: Setup, text: string, times: number) =>
    failNext("graph", {
      path: `/v25.0${s.messagesPath}`,
      contains: text,
      status: 400,
      times,
      error: { message: "(#130429) Rate limit hit", code: 130429 },
    });

  it("asks Meta again after a pause: the message is sent, once", async () => {
    const s = await setup();
    const text = `Te confirmo la cita ${crypto.randomUUID()}`;
    await throttle(s, text, 1);
    const sent = await send(s, text);
    expect(sent.body.data).toMatchObject({ status: "sent", error: null });
    expect(await sendsOf(s, text)).toHaveLength(2);
    expect(await storedMessages(s)).toEqual([
      expect.objectContaining({ id: sent.body.data.id, status: "sent" }),
    ]);
  });

  it("fails the message with Meta's reason after three refusals", async () => {
    const s = await setup();
    const text = `Mañana abrimos a las 10 ${crypto.randomUUID()}`;
    await throttle(s, text, 3);
    const sent = await send(s, text);
    expect(sent.body.data).toMatchObject({
      status: "failed",
      error: "Se alcanzó el límite de envío de WhatsApp. Inténtalo en unos minutos.",
    });
    expect(await sendsOf(s, text)).toHaveLength(3);
  });
});

describe("what Reintentar refuses", () => {
  it("answers 404 for another organization's message, and 409 for one that did not fail", async () => {
    const s = await setup();
    const text = `Ajeno ${crypto.randomUUID()}`;
    await metaDown(s, text);
    const failed = await send(s, text);
    const stranger = await createOwner();
    expect((await retry(s, failed.body.data.id, stranger.token)).status).toBe(404);
    expect(
      (
        await answer(
          api(s.owner.token).conversations[":id"].messages[":messageId"].retry.$post({
            param: { id: s.conversation.id, messageId: "nada" },
          }),
        )
      ).status,
    ).toBe(404);

    const ok = await send(s, "Enviado bien");
    const refused = await retry(s, ok.body.data.id);
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ error: "conflict" });
    expect(await storedMessages(s)).toHaveLength(2);
  });

  it("keeps free text failed once the 24-hour window has closed; a template goes any time", async () => {
    const s = await setup();
    const text = `Fuera de ventana ${crypto.randomUUID()}`;
    await metaDown(s, text);
    const failedText = await send(s, text);
    const name = `Ana ${crypto.randomUUID().slice(0, 8)}`;
    await metaDown(s, name);
    const failedTemplate = await answer(
      api(s.owner.token).conversations.messages.$post({
        json: {
          conversation_id: s.conversation.id,
          template: { name: "seguimiento_cita", language: "es", parameters: [name] },
        },
      }),
    );
    expect(failedTemplate.body.data).toMatchObject({ type: "template", status: "failed" });
    await openWindow(
      s.owner.organization.id,
      s.conversation.id,
      new Date(Date.now() - 25 * 3600_000).toISOString(),
    );

    const closed = await retry(s, failedText.body.data.id);
    expect(closed.status).toBe(422);
    expect(closed.body.error).toBe("window_closed");
    expect((await storedMessages(s)).find((m) => m.content === text)!.status).toBe("failed");

    const template = await retry(s, failedTemplate.body.data.id);
    expect(template.status).toBe(200);
    expect(template.body.data).toMatchObject({
      status: "sent",
      content: `Hola ${name}, ¿te confirmamos la cita?`,
    });
    const [first, second] = await sendsOf(s, name);
    expect(second.body).toEqual(first.body);
    expect(second.body.template).toMatchObject({
      name: "seguimiento_cita",
      components: [{ type: "body", parameters: [{ type: "text", text: name }] }],
    });
  });
});

describe("Reintentar with a file", () => {
  function upload(s: Setup, file: File, caption: string) {
    const form = new FormData();
    form.set("file", file);
    form.set("caption", caption);
    return exports.default.fetch(
      `http://localhost/api/v1/conversations/${s.conversation.id}/media`,
      { method: "POST", headers: { Authorization: `Bearer ${s.owner.token}` }, body: form },
    );
  }

  it("asks to attach again a file Meta never got, and re-sends one it has by its id", async () => {
    const s = await setup();
    const marker = crypto.randomUUID();
    const pdf = new File([`%PDF-1.4 ${marker}`], "presupuesto.pdf", { type: "application/pdf" });
    await failNext("graph", {
      path: `/v25.0/${s.connection.phoneNumberId}/media`,
      contains: marker,
      status: 503,
      error: { message: "Upload failed", code: 131053 },
    });
    const notUploaded = (await (await upload(s, pdf, "")).json()) as any;
    expect(notUploaded.data).toMatchObject({ status: "failed", media: null });
    const attachAgain = await retry(s, notUploaded.data.id);
    expect(attachAgain.status).toBe(422);
    expect(attachAgain.body).toMatchObject({
      error: "attach_again",
      message: expect.stringContaining("vuelve a adjuntarlo"),
    });

    const caption = `Presupuesto ${marker}`;
    await metaDown(s, caption);
    const uploaded = (await (await upload(s, pdf, caption)).json()) as any;
    expect(uploaded.data).toMatchObject({ status: "failed", media: { id: expect.any(String) } });
    const uploads = (await graphRequests(`/${s.connection.phoneNumberId}/media`)).length;
    const retried = await retry(s, uploaded.data.id);
    expect(retried.body.data).toMatchObject({ status: "sent", media: uploaded.data.media });
    // Sent by the id Meta already had: nothing uploaded again.
    expect((await graphRequests(`/${s.connection.phoneNumberId}/media`)).length).toBe(uploads);
    const [, resent] = await sendsOf(s, caption);
    expect(resent.body.document).toMatchObject({ id: uploaded.data.media.id, caption });
  });
});
