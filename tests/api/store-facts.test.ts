import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createConversation, createOwner } from "../support/factories";
import { connectWhatsapp, openWindow } from "../support/db";
import { answer, api } from "../support/api";
import { graphRequests } from "../support/webhooks";
import { encryptSecret } from "../../durable-objects/meta/secrets";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";

type Owner = Awaited<ReturnType<typeof createOwner>>;

/**
 * The store keeps its organization's global facts (decision 0136): every send must still use the
 * number and token D1 holds now, whoever changed them. The fake Graph API accepts three tokens:
 * each change below moves to another of them.
 */

const connect = (owner: Owner, phoneNumberId: string, token: string) =>
  answer(
    api(owner.token)["whatsapp-config"].$post({
      json: {
        phone_number_id: phoneNumberId,
        business_account_id: "waba-facts",
        access_token: token,
      },
    }),
  );

/** A text reply from the console, with a content of its own to find it at the fake Graph. */
async function reply(owner: Owner, conversationId: string) {
  const content = `facts-${crypto.randomUUID()}`;
  const res = await answer(
    api(owner.token).conversations.messages.$post({
      json: { conversation_id: conversationId, content },
    }),
  );
  expect(res.status).toBe(201);
  const sent = (await graphRequests("/messages")).filter(
    (r) => JSON.stringify(r.body).includes(content) && r.method === "POST",
  );
  return { message: res.body.data, sent };
}

const bearerOf = (request: { headers: Record<string, string> }) =>
  request.headers.authorization?.replace(/^Bearer\s+/i, "");

async function ownerWithConversation() {
  const owner = await createOwner();
  const conversation = await createConversation(owner);
  await openWindow(owner.organization.id, conversation.id);
  return { owner, conversation };
}

describe("the store's copy of its organization's facts", () => {
  it("sends with the token of a reconnection, made in the console or straight in D1", async () => {
    const { owner, conversation } = await ownerWithConversation();
    const phoneNumberId = `pn-facts-${crypto.randomUUID().slice(0, 8)}`;
    expect((await connect(owner, phoneNumberId, "sandbox-access-token")).status).toBe(201);

    const first = await reply(owner, conversation.id);
    expect(first.sent).toHaveLength(1);
    expect(first.sent[0].path).toMatch(new RegExp(`/${phoneNumberId}/messages$`));
    expect(bearerOf(first.sent[0])).toBe("sandbox-access-token");

    // A new token through the console: the store changes it and forgets its copy.
    const patched = await answer(
      api(owner.token)["whatsapp-config"].$patch({
        json: { access_token: GRAPH_FIXTURES.businessToken },
      }),
    );
    expect(patched.status).toBe(200);
    const second = await reply(owner, conversation.id);
    expect(second.sent.map(bearerOf)).toEqual([GRAPH_FIXTURES.businessToken]);

    // A change the store was never told of: D1's triggers move the version the edge hands it.
    await env.DB.prepare(
      "UPDATE whatsapp_connections SET access_token_encrypted = ? WHERE organization_id = ?",
    )
      .bind(await encryptSecret("test-access-token", env.ENCRYPTION_KEY), owner.organization.id)
      .run();
    const third = await reply(owner, conversation.id);
    expect(third.sent.map(bearerOf)).toEqual(["test-access-token"]);
  });

  it("refuses to send at once from a number disconnected in the console or in D1", async () => {
    const { owner, conversation } = await ownerWithConversation();
    await connect(owner, `pn-facts-${crypto.randomUUID().slice(0, 8)}`, "sandbox-access-token");
    expect((await reply(owner, conversation.id)).sent).toHaveLength(1);

    expect((await answer(api(owner.token)["whatsapp-config"].$delete())).status).toBe(200);
    const afterDelete = await reply(owner, conversation.id);
    expect(afterDelete.sent).toEqual([]);
    expect(afterDelete.message).toMatchObject({
      status: "failed",
      error: expect.stringContaining("WhatsApp no está conectado"),
    });

    // Connected again, then disconnected behind the store's back (as Meta's account_update does
    // through another path): the next send is refused too.
    await connect(owner, `pn-facts-${crypto.randomUUID().slice(0, 8)}`, "test-access-token");
    expect((await reply(owner, conversation.id)).sent.map(bearerOf)).toEqual(["test-access-token"]);
    await env.DB.prepare(
      "UPDATE whatsapp_connections SET status = 'disconnected' WHERE organization_id = ?",
    )
      .bind(owner.organization.id)
      .run();
    const afterD1 = await reply(owner, conversation.id);
    expect(afterD1.sent).toEqual([]);
    expect(afterD1.message).toMatchObject({ status: "failed" });
  });

  it("never gives one organization's number or token to another", async () => {
    const a = await ownerWithConversation();
    const b = await ownerWithConversation();
    const numberA = `pn-facts-${crypto.randomUUID().slice(0, 8)}`;
    expect((await connect(a.owner, numberA, "sandbox-access-token")).status).toBe(201);
    const { phoneNumberId: numberB } = await connectWhatsapp(b.owner.organization.id);

    for (let round = 0; round < 2; round++) {
      const fromA = await reply(a.owner, a.conversation.id);
      const fromB = await reply(b.owner, b.conversation.id);
      expect(fromA.sent.map((r) => [r.path.replace(/^\/v[\d.]+/, ""), bearerOf(r)])).toEqual([
        [`/${numberA}/messages`, "sandbox-access-token"],
      ]);
      expect(fromB.sent.map((r) => [r.path.replace(/^\/v[\d.]+/, ""), bearerOf(r)])).toEqual([
        [`/${numberB}/messages`, "test-access-token"],
      ]);
    }
  });

  it("reads the pixel with its newest token, changed in the console or straight in D1", async () => {
    const owner = await createOwner();
    const other = await createOwner();
    const connected = await answer(
      api(owner.token)["meta-config"].$post({
        json: { pixel_id: GRAPH_FIXTURES.pixelId, access_token: "sandbox-access-token" },
      }),
    );
    expect(connected.status).toBe(201);

    /** The token Meta received for the pixel's details, asked for through the console. */
    async function pixelInfoToken(who: Owner) {
      const before = (await graphRequests(`/${GRAPH_FIXTURES.pixelId}`)).length;
      const info = await answer(api(who.token)["meta-config"]["pixel-info"].$get());
      const asked = (await graphRequests(`/${GRAPH_FIXTURES.pixelId}`)).slice(before);
      return { status: info.status, tokens: asked.map(bearerOf) };
    }
    expect(await pixelInfoToken(owner)).toEqual({ status: 200, tokens: ["sandbox-access-token"] });
    // The other organization has no pixel: its store's facts say so, and Meta is not asked.
    expect(await pixelInfoToken(other)).toEqual({ status: 404, tokens: [] });

    // A new token through the console: the store changes it and forgets its copy.
    const patched = await answer(
      api(owner.token)["meta-config"].$patch({ json: { access_token: "test-access-token" } }),
    );
    expect(patched.status).toBe(200);
    expect((await pixelInfoToken(owner)).tokens).toEqual(["test-access-token"]);

    // Changed behind the store's back: the version D1's triggers move is handed at the next call.
    await env.DB.prepare(
      "UPDATE meta_connections SET access_token_encrypted = ? WHERE organization_id = ?",
    )
      .bind(
        await encryptSecret(GRAPH_FIXTURES.businessToken, env.ENCRYPTION_KEY),
        owner.organization.id,
      )
      .run();
    expect((await pixelInfoToken(owner)).tokens).toEqual([GRAPH_FIXTURES.businessToken]);

    // Deleted in D1: the console says the pixel is not connected.
    await env.DB.prepare("DELETE FROM meta_connections WHERE organization_id = ?")
      .bind(owner.organization.id)
      .run();
    expect((await answer(api(owner.token)["meta-config"].$get())).status).toBe(404);
  });
});
