// Fault: the organization's Durable Object restarts while consoles are connected. Their
// sockets close; a new socket works at once, and a message that arrived meanwhile is in the
// conversation exactly once when the console fetches what it missed.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { connectWhatsapp } from "../support/db";
import { createOwner } from "../support/factories";
import { customerThread } from "../support/conversations";
import { connect, tick } from "../support/sockets";
import { customerPhone, deliver } from "../support/webhooks";
import { organizationStore } from "../../worker/stores/registry";

describe("the organization's hub restarts", () => {
  it("closes the sockets; a new one works and nothing stored meanwhile is lost or doubled", async () => {
    const owner = await createOwner();
    const { phoneNumberId } = await connectWhatsapp(owner.organization.id);
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Antes del reinicio" })));

    const before = await connect(owner.token);
    const closed = new Promise<number>((resolve) =>
      before.socket.addEventListener("close", (event) => resolve(event.code)),
    );
    const hub = await organizationStore(env, owner.organization.id);
    await runInDurableObject(hub, (_instance, state) => state.abort("reinicio de prueba")).catch(
      () => undefined, // abort() ends the call that asked for it too
    );
    expect(await closed).not.toBe(4001); // not a revocation: the console reconnects

    // While no console is connected, the customer writes; it is stored all the same.
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Durante el corte" })));

    const after = await connect(owner.token);
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "Después del corte" })));
    await tick();
    expect(after.received.map((e) => e.type)).toContain("new_message");
    expect(before.received.some((e) => e.data.message?.content === "Después del corte")).toBe(
      false,
    );

    // What the console fetches after reconnecting: every message once, in order.
    const { messages } = await customerThread(owner.token, from);
    expect(messages.map((m: { content: string }) => m.content)).toEqual([
      "Antes del reinicio",
      "Durante el corte",
      "Después del corte",
    ]);
    after.socket.close();
  });
});
