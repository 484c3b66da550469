// WhatsApp in 2026: customers named by a business-scoped user id (BSUID), the phone withheld
// by those with a username, and what each message costs. Every delivery here is shaped as
// Meta's "Business-scoped user IDs", system messages and status webhook references show.
import { describe, expect, it } from "vitest";
import {
  burst,
  ctwaReferral,
  delivery,
  inboundMessage,
  statusUpdate,
  wamid,
} from "../fakes/whatsapp-payloads.mjs";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { connectWhatsapp } from "../support/db";
import { createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { orgFirst, orgSql } from "../support/org-data";
import { customerBsuid, deliver, graphRequests } from "../support/webhooks";
import { settledConversion } from "../support/ads";

const phone = () => `3462${Math.floor(1_000_000 + Math.random() * 8_999_999)}`;

async function connectedOwner() {
  const owner = await createOwner();
  const connection = await connectWhatsapp(owner.organization.id, {
    businessAccountId: GRAPH_FIXTURES.wabaId,
  });
  return { owner, phoneNumberId: connection.phoneNumberId };
}

/** The organization's conversations as the API lists them. */
async function inbox(token: string, search = "") {
  const res = await answer(
    api(token).conversations.$get({ query: { limit: "100", search: search } }),
  );
  return res.body.data.conversations as any[];
}

async function contents(token: string, conversationId: string) {
  const res = await answer(
    api(token).conversations[":id"].messages.$get({
      param: { id: conversationId },
      query: { limit: "100" },
    }),
  );
  return (res.body.data.messages as any[]).map((m) => m.content);
}

/** A system message as Meta sends it: no `contacts` array. */
function systemNotice(
  phoneNumberId: string,
  system: Record<string, string>,
  sender: { from?: string; userId?: string },
) {
  const change = inboundMessage({ phoneNumberId, ...sender, type: "system", part: system });
  delete (change.value as { contacts?: unknown }).contacts;
  return change;
}

describe("customers known by a BSUID", () => {
  it("stores a message from a username customer with no phone, and shows who wrote", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const userId = customerBsuid();
    const res = await deliver(
      delivery(
        inboundMessage({
          phoneNumberId,
          userId,
          username: "rosa.flores",
          name: "Rosa",
          text: "Hola",
        }),
      ),
    );
    expect(res.status).toBe(200);
    expect(res.body.stored).toBe(1);
    const [conversation] = await inbox(owner.token);
    expect(conversation).toMatchObject({
      phone_number: null,
      contact_name: "Rosa",
      contact: { name: "Rosa", phone_number: null, username: "rosa.flores", user_id: userId },
    });
    expect(await contents(owner.token, conversation.id)).toEqual(["Hola"]);
    // Found by the username, with or without its @.
    for (const term of ["rosa.flo", "@rosa.flores"]) {
      expect((await inbox(owner.token, term)).map((c) => c.id)).toEqual([conversation.id]);
    }
  });

  it("keeps one conversation whichever identifier a delivery carries, and adds the other", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const userId = customerBsuid();
    const number = phone();
    await deliver(delivery(inboundMessage({ phoneNumberId, userId, text: "solo BSUID" })));
    // Later the phone is shared beside the BSUID: it fills in, no second conversation.
    await deliver(
      delivery(inboundMessage({ phoneNumberId, userId, from: number, text: "con teléfono" })),
    );
    // And a phone-only delivery (older style) finds the same conversation.
    await deliver(delivery(inboundMessage({ phoneNumberId, from: number, text: "solo teléfono" })));
    const conversations = await inbox(owner.token);
    expect(conversations).toHaveLength(1);
    expect(conversations[0]).toMatchObject({
      phone_number: number,
      contact: { phone_number: number, user_id: userId },
      unread_count: 3,
    });
    expect(await contents(owner.token, conversations[0].id)).toEqual([
      "solo BSUID",
      "con teléfono",
      "solo teléfono",
    ]);
  });

  it("gives a conversation kept by phone its BSUID, then finds it by BSUID alone", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const number = phone();
    const userId = customerBsuid();
    await deliver(delivery(inboundMessage({ phoneNumberId, from: number, text: "2025" })));
    await deliver(
      delivery(inboundMessage({ phoneNumberId, from: number, userId, text: "abril 2026" })),
    );
    await deliver(
      delivery(
        inboundMessage({ phoneNumberId, userId, username: "marta", text: "ya sin teléfono" }),
      ),
    );
    const conversations = await inbox(owner.token);
    expect(conversations).toHaveLength(1);
    expect(conversations[0].contact).toMatchObject({
      phone_number: number,
      user_id: userId,
      username: "marta",
    });
  });

  it("merges a burst that names the same customer by phone and by BSUID", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const number = phone();
    const userId = customerBsuid();
    const res = await deliver(
      delivery(
        burst(
          inboundMessage({ phoneNumberId, userId, text: "uno" }),
          inboundMessage({ phoneNumberId, from: number, userId, text: "dos" }),
          inboundMessage({ phoneNumberId, from: number, text: "tres" }),
        ),
      ),
    );
    expect(res.body.stored).toBe(3);
    const conversations = await inbox(owner.token);
    expect(conversations).toHaveLength(1);
    expect(await contents(owner.token, conversations[0].id)).toEqual(["uno", "dos", "tres"]);
  });

  it("follows user_changed_user_id: the conversation goes on under the new BSUID", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const [before, after] = [customerBsuid(), customerBsuid()];
    await deliver(delivery(inboundMessage({ phoneNumberId, userId: before, text: "antes" })));
    await deliver(
      delivery(
        burst(
          systemNotice(
            phoneNumberId,
            {
              body: "User changed their business-scoped user ID",
              type: "user_changed_user_id",
              user_id: after,
              previous_user_id: before,
            },
            { userId: after },
          ),
          inboundMessage({ phoneNumberId, userId: after, text: "después" }),
        ),
      ),
    );
    const conversations = await inbox(owner.token);
    expect(conversations).toHaveLength(1);
    expect(conversations[0].contact.user_id).toBe(after);
    expect(await contents(owner.token, conversations[0].id)).toEqual([
      "antes",
      "El identificador de WhatsApp del cliente cambió; la conversación sigue aquí.",
      "después",
    ]);
  });

  it("follows user_changed_number with its new BSUID", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const [oldNumber, newNumber] = [phone(), phone()];
    const [before, after] = [customerBsuid(), customerBsuid()];
    await deliver(
      delivery(inboundMessage({ phoneNumberId, from: oldNumber, userId: before, text: "antes" })),
    );
    await deliver(
      delivery(
        systemNotice(
          phoneNumberId,
          {
            body: `User Rosa changed from ${oldNumber} to ${newNumber}`,
            type: "user_changed_number",
            wa_id: newNumber,
            user_id: after,
            previous_user_id: before,
          },
          { from: oldNumber, userId: before },
        ),
      ),
    );
    await deliver(
      delivery(inboundMessage({ phoneNumberId, from: newNumber, userId: after, text: "nuevo" })),
    );
    const conversations = await inbox(owner.token);
    expect(conversations).toHaveLength(1);
    expect(conversations[0].contact).toMatchObject({ phone_number: newNumber, user_id: after });
    expect(await contents(owner.token, conversations[0].id)).toEqual([
      "antes",
      `El cliente cambió su número de WhatsApp a +${newNumber}.`,
      "nuevo",
    ]);
  });

  it("acknowledges bad identities and stores nothing for them", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const noIdentity = inboundMessage({ phoneNumberId, text: "¿de quién?" });
    const malformed = inboundMessage({ phoneNumberId, userId: "no es un BSUID", text: "mal" });
    const unknownChange = systemNotice(
      phoneNumberId,
      { type: "user_changed_user_id", user_id: customerBsuid(), previous_user_id: customerBsuid() },
      {},
    );
    for (const change of [noIdentity, malformed, unknownChange]) {
      const res = await deliver(delivery(change));
      expect(res.status).toBe(200);
      expect(res.body.stored).toBe(0);
    }
    expect(await inbox(owner.token)).toEqual([]);
    const { n } = (await orgFirst<{ n: number }>(
      owner.organization.id,
      "SELECT count(*) AS n FROM messages WHERE organization_id = ?",
      owner.organization.id,
    ))!;
    expect(n).toBe(0);
  });
});

describe("answering a customer without a phone", () => {
  async function usernameCustomer() {
    const setup = await connectedOwner();
    const userId = customerBsuid();
    await deliver(
      delivery(inboundMessage({ phoneNumberId: setup.phoneNumberId, userId, username: "leo" })),
    );
    const [conversation] = await inbox(setup.owner.token);
    return { ...setup, userId, conversation };
  }

  it("replies by BSUID in `recipient`, routes its statuses and stores the pricing once", async () => {
    const { owner, phoneNumberId, userId, conversation } = await usernameCustomer();
    const text = `Hola Leo ${crypto.randomUUID()}`;
    const sent = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: conversation.id, content: text },
      }),
    );
    expect(sent.status).toBe(201);
    expect(sent.body.data.status).toBe("sent");
    const [request] = (await graphRequests("/messages")).filter((r) =>
      JSON.stringify(r.body).includes(text),
    );
    expect(request.body).toMatchObject({ recipient_type: "individual", recipient: userId });
    expect(request.body).not.toHaveProperty("to");

    const wamidSent = (await orgFirst<{ wamid: string }>(
      owner.organization.id,
      "SELECT wamid FROM messages WHERE id = ?",
      sent.body.data.id,
    ))!.wamid;
    const status = (s: string, pricing?: Record<string, unknown>) =>
      deliver(
        delivery(
          statusUpdate({
            phoneNumberId,
            id: wamidSent,
            recipientUserId: userId,
            status: s,
            pricing,
          }),
        ),
      );
    await status("sent", {
      billable: true,
      pricing_model: "PMP",
      category: "service",
      type: "regular",
    });
    // Meta repeats the pricing on delivered: a different one never overwrites the first.
    await status("delivered", {
      billable: false,
      pricing_model: "PMP",
      category: "utility",
      type: "free_customer_service",
    });
    const detail = await answer(
      api(owner.token).conversations[":id"].$get({ param: { id: conversation.id } }),
    );
    expect(detail.body.data.billing).toEqual({
      billable_messages: 1,
      by_category: { service: 1 },
      free_entry_point_until: null,
    });
    const messages = await answer(
      api(owner.token).conversations[":id"].messages.$get({
        param: { id: conversation.id },
        query: {},
      }),
    );
    expect(messages.body.data.messages.at(-1)!.status).toBe("delivered");
  });

  it("records Meta's refusal of an authentication template to a BSUID in Spanish", async () => {
    const { owner, conversation } = await usernameCustomer();
    await orgSql(
      owner.organization.id,
      `INSERT INTO whatsapp_templates (id, organization_id, name, language, category, status, components, updated_at)
       VALUES (?, ?, 'codigo_acceso', 'es', 'AUTHENTICATION', 'APPROVED', ?, ?)`,
      crypto.randomUUID(),
      owner.organization.id,
      JSON.stringify([{ type: "BODY", text: "Tu código es {{1}}" }]),
      new Date().toISOString(),
    );
    const sent = await answer(
      api(owner.token).conversations.messages.$post({
        json: {
          conversation_id: conversation.id,
          template: { name: "codigo_acceso", language: "es", parameters: ["123456"] },
        },
      }),
    );
    expect(sent.status).toBe(201);
    expect(sent.body.data).toMatchObject({
      status: "failed",
      error:
        "Las plantillas de autenticación no se pueden enviar a un cliente con nombre de usuario sin teléfono.",
    });
  });

  it("asks for the phone and takes the one the customer shares", async () => {
    const { owner, phoneNumberId, userId, conversation } = await usernameCustomer();
    const asked = await answer(
      api(owner.token).conversations[":id"]["request-phone"].$post({
        param: { id: conversation.id },
      }),
    );
    expect(asked.status).toBe(201);
    expect(asked.body.data).toMatchObject({ type: "interactive", status: "sent" });
    const [request] = (await graphRequests("/messages")).filter(
      (r) => r.body?.recipient === userId && r.body?.type === "interactive",
    );
    expect(request.body.interactive).toMatchObject({
      type: "request_contact_info",
      action: { name: "request_contact_info" },
    });

    const number = phone();
    await deliver(
      delivery(
        inboundMessage({
          phoneNumberId,
          userId,
          // WhatsApp stamps whole seconds: the answer comes a second after the request.
          timestamp: String(Math.floor(Date.now() / 1000) + 1),
          type: "contacts",
          part: [
            {
              name: { formatted_name: "Leo", first_name: "Leo" },
              phones: [{ phone: `+${number}`, wa_id: number, type: "MOBILE" }],
              origin: "contact_request",
            },
          ],
        }),
      ),
    );
    const [updated] = await inbox(owner.token);
    expect(updated).toMatchObject({ id: conversation.id, phone_number: number });
    expect((await contents(owner.token, conversation.id)).at(-1)).toBe(
      `📱 El cliente compartió su teléfono: +${number}`,
    );
    // With the phone known there is nothing to ask.
    const again = await answer(
      api(owner.token).conversations[":id"]["request-phone"].$post({
        param: { id: conversation.id },
      }),
    );
    expect(again.status).toBe(409);
    // Another organization's member cannot ask on this conversation.
    const stranger = await createOwner();
    const foreign = await answer(
      api(stranger.token).conversations[":id"]["request-phone"].$post({
        param: { id: conversation.id },
      }),
    );
    expect(foreign.status).toBe(404);
  });

  it("sends a click-to-WhatsApp lead by ctwa_clid alone, with no hashed phone", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const userId = customerBsuid();
    await deliver(
      delivery(
        inboundMessage({
          phoneNumberId,
          wabaId: GRAPH_FIXTURES.wabaId,
          userId,
          referral: ctwaReferral({ ctwaClid: "ARAkBSUID01" }),
        }),
      ),
    );
    const [conversation] = await inbox(owner.token);
    const patched = await answer(
      api(owner.token).conversations[":id"].$patch({
        param: { id: conversation.id },
        json: { stage: "lead" },
      }),
    );
    expect(patched.status).toBe(200);
    const { id } = (await orgFirst<{ id: string }>(
      owner.organization.id,
      "SELECT id FROM conversions WHERE conversation_id = ? AND event_name = 'lead'",
      conversation.id,
    ))!;
    const lead = await settledConversion(owner.organization.id, id);
    expect(lead.capiStatus).toBe("sent");
    const [request] = (await graphRequests(`/${GRAPH_FIXTURES.datasetId}/events`)).filter((r) =>
      JSON.stringify(r.body).includes("ARAkBSUID01"),
    );
    const [event] = request.body.data;
    expect(event.user_data).toEqual({
      whatsapp_business_account_id: GRAPH_FIXTURES.wabaId,
      ctwa_clid: "ARAkBSUID01",
    });
  });

  it("shows the free entry point window a click-to-WhatsApp conversation earned", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    await deliver(
      delivery(
        inboundMessage({
          phoneNumberId,
          userId: customerBsuid(),
          referral: ctwaReferral({ ctwaClid: `ARAk${wamid().slice(-8)}` }),
        }),
      ),
    );
    const [conversation] = await inbox(owner.token);
    const before = await answer(
      api(owner.token).conversations[":id"].$get({ param: { id: conversation.id } }),
    );
    expect(before.body.data.billing.free_entry_point_until).toBeNull();
    const sent = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: conversation.id, content: "¡Hola! ¿En qué te ayudo?" },
      }),
    );
    const after = await answer(
      api(owner.token).conversations[":id"].$get({ param: { id: conversation.id } }),
    );
    expect(after.body.data.billing.free_entry_point_until).toBe(
      new Date(Date.parse(sent.body.data.created_at) + 72 * 3600_000).toISOString(),
    );
  });
});
