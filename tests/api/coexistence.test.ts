// A number shared with the WhatsApp Business app and Meta's own AI, live (contract section 16):
// echoes, standby, handovers, the AI's pause, edits and deletions, the phone's address book,
// account_update and error 131060.
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import {
  META_BUSINESS_AGENT_APP_ID,
  accountUpdate,
  contactSync,
  delivery,
  editedMessage,
  inboundMessage,
  messageEcho,
  revokedMessage,
  standbyMessage,
  statusUpdate,
  threadHandover,
  wamid,
} from "../fakes/whatsapp-payloads.mjs";
import { api, answer } from "../support/api";
import { connectWhatsapp, openWindow } from "../support/db";
import { createAgent, createOwner } from "../support/factories";
import { orgFirst, orgSql } from "../support/org-data";
import { botMessages, runDueReplies } from "../support/replies";
import { connect } from "../support/sockets";
import {
  customerPhone,
  deliver,
  failNext,
  graphRequests,
  modelRequests,
  scriptModel,
  secondsAgo,
} from "../support/webhooks";
import { organizationStore } from "../../worker/stores/registry";

type Row = Record<string, any>;

/** An organization with a connected number; with `answering`, an active AI agent answers it. */
async function setup({ answering = false } = {}) {
  const owner = await createOwner();
  const agent = answering ? await createAgent(owner, { name: "Sofía" }) : null;
  const connection = await connectWhatsapp(owner.organization.id, {
    phoneNumberId: `pn-${crypto.randomUUID().slice(0, 8)}`,
    businessAccountId: `waba-${crypto.randomUUID().slice(0, 8)}`,
    defaultAgentId: agent?.id,
  });
  const hub = await organizationStore(env, owner.organization.id);
  return {
    owner,
    orgId: owner.organization.id as string,
    phoneNumberId: connection.phoneNumberId,
    wabaId: connection.businessAccountId,
    hub,
  };
}

const conversationOf = (orgId: string, phone: string) =>
  orgFirst<Row>(orgId, "SELECT * FROM conversations WHERE phone_number = ?", phone);

const messagesOf = (orgId: string, conversationId: string) =>
  orgSql<Row>(
    orgId,
    "SELECT * FROM messages WHERE conversation_id = ? ORDER BY created_at, id",
    conversationId,
  );

const messageByWamid = (orgId: string, id: string) =>
  orgFirst<Row>(orgId, "SELECT * FROM messages WHERE wamid = ?", id);

describe("echoes from the WhatsApp Business app", () => {
  it("stores an echo once as an outbound message sent from the phone, counting nothing", async () => {
    const { owner, orgId, phoneNumberId } = await setup();
    const inbox = await connect(owner.token);
    const to = customerPhone();
    const timestamp = secondsAgo(30);
    const echo = messageEcho({ phoneNumberId, to, timestamp, text: "Te espero a las 5" });
    expect((await deliver(delivery(echo))).status).toBe(200);
    expect((await deliver(delivery(echo))).status).toBe(200); // Meta repeats it.

    const conversation = (await conversationOf(orgId, to))!;
    const sentAt = new Date(Number(timestamp) * 1000).toISOString();
    expect(conversation).toMatchObject({
      unread_count: 0,
      last_inbound_at: null,
      last_message_preview: "Te espero a las 5",
      last_message_at: sentAt,
      controlled_by: "app",
      ai_paused_until: new Date(Date.parse(sentAt) + 24 * 3600 * 1000).toISOString(),
    });
    const stored = await messagesOf(orgId, conversation.id);
    expect(stored).toHaveLength(1);
    expect(stored[0]).toMatchObject({
      content: "Te espero a las 5",
      direction: "outbound",
      sender_type: "phone",
      status: "sent",
      sent_at: sentAt,
      created_at: sentAt,
    });
    // The consoles get it as every outbound message, once.
    const event = await inbox.receive((e) => e.type === "message_sent");
    expect(event.data.message).toMatchObject({
      sender_type: "phone",
      content: "Te espero a las 5",
    });
    expect(event.data.conversation.ai_paused_until).toBe(conversation.ai_paused_until);
    expect(inbox.received.filter((e) => e.type === "new_message")).toEqual([]);
    inbox.socket.close();
  });

  it("an older echo delivered late moves neither the preview nor the pause back", async () => {
    const { orgId, phoneNumberId } = await setup();
    const to = customerPhone();
    await deliver(
      delivery(messageEcho({ phoneNumberId, to, timestamp: secondsAgo(10), text: "Nuevo" })),
    );
    const before = (await conversationOf(orgId, to))!;
    await deliver(
      delivery(messageEcho({ phoneNumberId, to, timestamp: secondsAgo(600), text: "Viejo" })),
    );
    const after = (await conversationOf(orgId, to))!;
    expect(after.last_message_preview).toBe("Nuevo");
    expect(after.ai_paused_until).toBe(before.ai_paused_until);
    expect(await messagesOf(orgId, after.id)).toHaveLength(2);
  });

  it("pauses the AI: a customer message after an echo is not answered until resume-ai", async () => {
    const { owner, orgId, phoneNumberId, hub } = await setup({ answering: true });
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Hola, ¿precio?" })));
    await runDueReplies(hub);
    const conversation = (await conversationOf(orgId, from))!;
    expect(await botMessages(orgId, conversation.id)).toHaveLength(1);

    await deliver(delivery(messageEcho({ phoneNumberId, to: from, text: "Te llamo yo" })));
    // Meta's times are seconds, the bot's reply milliseconds: the customer writes after it.
    const later = (s: number) => secondsAgo(-s);
    await deliver(
      delivery(inboundMessage({ phoneNumberId, from, text: "Vale, gracias", timestamp: later(1) })),
    );
    await runDueReplies(hub);
    expect(await botMessages(orgId, conversation.id)).toHaveLength(1);
    expect((await conversationOf(orgId, from))!.unread_count).toBe(2);

    const resumed = await answer(
      api(owner.token).conversations[":id"]["resume-ai"].$post({ param: { id: conversation.id } }),
    );
    expect(resumed.status).toBe(200);
    expect(resumed.body.data.ai_paused_until).toBeNull();
    await deliver(
      delivery(
        inboundMessage({ phoneNumberId, from, text: "¿Abrís mañana?", timestamp: later(2) }),
      ),
    );
    await runDueReplies(hub);
    const replies = await botMessages(orgId, conversation.id);
    expect(replies).toHaveLength(2);
    expect(replies[1]!.content).toContain("¿Abrís mañana?");
  });

  it("drops an AI answer being prepared when the owner answers from the phone meanwhile", async () => {
    const { orgId, phoneNumberId, hub } = await setup({ answering: true });
    const from = customerPhone();
    const text = `¿Tenéis hueco el jueves? ${crypto.randomUUID()}`;
    await scriptModel([{ when: text, delay_ms: 1500, content: "Sí, a las 10" }]);
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text })));
    const replying = runDueReplies(hub);
    await vi.waitFor(
      async () => {
        const asked = await modelRequests();
        expect(asked.some((r) => JSON.stringify(r.body.messages).includes(text))).toBe(true);
      },
      { timeout: 5000, interval: 50 },
    );
    await deliver(delivery(messageEcho({ phoneNumberId, to: from, text: "Sí, te espero" })));
    await replying;
    const conversation = (await conversationOf(orgId, from))!;
    expect(await botMessages(orgId, conversation.id)).toEqual([]);
    expect(conversation.ai_draft).toBeNull();
    const sent = await graphRequests(`/${phoneNumberId}/messages`);
    expect(sent.filter((r) => r.body.text?.body === "Sí, a las 10")).toEqual([]);
  });
});

describe("Meta's own AI (standby, handovers, thread control)", () => {
  it("stores a standby customer message like any other, and the AI does not answer it", async () => {
    const { orgId, phoneNumberId, hub } = await setup({ answering: true });
    const from = customerPhone();
    await deliver(delivery(standbyMessage({ phoneNumberId, from, text: "¿Hacéis envíos?" })));
    await deliver(
      delivery(
        messageEcho({ phoneNumberId, field: "standby", to: from, text: "Sí, a toda España" }),
      ),
    );
    await runDueReplies(hub);
    const conversation = (await conversationOf(orgId, from))!;
    expect(conversation).toMatchObject({
      controlled_by: "meta_ai",
      unread_count: 1,
      ai_paused_until: null,
      last_message_preview: "Sí, a toda España",
    });
    expect(conversation.last_inbound_at).not.toBeNull();
    const stored = await messagesOf(orgId, conversation.id);
    expect(stored.map((m) => [m.direction, m.sender_type, m.content])).toEqual([
      ["inbound", "customer", "¿Hacéis envíos?"],
      ["outbound", "meta_ai", "Sí, a toda España"],
    ]);
    expect(await botMessages(orgId, conversation.id)).toEqual([]);
  });

  it("a handover back to this app lets the AI answer again; the latest handover wins", async () => {
    const { orgId, phoneNumberId, hub } = await setup({ answering: true });
    const from = customerPhone();
    await deliver(delivery(standbyMessage({ phoneNumberId, from, text: "Hola" })));
    const toApp = threadHandover({
      phoneNumberId,
      from,
      newOwnerAppId: env.META_APP_ID!,
      previousOwnerAppId: META_BUSINESS_AGENT_APP_ID,
      timestamp: secondsAgo(5),
    });
    const olderToMeta = threadHandover({
      phoneNumberId,
      from,
      newOwnerAppId: META_BUSINESS_AGENT_APP_ID,
      timestamp: secondsAgo(60),
    });
    // Out of order in one delivery: the newer (to this app) wins.
    await deliver(delivery(toApp, olderToMeta));
    let conversation = (await conversationOf(orgId, from))!;
    expect(conversation.controlled_by).toBe("app");

    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "¿Seguís ahí?" })));
    await runDueReplies(hub);
    expect(await botMessages(orgId, conversation.id)).toHaveLength(1);

    await deliver(
      delivery(threadHandover({ phoneNumberId, from, newOwnerAppId: META_BUSINESS_AGENT_APP_ID })),
    );
    conversation = (await conversationOf(orgId, from))!;
    expect(conversation.controlled_by).toBe("meta_ai");

    // A handover for a customer nobody knows creates nothing.
    const stranger = customerPhone();
    const res = await deliver(
      delivery(threadHandover({ phoneNumberId, from: stranger, newOwnerAppId: env.META_APP_ID! })),
    );
    expect(res.status).toBe(200);
    expect(await conversationOf(orgId, stranger)).toBeNull();
  });

  it("returns a thread to Meta's AI through Meta's Business API; a refusal changes nothing", async () => {
    const { owner, orgId, phoneNumberId } = await setup();
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Hola" })));
    const conversation = (await conversationOf(orgId, from))!;
    const client = api(owner.token).conversations[":id"]["return-to-meta-ai"];

    const path = `/business/whatsapp/phone_numbers/${phoneNumberId}/thread_control`;
    await failNext("graph", {
      path,
      status: 400,
      error: { message: "(#2494191) Not permitted", code: 2494191 },
    });
    const refused = await answer(client.$post({ param: { id: conversation.id } }));
    expect(refused.status).toBe(422);
    expect(refused.body.message).toBe("Meta rechazó la petición (código 2494191).");
    expect((await conversationOf(orgId, from))!.controlled_by).toBe("app");

    const returned = await answer(client.$post({ param: { id: conversation.id } }));
    expect(returned.status).toBe(200);
    expect(returned.body.data.controlled_by).toBe("meta_ai");
    expect((await conversationOf(orgId, from))!.controlled_by).toBe("meta_ai");
    const requests = await graphRequests(path);
    expect(requests).toHaveLength(2);
    expect(requests[1].headers["x-api-version"]).toBe("1.0.0");
    expect(requests[1].headers.authorization).toBe("Bearer test-access-token");
    expect(requests[1].body).toEqual({
      messaging_product: "whatsapp",
      action: "release",
      to: from,
    });
  });

  it("a person's message from the console takes the thread back", async () => {
    const { owner, orgId, phoneNumberId } = await setup();
    const from = customerPhone();
    await deliver(
      delivery(standbyMessage({ phoneNumberId, from, text: "Quiero hablar con alguien" })),
    );
    const conversation = (await conversationOf(orgId, from))!;
    expect(conversation.controlled_by).toBe("meta_ai");
    const sent = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: conversation.id, content: "Hola, soy Ana" },
      }),
    );
    expect(sent.status).toBe(201);
    expect((await conversationOf(orgId, from))!.controlled_by).toBe("app");
  });
});

describe("edits and deletions", () => {
  it("an edit replaces the content and a revoke empties it, neither counted as a new message", async () => {
    const { owner, orgId, phoneNumberId } = await setup();
    const from = customerPhone();
    const first = wamid();
    const last = wamid();
    await deliver(
      delivery(
        inboundMessage({
          phoneNumberId,
          from,
          id: first,
          text: "Quiero 3 cajas",
          timestamp: secondsAgo(60),
        }),
      ),
    );
    await deliver(
      delivery(
        inboundMessage({
          phoneNumberId,
          from,
          id: last,
          text: "para el lunes",
          timestamp: secondsAgo(50),
        }),
      ),
    );
    const inbox = await connect(owner.token);

    await deliver(
      delivery(editedMessage({ phoneNumberId, from, originalId: first, text: "Quiero 4 cajas" })),
    );
    let conversation = (await conversationOf(orgId, from))!;
    expect(await messageByWamid(orgId, first)).toMatchObject({ content: "Quiero 4 cajas" });
    expect((await messageByWamid(orgId, first))!.edited_at).not.toBeNull();
    expect(conversation.unread_count).toBe(2);
    expect(conversation.last_message_preview).toBe("para el lunes"); // Not the latest: unchanged.
    const edited = await inbox.receive((e) => e.type === "message_status");
    expect(edited.data.message).toMatchObject({ content: "Quiero 4 cajas", edited: true });

    // The inbox search follows the new words, not the old ones.
    const search = async (q: string) =>
      (await answer(api(owner.token).conversations.search.$get({ query: { search: q } }))).body.data
        .conversations.length;
    expect(await search("4 cajas")).toBe(1);

    await deliver(delivery(revokedMessage({ phoneNumberId, from, originalId: last })));
    conversation = (await conversationOf(orgId, from))!;
    expect(await messageByWamid(orgId, last)).toMatchObject({ content: "", media_id: null });
    expect((await messageByWamid(orgId, last))!.deleted_at).not.toBeNull();
    expect(conversation).toMatchObject({
      unread_count: 2,
      last_message_preview: "Mensaje eliminado",
    });
    expect(await messagesOf(orgId, conversation.id)).toHaveLength(2);

    // An edit after the deletion leaves it deleted.
    await deliver(
      delivery(editedMessage({ phoneNumberId, from, originalId: last, text: "Otra cosa" })),
    );
    expect(await messageByWamid(orgId, last)).toMatchObject({ content: "" });
    expect((await messageByWamid(orgId, last))!.edited_at).toBeNull();
    inbox.socket.close();
  });

  it("an edit or revoke of an unknown message changes nothing and is acknowledged", async () => {
    const { orgId, phoneNumberId } = await setup();
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Hola" })));
    const unknown = wamid();
    expect(
      (await deliver(delivery(editedMessage({ phoneNumberId, from, originalId: unknown })))).status,
    ).toBe(200);
    expect(
      (await deliver(delivery(revokedMessage({ phoneNumberId, from, originalId: unknown }))))
        .status,
    ).toBe(200);
    const conversation = (await conversationOf(orgId, from))!;
    const stored = await messagesOf(orgId, conversation.id);
    expect(stored.map((m) => [m.content, m.edited_at, m.deleted_at])).toEqual([
      ["Hola", null, null],
    ]);
    expect(conversation.unread_count).toBe(1);
  });

  it("a customer cannot edit the business's messages", async () => {
    const { orgId, phoneNumberId } = await setup();
    const from = customerPhone();
    const echoId = wamid();
    await deliver(
      delivery(messageEcho({ phoneNumberId, to: from, id: echoId, text: "Precio: 20 €" })),
    );
    await deliver(
      delivery(editedMessage({ phoneNumberId, from, originalId: echoId, text: "Gratis" })),
    );
    expect(await messageByWamid(orgId, echoId)).toMatchObject({
      content: "Precio: 20 €",
      edited_at: null,
    });
  });

  it("an edit or a revoke changes only a message of its own customer's conversation", async () => {
    const { orgId, phoneNumberId } = await setup();
    const [ana, bruno] = [customerPhone(), customerPhone()];
    const [question, answerId] = [wamid(), wamid()];
    await deliver(
      delivery(inboundMessage({ phoneNumberId, from: ana, id: question, text: "Quiero 3 cajas" })),
    );
    await deliver(
      delivery(messageEcho({ phoneNumberId, to: ana, id: answerId, text: "Precio: 20 €" })),
    );
    await deliver(delivery(inboundMessage({ phoneNumberId, from: bruno, text: "Hola" })));
    // Another customer names Ana's message; the business's echo to him names its answer to her.
    await deliver(
      delivery(
        editedMessage({ phoneNumberId, from: bruno, originalId: question, text: "Nada" }),
        revokedMessage({ phoneNumberId, from: bruno, originalId: question }),
        messageEcho({
          phoneNumberId,
          to: bruno,
          type: "revoke",
          part: { original_message_id: answerId },
        }),
      ),
    );
    expect(await messageByWamid(orgId, question)).toMatchObject({
      content: "Quiero 3 cajas",
      edited_at: null,
      deleted_at: null,
    });
    expect(await messageByWamid(orgId, answerId)).toMatchObject({
      content: "Precio: 20 €",
      deleted_at: null,
    });
    // Ana's own edit, and the business's deletion in her chat, do apply.
    await deliver(
      delivery(
        editedMessage({ phoneNumberId, from: ana, originalId: question, text: "Quiero 4 cajas" }),
        messageEcho({
          phoneNumberId,
          to: ana,
          type: "revoke",
          part: { original_message_id: answerId },
        }),
      ),
    );
    expect(await messageByWamid(orgId, question)).toMatchObject({ content: "Quiero 4 cajas" });
    expect((await messageByWamid(orgId, answerId))!.deleted_at).not.toBeNull();
  });
});

describe("the phone's address book", () => {
  it("names an existing conversation, a new one, and wins over the WhatsApp profile name", async () => {
    const { orgId, phoneNumberId } = await setup();
    const [known, later, alone] = [customerPhone(), customerPhone(), customerPhone()];
    await deliver(delivery(inboundMessage({ phoneNumberId, from: known, name: "pablito_88" })));
    expect((await conversationOf(orgId, known))!.contact_name).toBe("pablito_88");

    await deliver(
      delivery(
        contactSync({
          phoneNumberId,
          contacts: [
            { phone: known, fullName: "Pablo Morales", firstName: "Pablo" },
            { phone: later, firstName: "Lucía" },
            { phone: alone, fullName: "Sin conversación" },
          ],
        }),
      ),
    );
    expect((await conversationOf(orgId, known))!.contact_name).toBe("Pablo Morales");
    expect(await conversationOf(orgId, alone)).toBeNull(); // A contact alone is no conversation.

    // Later messages bring the profile name: the business's name stays, old and new.
    await deliver(delivery(inboundMessage({ phoneNumberId, from: known, name: "pablito_88" })));
    await deliver(delivery(inboundMessage({ phoneNumberId, from: later, name: "lu.cia" })));
    expect((await conversationOf(orgId, known))!.contact_name).toBe("Pablo Morales");
    expect((await conversationOf(orgId, later))!.contact_name).toBe("Lucía");
    // An echo to a new customer names the conversation too.
    await deliver(delivery(messageEcho({ phoneNumberId, to: alone })));
    expect((await conversationOf(orgId, alone))!.contact_name).toBe("Sin conversación");
  });

  it("ignores an older change delivered late; a removal keeps the conversation's name", async () => {
    const { orgId, phoneNumberId } = await setup();
    const phone = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from: phone, name: "Perfil" })));
    await deliver(
      delivery(
        contactSync({
          phoneNumberId,
          contacts: [{ phone, fullName: "Nuevo", timestamp: secondsAgo(10) }],
        }),
      ),
    );
    await deliver(
      delivery(
        contactSync({
          phoneNumberId,
          contacts: [{ phone, fullName: "Viejo", timestamp: secondsAgo(100) }],
        }),
      ),
    );
    expect((await conversationOf(orgId, phone))!.contact_name).toBe("Nuevo");
    const book = await orgSql<Row>(
      orgId,
      "SELECT full_name FROM phone_contacts WHERE phone_number = ?",
      phone,
    );
    expect(book).toEqual([{ full_name: "Nuevo" }]);

    await deliver(
      delivery(contactSync({ phoneNumberId, contacts: [{ phone, action: "remove" }] })),
    );
    expect(
      await orgSql(orgId, "SELECT 1 FROM phone_contacts WHERE phone_number = ?", phone),
    ).toEqual([]);
    expect((await conversationOf(orgId, phone))!.contact_name).toBe("Nuevo");
    // With the entry gone, the profile name names the customer again.
    await deliver(delivery(inboundMessage({ phoneNumberId, from: phone, name: "Perfil" })));
    expect((await conversationOf(orgId, phone))!.contact_name).toBe("Perfil");
  });
});

describe("account_update", () => {
  const connectionOf = (orgId: string) =>
    env.DB.prepare(
      "SELECT status, disconnected_reason FROM whatsapp_connections WHERE organization_id = ?",
    )
      .bind(orgId)
      .first<{ status: string; disconnected_reason: string | null }>();

  it("disconnects with the reason in Spanish and reconnects; another account's event touches nobody", async () => {
    const { owner, orgId, phoneNumberId, wabaId } = await setup();
    const other = await setup();
    // An agency's other organization, with another number of the same account: not this one.
    const sibling = await setup();
    await env.DB.prepare(
      "UPDATE whatsapp_connections SET business_account_id = ?, phone_number = '+34 611 111 111' WHERE organization_id = ?",
    )
      .bind(wabaId, sibling.orgId)
      .run();
    const inbox = await connect(owner.token);
    await deliver(delivery(accountUpdate({ wabaId, reason: "PRIMARY_INACTIVITY" })));
    const disconnected = await connectionOf(orgId);
    expect(disconnected!.status).toBe("disconnected");
    expect(disconnected!.disconnected_reason).toContain("14 días");
    const event = await inbox.receive((e) => e.type === "whatsapp_status");
    expect(event.data).toEqual({
      status: "disconnected",
      disconnected_reason: disconnected!.disconnected_reason,
    });
    expect(await connectionOf(sibling.orgId)).toMatchObject({ status: "connected" });
    expect(await connectionOf(other.orgId)).toMatchObject({
      status: "connected",
      disconnected_reason: null,
    });
    const config = await answer(api(owner.token)["whatsapp-config"].$get());
    expect(config.body.data).toMatchObject({
      status: "disconnected",
      disconnected_reason: disconnected!.disconnected_reason,
    });

    // Sending meanwhile fails with a clear reason, and the message is kept.
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Hola" })));
    const conversation = (await conversationOf(orgId, from))!;
    await openWindow(orgId, conversation.id);
    const sent = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: conversation.id, content: "¿Sigues ahí?" },
      }),
    );
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({ status: "failed" });
    expect(sent.body.data.error).toContain("WhatsApp no está conectado");

    await deliver(delivery(accountUpdate({ wabaId, event: "ACCOUNT_OFFBOARDED" })));
    expect((await connectionOf(orgId))!.disconnected_reason).toContain("retiró el número");
    await deliver(delivery(accountUpdate({ wabaId, event: "ACCOUNT_RECONNECTED" })));
    expect(await connectionOf(orgId)).toEqual({ status: "connected", disconnected_reason: null });
    const audit = await orgSql<Row>(
      orgId,
      "SELECT action FROM audit_events WHERE organization_id = ? AND action LIKE 'whatsapp.%' ORDER BY created_at, id",
      orgId,
    );
    expect(audit.map((a) => a.action)).toEqual(["whatsapp.disconnect", "whatsapp.connect"]);
    inbox.socket.close();
  });

  it("acts on the number it names; only an event about the whole account reaches every number of it", async () => {
    const first = await setup();
    const { wabaId } = first;
    // Another organization with another number of the same account, and one of another account.
    const second = await setup();
    const other = await setup();
    await env.DB.prepare(
      "UPDATE whatsapp_connections SET business_account_id = ?, phone_number = '+34 611 111 111' WHERE organization_id = ?",
    )
      .bind(wabaId, second.orgId)
      .run();
    const states = async () =>
      Promise.all(
        [first, second, other].map(async ({ orgId }) => (await connectionOf(orgId))!.status),
      );

    // Events of a number that name none: nobody's number is touched.
    await deliver(
      delivery(
        accountUpdate({ wabaId, phoneNumber: null, event: "ACCOUNT_OFFBOARDED" }),
        accountUpdate({
          wabaId,
          phoneNumber: null,
          event: "DISABLED_UPDATE",
          banState: "REINSTATE",
        }),
      ),
    );
    expect(await states()).toEqual(["connected", "connected", "connected"]);

    // One that names the second number: only that organization's.
    await deliver(delivery(accountUpdate({ wabaId, phoneNumber: "34611111111" })));
    expect(await states()).toEqual(["connected", "disconnected", "connected"]);
    await deliver(
      delivery(accountUpdate({ wabaId, phoneNumber: "34611111111", event: "ACCOUNT_RECONNECTED" })),
    );
    expect(await states()).toEqual(["connected", "connected", "connected"]);

    // The account banned: every number of it, with the reason in Spanish; the other account's not.
    await deliver(delivery(accountUpdate({ wabaId, phoneNumber: null, event: "DISABLED_UPDATE" })));
    expect(await states()).toEqual(["disconnected", "disconnected", "connected"]);
    expect((await connectionOf(second.orgId))!.disconnected_reason).toContain(
      "inhabilitó la cuenta",
    );
  });
});

describe("error 131060 (unsupported on a shared number)", () => {
  it("reads in Spanish on a status and on a send, and the customer is kept", async () => {
    const { owner, orgId, phoneNumberId } = await setup();
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Vengo del anuncio" })));
    const conversation = (await conversationOf(orgId, from))!;
    const content = `Hola ${crypto.randomUUID()}`;
    await failNext("graph", {
      path: `/v25.0/${phoneNumberId}/messages`,
      contains: content,
      status: 400,
      error: { message: "Unsupported message", code: 131060 },
    });
    const sent = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: conversation.id, content },
      }),
    );
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({
      status: "failed",
      error: "Mensaje no compatible: revísalo en el móvil",
    });

    const second = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: conversation.id, content: "Segundo intento" },
      }),
    );
    const stored = (await orgFirst<Row>(
      orgId,
      "SELECT wamid FROM messages WHERE id = ?",
      second.body.data.id,
    ))!;
    await deliver(
      delivery(
        statusUpdate({
          phoneNumberId,
          id: stored.wamid,
          status: "failed",
          errors: [{ code: 131060, title: "Unsupported message" }],
        }),
      ),
    );
    const failed = (await orgFirst<Row>(
      orgId,
      "SELECT status, error FROM messages WHERE id = ?",
      second.body.data.id,
    ))!;
    expect(failed).toEqual({
      status: "failed",
      error: "Mensaje no compatible: revísalo en el móvil",
    });
    expect(await conversationOf(orgId, from)).toMatchObject({
      id: conversation.id,
      unread_count: 1,
    });
  });
});

describe("two organizations", () => {
  it("an echo reaches only the organization of its number; the actions 404 on another's conversation", async () => {
    const a = await setup();
    const b = await setup();
    const shared = customerPhone();
    await deliver(
      delivery(inboundMessage({ phoneNumberId: b.phoneNumberId, from: shared, text: "Hola B" })),
    );
    await deliver(
      delivery(messageEcho({ phoneNumberId: a.phoneNumberId, to: shared, text: "Hola desde A" })),
    );
    const inA = (await conversationOf(a.orgId, shared))!;
    const inB = (await conversationOf(b.orgId, shared))!;
    expect((await messagesOf(a.orgId, inA.id)).map((m) => m.content)).toEqual(["Hola desde A"]);
    expect((await messagesOf(b.orgId, inB.id)).map((m) => m.content)).toEqual(["Hola B"]);
    expect(inB.ai_paused_until).toBeNull();

    const conversations = api(a.owner.token).conversations[":id"];
    for (const action of [conversations["resume-ai"], conversations["return-to-meta-ai"]]) {
      const res = await answer(action.$post({ param: { id: inB.id } }));
      expect(res.status).toBe(404);
    }
    expect(await graphRequests(`/phone_numbers/${b.phoneNumberId}/thread_control`)).toEqual([]);
    expect(await graphRequests(`/phone_numbers/${a.phoneNumberId}/thread_control`)).toEqual([]);
  });
});
