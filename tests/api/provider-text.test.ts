// What Meta or the model say when they refuse is theirs: it may name ids, tokens, prompt
// fragments or internals. An API answer carries the Spanish message only; the provider's own
// words go to the log. Each refusal below carries a distinctive text that must not come back.
import { describe, expect, it } from "vitest";
import { createAgent, createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { failNext } from "../support/webhooks";

describe("a provider's own error text", () => {
  it("never reaches the answer when Meta refuses with a code the product does not know", async () => {
    const owner = await createOwner();
    const phoneNumberId = `5559${Math.floor(Math.random() * 1e8)}`;
    await failNext("graph", {
      path: `/v25.0/${phoneNumberId}`,
      status: 400,
      error: { message: "SECRETO-META token EAAB1234 internal shard 7", code: 9999 },
    });
    const res = await answer(
      api(owner.token)["whatsapp-config"].$post({
        json: {
          phone_number_id: phoneNumberId,
          business_account_id: "waba-1",
          access_token: "sandbox-access-token",
        },
      }),
    );
    expect(res.status).toBe(422);
    expect(res.body.message).toBe("Meta rechazó la petición (código 9999).");
    expect(JSON.stringify(res.body)).not.toContain("SECRETO-META");
  });

  it("never reaches the answer when the model refuses", async () => {
    const owner = await createOwner();
    const agent = await createAgent(owner);
    const question = `Hola ${crypto.randomUUID()}`;
    await failNext("model", {
      path: "/api/v1/chat/completions",
      contains: question,
      status: 400,
      error: { message: "SECRETO-MODELO system prompt: Eres un asistente" },
    });
    const res = await answer(
      api(owner.token).agents[":id"].test.$post({
        param: { id: agent.id },
        json: { messages: [{ role: "user", content: question }] },
      }),
    );
    expect(res.status).toBe(502);
    expect(res.body.message).toBe("El proveedor de IA rechazó la petición (HTTP 400).");
    expect(JSON.stringify(res.body)).not.toContain("SECRETO-MODELO");
  });
});
