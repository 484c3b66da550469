// Fault: Meta is down when the AI's reply goes out. The bot's message is kept as failed with
// Meta's reason, the hub does not answer a second time, and "Reintentar" sends that same row.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { connectWhatsapp } from "../support/db";
import { createAgent, createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { customerThread } from "../support/conversations";
import { botMessages, runDueReplies } from "../support/replies";
import {
  customerPhone,
  deliver,
  failNext,
  graphRequests,
  modelRequests,
} from "../support/webhooks";
import { organizationStore } from "../../worker/stores/registry";
import { keysUnder } from "../support/scheduled-work";

describe("Meta down when the AI replies", () => {
  it("keeps the bot's reply failed with Meta's reason, answers once, and Reintentar sends it", async () => {
    const owner = await createOwner();
    const agent = await createAgent(owner);
    const { phoneNumberId } = await connectWhatsapp(owner.organization.id, {
      defaultAgentId: agent.id,
    });
    const hub = await organizationStore(env, owner.organization.id);
    const from = customerPhone();
    const question = `¿Tenéis cita el lunes? ${crypto.randomUUID()}`;
    // The fake model's reply repeats the question: only the reply's send fails, not the typing.
    await failNext("graph", {
      path: `/v25.0/${phoneNumberId}/messages`,
      contains: question,
      status: 500,
      error: { message: "Service unavailable", code: 131000 },
    });
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: question })));
    await runDueReplies(hub);

    const { conversation, messages } = await customerThread(owner.token, from);
    const [failed] = await botMessages(owner.organization.id, conversation.id);
    expect(await botMessages(owner.organization.id, conversation.id)).toHaveLength(1);
    expect(failed).toMatchObject({
      status: "failed",
      error: "WhatsApp no pudo enviar el mensaje por un error desconocido.",
    });
    // The conversation shows it, with the rest of the messages.
    expect(messages.at(-1)).toMatchObject({
      id: failed!.id,
      sender_type: "bot",
      status: "failed",
    });

    // The hub holds no retry for it, and running the alarm again answers nothing new.
    const pending = await keysUnder(hub, "reply:");
    expect(pending).toEqual([]);
    await runDueReplies(hub);
    expect(await botMessages(owner.organization.id, conversation.id)).toHaveLength(1);
    const asked = (await modelRequests()).filter((r) => JSON.stringify(r.body).includes(question));
    expect(asked).toHaveLength(1);

    const retried = await answer(
      api(owner.token).conversations[":id"].messages[":messageId"].retry.$post({
        param: { id: conversation.id, messageId: failed!.id },
      }),
    );
    expect(retried.status).toBe(200);
    expect(retried.body.data).toMatchObject({ id: failed!.id, sender_type: "bot", status: "sent" });
    expect(await botMessages(owner.organization.id, conversation.id)).toEqual([
      expect.objectContaining({ id: failed!.id, status: "sent", content: failed!.content }),
    ]);
    const sends = (await graphRequests(`/${phoneNumberId}/messages`)).filter(
      (r) => r.body.type === "text",
    );
    expect(sends.map((r) => r.body.text.body)).toEqual([failed!.content, failed!.content]);
  });
});
