// Meta's 2026 wire format replayed verbatim: each payload below is written out as the
// "Business-scoped user IDs" and "Pricing" pages show it (not built by the test helpers), so
// a helper that drifted from Meta's format cannot hide it. Only the ids are made unique.
import { describe, expect, it } from "vitest";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { connectWhatsapp } from "../support/db";
import { createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { orgFirst } from "../support/org-data";
import { deliver } from "../support/webhooks";

const unique = () => crypto.randomUUID().replaceAll("-", "").slice(0, 18);

async function connectedOwner() {
  const owner = await createOwner();
  const connection = await connectWhatsapp(owner.organization.id, {
    businessAccountId: GRAPH_FIXTURES.wabaId,
  });
  return { owner, phoneNumberId: connection.phoneNumberId };
}

/** The envelope of every messages webhook. */
const webhook = (phoneNumberId: string, value: Record<string, unknown>) => ({
  object: "whatsapp_business_account",
  entry: [
    {
      id: GRAPH_FIXTURES.wabaId,
      changes: [
        {
          field: "messages",
          value: {
            messaging_product: "whatsapp",
            metadata: { display_phone_number: "15550783881", phone_number_id: phoneNumberId },
            ...value,
          },
        },
      ],
    },
  ],
});

async function conversations(token: string) {
  const res = await answer(api(token).conversations.$get({ query: { limit: "100" } }));
  return res.body.data.conversations as any[];
}

describe("Meta's 2026 webhook payloads, replayed as documented", () => {
  it("a text from a username customer whose phone is withheld, then the shared contact", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const userId = `US.${unique()}`;
    const text = await deliver(
      webhook(phoneNumberId, {
        contacts: [
          { profile: { name: "Sheena Nelson", username: "@realsheenanelson" }, user_id: userId },
        ],
        messages: [
          {
            from_user_id: userId,
            id: `wamid.${unique()}`,
            timestamp: String(Math.floor(Date.now() / 1000)),
            text: { body: "Does it come in another color?" },
            type: "text",
          },
        ],
      }),
    );
    expect(text.status).toBe(200);
    let [conversation] = await conversations(owner.token);
    const thread = await answer(
      api(owner.token).conversations[":id"].messages.$get({
        param: { id: conversation.id },
        query: {},
      }),
    );
    expect(thread.body.data.messages.map((m: { content: string }) => m.content)).toEqual([
      "Does it come in another color?",
    ]);
    expect(conversation).toMatchObject({
      phone_number: null,
      contact: {
        name: "Sheena Nelson",
        phone_number: null,
        username: "realsheenanelson",
        user_id: userId,
      },
    });

    // The answer to "Pedir teléfono": a contacts message whose origin is contact_request.
    await deliver(
      webhook(phoneNumberId, {
        contacts: [{ profile: { name: "Sheena Nelson" }, user_id: userId }],
        messages: [
          {
            from_user_id: userId,
            id: `wamid.${unique()}`,
            timestamp: String(Math.floor(Date.now() / 1000)),
            type: "contacts",
            contacts: [
              {
                origin: "contact_request",
                name: { formatted_name: "Sheena Nelson", first_name: "Sheena" },
                phones: [{ phone: "+1 631-555-1002", wa_id: "16315551002", type: "MOBILE" }],
              },
            ],
          },
        ],
      }),
    );
    [conversation] = await conversations(owner.token);
    expect(conversation).toMatchObject({
      phone_number: "16315551002",
      contact: { user_id: userId },
    });
    expect(await conversations(owner.token)).toHaveLength(1);
  });

  it("user_changed_user_id: no contacts array, the old and the new BSUID", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const before = `US.${unique()}`;
    const after = `US.${unique()}`;
    await deliver(
      webhook(phoneNumberId, {
        contacts: [{ profile: { name: "Pablo Morales" }, user_id: before }],
        messages: [
          {
            from_user_id: before,
            id: `wamid.${unique()}`,
            timestamp: String(Math.floor(Date.now() / 1000)),
            text: { body: "Hola" },
            type: "text",
          },
        ],
      }),
    );
    const changed = await deliver(
      webhook(phoneNumberId, {
        messages: [
          {
            from_user_id: before,
            id: `wamid.${unique()}`,
            system: {
              body: "User A changed their user ID",
              user_id: after,
              previous_user_id: before,
              type: "user_changed_user_id",
            },
            timestamp: String(Math.floor(Date.now() / 1000)),
            type: "system",
          },
        ],
      }),
    );
    expect(changed.status).toBe(200);
    const [conversation] = await conversations(owner.token);
    expect(conversation.contact.user_id).toBe(after);
    expect(await conversations(owner.token)).toHaveLength(1);
  });

  it("a status naming the customer by BSUID, with its per-message pricing", async () => {
    const { owner, phoneNumberId } = await connectedOwner();
    const userId = `US.${unique()}`;
    await deliver(
      webhook(phoneNumberId, {
        contacts: [{ profile: { name: "Ana" }, user_id: userId }],
        messages: [
          {
            from_user_id: userId,
            id: `wamid.${unique()}`,
            timestamp: String(Math.floor(Date.now() / 1000)),
            text: { body: "¿Precio?" },
            type: "text",
          },
        ],
      }),
    );
    const [conversation] = await conversations(owner.token);
    const sent = await answer(
      api(owner.token).conversations.messages.$post({
        json: { conversation_id: conversation.id, content: "Son 30 €" },
      }),
    );
    expect(sent.status).toBe(201);
    const { wamid } = (await orgFirst<{ wamid: string }>(
      owner.organization.id,
      "SELECT wamid FROM messages WHERE id = ?",
      sent.body.data.id,
    ))!;
    const status = await deliver(
      webhook(phoneNumberId, {
        statuses: [
          {
            id: wamid,
            status: "delivered",
            timestamp: String(Math.floor(Date.now() / 1000)),
            recipient_user_id: userId,
            pricing: {
              billable: true,
              pricing_model: "PMP",
              category: "service",
              type: "regular",
            },
          },
        ],
      }),
    );
    expect(status.status).toBe(200);
    const detail = await answer(
      api(owner.token).conversations[":id"].$get({ param: { id: conversation.id } }),
    );
    expect(detail.body.data.billing).toMatchObject({
      billable_messages: 1,
      by_category: { service: 1 },
    });
    const stored = await orgFirst<{ status: string }>(
      owner.organization.id,
      "SELECT status FROM messages WHERE id = ?",
      sent.body.data.id,
    );
    expect(stored?.status).toBe("delivered");
  });
});
