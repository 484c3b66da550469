// Hand-built requests here are the subject: Meta's signed deliveries and its verification GETs.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  burst,
  ctwaReferral,
  delivery,
  inboundMessage,
  statusUpdate,
  wamid,
} from "../fakes/whatsapp-payloads.mjs";
import { connectWhatsapp, openWindow } from "../support/db";
import { createAgent, createConversation, createOwner, randomIp } from "../support/factories";
import { answer, api } from "../support/api";
import { call } from "../support/http";
import { orgFirst, orgSql } from "../support/org-data";
import { connect, tick } from "../support/sockets";
import { customerPhone, deliver, failNext, graphRequests } from "../support/webhooks";

async function connectedOwner(defaultAgent = false) {
  const owner = await createOwner();
  const agent = defaultAgent ? await createAgent(owner, { is_active: false }) : null;
  const connection = await connectWhatsapp(owner.organization.id, { defaultAgentId: agent?.id });
  return { owner, agent, phoneNumberId: connection.phoneNumberId };
}

function messagesOf(organizationId: string, conversationId: string) {
  return orgSql<Record<string, any>>(
    organizationId,
    "SELECT * FROM messages WHERE conversation_id = ? ORDER BY created_at, id",
    conversationId,
  );
}

function conversationFor(organizationId: string, phone: string) {
  return orgFirst<Record<string, any>>(
    organizationId,
    "SELECT * FROM conversations WHERE organization_id = ? AND phone_number = ?",
    organizationId,
    phone,
  );
}

/** One column of a stored message. */
async function messageColumn(organizationId: string, messageId: string, column: string) {
  const row = await orgFirst(
    organizationId,
    `SELECT ${column} FROM messages WHERE id = ?`,
    messageId,
  );
  return row![column] as string;
}

describe("GET /webhooks/whatsapp (verification)", () => {
  it("echoes the challenge for the app token or an organization's token, else 403", async () => {
    const ok = await call(
      "GET",
      "/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=test-verify-token&hub.challenge=12345",
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toBe(12345);

    const { owner } = await connectedOwner();
    const generated = await answer(
      api(owner.token)["whatsapp-config"]["generate-webhook-token"].$post(),
    );
    const token = generated.body.data.webhook_token;
    const org = await call(
      "GET",
      `/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=${token}&hub.challenge=abc`,
    );
    expect(org.status).toBe(200);
    expect(org.body).toBe("abc");

    for (const query of [
      "hub.mode=subscribe&hub.verify_token=otro&hub.challenge=1",
      "hub.mode=unsubscribe&hub.verify_token=test-verify-token&hub.challenge=1",
      "",
    ]) {
      expect((await call("GET", `/webhooks/whatsapp?${query}`)).status).toBe(403);
    }
  });
});

describe("GET /webhooks/whatsapp answers inert text", () => {
  const verify = (challenge?: string) => {
    const query = new URLSearchParams({
      "hub.mode": "subscribe",
      "hub.verify_token": "test-verify-token",
      ...(challenge !== undefined && { "hub.challenge": challenge }),
    });
    return exports.default.fetch(`http://localhost/webhooks/whatsapp?${query}`);
  };

  it("echoes the challenge as text/plain with nosniff", async () => {
    const res = await verify("1158201444");
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(res.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(await res.text()).toBe("1158201444");
  });

  it("echoes only a sane challenge: markup, odd characters or a long one are 400", async () => {
    for (const challenge of [
      "<script>alert(1)</script>",
      "a b",
      "1\r\nSet-Cookie: x=1",
      "ñ",
      "9".repeat(257),
    ]) {
      const res = await verify(challenge);
      expect(res.status, challenge).toBe(400);
      expect(await res.json()).toMatchObject({ error: "bad_request" });
    }
    expect((await verify()).status).toBe(400);
  });
});

describe("POST /webhooks/whatsapp signature", () => {
  it("refuses a missing, wrong or stale signature with 401 and stores nothing", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const from = customerPhone();
    const payload = delivery(inboundMessage({ phoneNumberId, from, text: "Hola" }));
    const raw = JSON.stringify(payload);
    const attempts = [
      await call("POST", "/webhooks/whatsapp", {
        rawBody: raw,
        headers: { "Content-Type": "application/json" },
      }),
      await deliver(payload, { secret: "otro-secreto" }),
      await deliver(payload, { signature: "sha256=abc" }),
      // Signed for another body: the body altered by one byte after signing.
      await call("POST", "/webhooks/whatsapp", {
        rawBody: raw.replace("Hola", "Hola!"),
        headers: {
          "Content-Type": "application/json",
          "X-Hub-Signature-256": await (
            await import("../fakes/whatsapp-payloads.mjs")
          ).signPayload(raw, env.META_APP_SECRET!),
        },
      }),
    ];
    expect(attempts.map((r) => r.status)).toEqual([401, 401, 401, 401]);
    expect(await conversationFor(owner.organization.id, from)).toBeNull();
  });

  it("answers 429 to an address that keeps failing, never to Meta's signed deliveries", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const ip = randomIp();
    const payload = delivery(
      inboundMessage({ phoneNumberId, from: customerPhone(), text: "Hola" }),
    );
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 22; i++) {
      last = await call("POST", "/webhooks/whatsapp", {
        rawBody: JSON.stringify(payload),
        headers: {
          "Content-Type": "application/json",
          "X-Hub-Signature-256": "sha256=00",
          "CF-Connecting-IP": ip,
        },
      });
      statuses.push(last.status);
    }
    expect(statuses.slice(0, 19).every((s) => s === 401)).toBe(true);
    expect(statuses.slice(19)).toEqual([429, 429, 429]);
    expect(Number(last!.headers.get("Retry-After"))).toBeGreaterThan(0);

    // Meta's own delivery from the same address still goes through.
    const from = customerPhone();
    const signed = await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Hola" })), {
      headers: { "CF-Connecting-IP": ip },
    });
    expect(signed.status).toBe(200);
    expect(await conversationFor(owner.organization.id, from)).not.toBeNull();

    // Guessing verify tokens is limited the same way.
    const verify = [];
    for (let i = 0; i < 21; i++) {
      const res = await call(
        "GET",
        `/webhooks/whatsapp?hub.mode=subscribe&hub.verify_token=intento-${i}&hub.challenge=1`,
        { headers: { "CF-Connecting-IP": ip } },
      );
      verify.push(res.status);
    }
    expect(verify.at(0)).toBe(403);
    expect(verify.at(-1)).toBe(429);
  });

  it("answers 400 to a signed body that is not JSON", async () => {
    const raw = "no es json";
    const { signPayload } = await import("../fakes/whatsapp-payloads.mjs");
    const res = await call("POST", "/webhooks/whatsapp", {
      rawBody: raw,
      headers: {
        "Content-Type": "application/json",
        "X-Hub-Signature-256": await signPayload(raw, env.META_APP_SECRET!),
      },
    });
    expect(res.status).toBe(400);
  });
});

describe("inbound messages", () => {
  it("creates the conversation on first contact with the profile name and stores the message once", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const from = customerPhone();
    const id = wamid();
    const payload = delivery(
      inboundMessage({ phoneNumberId, from, name: "Lucía", id, text: "¿Tenéis cita mañana?" }),
    );
    for (let i = 0; i < 3; i++) expect((await deliver(payload)).status).toBe(200);

    const conversation = await conversationFor(owner.organization.id, from);
    expect(conversation).toMatchObject({
      contact_name: "Lucía",
      status: "open",
      unread_count: 1,
      last_message_preview: "¿Tenéis cita mañana?",
    });
    const stored = await messagesOf(owner.organization.id, conversation!.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      wamid: id,
      direction: "inbound",
      sender_type: "customer",
      type: "text",
    });

    const detail = await answer(
      api(owner.token).conversations[":id"].$get({ param: { id: conversation!.id } }),
    );
    expect(Date.parse(detail.body.data.window_expires_at!)).toBeGreaterThan(
      Date.now() + 23 * 3600_000,
    );
  });

  it("stores every type Meta sends with a readable content", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const from = customerPhone();
    const cases: [string, Record<string, unknown> | undefined, string][] = [
      [
        "image",
        { id: "1001", mime_type: "image/jpeg", sha256: "x", caption: "Mi radiografía" },
        "Mi radiografía",
      ],
      ["image", { id: "1002", mime_type: "image/jpeg", sha256: "x" }, "📷 Imagen"],
      ["audio", { id: "1003", mime_type: "audio/ogg; codecs=opus", voice: true }, "🎤 Nota de voz"],
      ["video", { id: "1004", mime_type: "video/mp4" }, "🎬 Vídeo"],
      [
        "document",
        { id: "1005", mime_type: "application/pdf", filename: "presupuesto.pdf" },
        "📄 presupuesto.pdf",
      ],
      ["sticker", { id: "1006", mime_type: "image/webp", animated: false }, "Sticker"],
      [
        "location",
        { latitude: 40.4, longitude: -3.7, name: "Clínica", address: "Gran Vía 1" },
        "📍 Clínica, Gran Vía 1",
      ],
      [
        "contacts",
        [
          { name: { formatted_name: "Pedro Gil" }, phones: [{ phone: "+34600111222" }] },
        ] as unknown as Record<string, unknown>,
        "👤 Contacto compartido: Pedro Gil",
      ],
      [
        "interactive",
        { type: "button_reply", button_reply: { id: "si", title: "Sí, confirmo" } },
        "Sí, confirmo",
      ],
      [
        "interactive",
        { type: "list_reply", list_reply: { id: "1", title: "Limpieza", description: "30 min" } },
        "Limpieza — 30 min",
      ],
      ["button", { text: "Quiero más info", payload: "INFO" }, "Quiero más info"],
      [
        "order",
        {
          catalog_id: "c",
          product_items: [{ product_retailer_id: "a" }, { product_retailer_id: "b" }],
        },
        "🛒 Pedido de 2 productos",
      ],
      ["unsupported", undefined, "Mensaje no admitido por WhatsApp"],
    ];
    for (const [type, part] of cases) {
      await deliver(delivery(inboundMessage({ phoneNumberId, from, type, part })));
    }
    const conversation = await conversationFor(owner.organization.id, from);
    const stored = await messagesOf(owner.organization.id, conversation!.id);
    expect(stored).toHaveLength(cases.length);
    cases.forEach(([type, , content], index) => {
      expect(stored[index]!.type).toBe(type);
      expect(stored[index]!.content.startsWith(content)).toBe(true);
    });
    expect(stored[0]).toMatchObject({ media_id: "1001", media_mime_type: "image/jpeg" });
  });

  it("attaches reactions to the message they react to, and removes them", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const from = customerPhone();
    const target = wamid();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, id: target, text: "Gracias" })));
    await deliver(
      delivery(
        inboundMessage({
          phoneNumberId,
          from,
          type: "reaction",
          part: { message_id: target, emoji: "👍" },
        }),
      ),
    );
    const conversation = await conversationFor(owner.organization.id, from);
    let stored = await messagesOf(owner.organization.id, conversation!.id);
    expect(stored).toHaveLength(1);
    expect(JSON.parse(stored[0]!.reactions)).toEqual([
      { emoji: "👍", from, at: expect.any(String) },
    ]);
    expect(conversation!.unread_count).toBe(1);

    await deliver(
      delivery(
        inboundMessage({
          phoneNumberId,
          from,
          type: "reaction",
          part: { message_id: target, emoji: "" },
        }),
      ),
    );
    stored = await messagesOf(owner.organization.id, conversation!.id);
    expect(JSON.parse(stored[0]!.reactions)).toEqual([]);
  });

  it("processes every message of a batched delivery and ignores unknown numbers", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const [a, b] = [customerPhone(), customerPhone()];
    const res = await deliver(
      delivery(
        inboundMessage({ phoneNumberId, from: a, text: "uno" }),
        inboundMessage({ phoneNumberId, from: b, text: "dos" }),
        inboundMessage({ phoneNumberId: "numero-desconocido", from: a, text: "otro" }),
        inboundMessage({ phoneNumberId, from: a, text: "tres" }),
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body.stored).toBe(3);
    const convA = await conversationFor(owner.organization.id, a);
    expect((await messagesOf(owner.organization.id, convA!.id)).map((m) => m.content)).toEqual([
      "uno",
      "tres",
    ]);
    expect(convA!.unread_count).toBe(2);
    expect(await conversationFor(owner.organization.id, b)).not.toBeNull();
  });

  it("stores a burst batched in one change once each, in order, with one event per message", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const inbox = await connect(owner.token);
    const [a, b] = [customerPhone(), customerPhone()];
    const start = Math.floor(Date.now() / 1000) - 100;
    // a's messages arrive newest first: its preview is the latest by Meta's time, not position.
    const sent = Array.from({ length: 60 }, (_, i) => {
      const [from, text, at] = i % 2 ? [a, `a${i}`, start + 60 - i] : [b, `b${i}`, start + i];
      const id = wamid();
      return {
        from,
        text,
        id,
        change: inboundMessage({ phoneNumberId, from, text, id, timestamp: String(at) }),
      };
    });
    const repeated = sent[4]!.change; // sent twice in the same delivery
    const payload = delivery(burst(...sent.map((m) => m.change), repeated));

    const res = await deliver(payload);
    expect(res.status).toBe(200);
    expect(res.body.stored).toBe(60);
    const convA = await conversationFor(owner.organization.id, a);
    const convB = await conversationFor(owner.organization.id, b);
    expect(convA).toMatchObject({ unread_count: 30, last_message_preview: "a1" });
    expect(convB).toMatchObject({ unread_count: 30, last_message_preview: "b58" });
    const stats = await answer(api(owner.token).conversations.stats.$get({ query: {} }));
    expect(stats.body.data).toMatchObject({ total: 2, unread: 2, by_status: { open: 2 } });
    expect((await messagesOf(owner.organization.id, convB!.id)).map((m) => m.content)).toEqual(
      sent.filter((m) => m.from === b).map((m) => m.text),
    );

    await tick();
    const events = inbox.received.filter((e) => e.type === "new_message");
    expect(events.map((e) => e.data.message.content)).toEqual(sent.map((m) => m.text));
    expect(events.at(-1)!.data.conversation).toMatchObject({ id: convA!.id, unread_count: 30 });

    // Meta's retry of the whole delivery changes nothing and announces nothing.
    const again = await deliver(payload);
    expect(again.body.stored).toBe(0);
    expect((await conversationFor(owner.organization.id, a))!.unread_count).toBe(30);
    expect((await messagesOf(owner.organization.id, convA!.id)).length).toBe(30);
    await tick();
    expect(inbox.received.filter((e) => e.type === "new_message")).toHaveLength(60);
    inbox.socket.close();
  });

  it("follows a customer who changed number, with the same delivery's messages", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const [oldNumber, newNumber] = [customerPhone(), customerPhone()];
    await deliver(delivery(inboundMessage({ phoneNumberId, from: oldNumber, text: "antes" })));

    const notice = inboundMessage({
      phoneNumberId,
      from: oldNumber,
      type: "system",
      part: {
        body: "El cliente cambió de número",
        type: "user_changed_number",
        new_wa_id: newNumber,
      },
    });
    const res = await deliver(
      delivery(
        burst(
          inboundMessage({ phoneNumberId, from: oldNumber, text: "justo antes" }),
          notice,
          inboundMessage({ phoneNumberId, from: newNumber, text: "desde el nuevo" }),
        ),
      ),
    );
    expect(res.body.stored).toBe(3);
    expect(await conversationFor(owner.organization.id, oldNumber)).toBeNull();
    const moved = await conversationFor(owner.organization.id, newNumber);
    expect((await messagesOf(owner.organization.id, moved!.id)).map((m) => m.content)).toEqual([
      "antes",
      "justo antes",
      `El cliente cambió su número de WhatsApp a +${newNumber}.`,
      "desde el nuevo",
    ]);
    expect(moved!.unread_count).toBe(4);
  });

  it("assigns new conversations to the connection's default agent", async () => {
    const { owner, agent, phoneNumberId } = await connectedOwner(true);
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from })));
    expect(await conversationFor(owner.organization.id, from)).toMatchObject({
      agent_id: agent!.id,
      status: "assigned",
    });
  });

  it("keeps a click-to-WhatsApp referral and records one conversation_start per click", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const from = customerPhone();
    const referral = ctwaReferral({
      adId: "120208",
      headline: "Blanqueamiento -20%",
      ctwaClid: "ARAkLk123",
    });
    await deliver(delivery(inboundMessage({ phoneNumberId, from, referral })));
    await deliver(delivery(inboundMessage({ phoneNumberId, from, referral, text: "otra vez" })));
    const conversation = await conversationFor(owner.organization.id, from);
    expect(conversation).toMatchObject({
      ctwa_clid: "ARAkLk123",
      ad_id: "120208",
      ad_headline: "Blanqueamiento -20%",
    });
    const results = await orgSql(
      owner.organization.id,
      "SELECT event_name, ctwa_clid, phone_number FROM conversions WHERE organization_id = ?",
      owner.organization.id,
    );
    expect(results).toEqual([
      { event_name: "conversation_start", ctwa_clid: "ARAkLk123", phone_number: from },
    ]);
    const stored = await messagesOf(owner.organization.id, conversation!.id);
    expect(JSON.parse(stored[0]!.referral).source_id).toBe("120208");
  });

  it("matches a message carrying a tracked visit's reference back to the session", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const session = await answer(
      api().tracking.sessions.$post(
        {
          json: {
            tracking_params: { fbclid: "IwAR9", utm_campaign: "otoño" },
            landing_page: "https://x.example",
          },
        },
        { headers: { "X-Tracking-Key": owner.organization.tracking_key } },
      ),
    );
    const ref = session.body.data.ref_code;
    const from = customerPhone();
    await deliver(
      delivery(inboundMessage({ phoneNumberId, from, text: `Hola, quiero cita (ref: ${ref})` })),
    );
    const conversation = await conversationFor(owner.organization.id, from);
    expect(conversation).toMatchObject({
      tracking_session_id: session.body.data.id,
      fbclid: "IwAR9",
    });
    const linked = await answer(
      api(owner.token).tracking.sessions[":id"].$get({ param: { id: session.body.data.id } }),
    );
    expect(linked.body.data).toMatchObject({ phone_number: from });
    const results = await orgSql(
      owner.organization.id,
      "SELECT event_name FROM conversions WHERE organization_id = ? ORDER BY event_name",
      owner.organization.id,
    );
    expect(results.map((r) => r.event_name)).toEqual(["conversation_start", "first_message"]);
  });
});

describe("outbound messages and statuses", () => {
  async function sentMessage() {
    const { owner, phoneNumberId } = await connectedOwner();
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from })));
    const conversation = await conversationFor(owner.organization.id, from);
    const res = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: conversation!.id, content: "¡Hola! ¿En qué te ayudo?" },
      }),
    );
    return { owner, phoneNumberId, from, conversation: conversation!, res };
  }

  it("sends through the Graph API with the stored token and keeps the wamid", async () => {
    const { owner, phoneNumberId, from, res } = await sentMessage();
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe("sent");
    const [request] = await graphRequests(`/${phoneNumberId}/messages`);
    expect(request.headers.authorization).toBe("Bearer test-access-token");
    expect(request.body).toEqual({
      messaging_product: "whatsapp",
      recipient_type: "individual",
      to: from,
      type: "text",
      text: { body: "¡Hola! ¿En qué te ayudo?", preview_url: false },
    });
    expect(await messageColumn(owner.organization.id, res.body.data.id, "wamid")).toMatch(
      /^wamid\./,
    );
  });

  it("records Meta's refusal on the message in Spanish, without losing it", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from })));
    const conversation = await conversationFor(owner.organization.id, from);
    await failNext("graph", {
      path: `/v25.0/${phoneNumberId}/messages`,
      status: 400,
      error: { message: "Re-engagement message", code: 131047 },
    });
    const res = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: conversation!.id, content: "Hola" },
      }),
    );
    expect(res.status).toBe(201);
    expect(res.body.data.status).toBe("failed");
    expect(res.body.data.error).toContain("24 horas");
  });

  it("moves statuses forward only, whatever the order Meta delivers them in", async () => {
    const { owner, phoneNumberId, from, res } = await sentMessage();
    const sent = await messageColumn(owner.organization.id, res.body.data.id, "wamid");
    const status = (s: string) =>
      deliver(delivery(statusUpdate({ phoneNumberId, id: sent, recipientId: from, status: s })));
    const current = () => messageColumn(owner.organization.id, res.body.data.id, "status");

    await status("read");
    expect(await current()).toBe("read");
    await status("delivered");
    await status("sent");
    expect(await current()).toBe("read");
    await status("failed");
    expect(await current()).toBe("read");
  });

  it("counts played as read and records a failure's reason", async () => {
    const a = await sentMessage();
    const column = (sent: typeof a, name: string) =>
      messageColumn(sent.owner.organization.id, sent.res.body.data.id, name);
    await deliver(
      delivery(
        statusUpdate({
          phoneNumberId: a.phoneNumberId,
          id: await column(a, "wamid"),
          recipientId: a.from,
          status: "played",
        }),
      ),
    );
    expect(await column(a, "status")).toBe("read");

    const b = await sentMessage();
    await deliver(
      delivery(
        statusUpdate({
          phoneNumberId: b.phoneNumberId,
          id: await column(b, "wamid"),
          recipientId: b.from,
          status: "failed",
          errors: [
            { code: 131026, title: "Message undeliverable", message: "Message undeliverable" },
          ],
        }),
      ),
    );
    const failed = await orgFirst(
      b.owner.organization.id,
      "SELECT status, error, error_code FROM messages WHERE id = ?",
      b.res.body.data.id,
    );
    expect(failed).toMatchObject({
      status: "failed",
      error_code: "131026",
      error: expect.stringContaining("no se pudo entregar"),
    });
  });

  it("ignores a status for an unknown message", async () => {
    const { phoneNumberId } = await connectedOwner();
    const res = await deliver(
      delivery(
        statusUpdate({ phoneNumberId, id: "wamid.NOPE", recipientId: "34600", status: "read" }),
      ),
    );
    expect(res.status).toBe(200);
  });

  it("refuses a reply outside the window before calling Meta", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const conversation = await createConversation(owner);
    await openWindow(
      owner.organization.id,
      conversation.id,
      new Date(Date.now() - 30 * 3600_000).toISOString(),
    );
    const res = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: conversation.id, content: "Hola" },
      }),
    );
    expect(res.status).toBe(422);
    expect(await graphRequests(`/${phoneNumberId}/messages`)).toEqual([]);
  });
});
