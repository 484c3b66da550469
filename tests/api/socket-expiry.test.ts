// A socket lives no longer than its session (server contract §12): when the session's expiry
// passes, the organization's hub closes the socket with 4001 (like a revocation), from its
// alarm or on the socket's next message, and sends it nothing more.
import { env } from "cloudflare:workers";
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { delivery, inboundMessage, wamid } from "../fakes/whatsapp-payloads.mjs";
import { connectWhatsapp } from "../support/db";
import { createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { connect } from "../support/sockets";
import { deliver } from "../support/webhooks";
import { organizationStore } from "../../worker/stores/registry";

/** A second session of the owner whose server-side expiry is `ms` away. */
async function shortSession(email: string, password: string, ms: number) {
  const login = await answer(api().auth.login.$post({ json: { email, password } }));
  const token: string = login.body.data.token;
  const { sid } = JSON.parse(atob(token.split(".")[1]!.replace(/-/g, "+").replace(/_/g, "/")));
  await env.DB.prepare("UPDATE sessions SET expires_at = ? WHERE id = ?")
    .bind(new Date(Date.now() + ms).toISOString(), sid)
    .run();
  return token;
}

const within = <T>(promise: Promise<T>, ms: number) =>
  Promise.race([
    promise,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error("timed out")), ms)),
  ]);

describe("a socket whose session expires", () => {
  it("is closed with 4001 when its session ends, and the others keep receiving", async () => {
    const owner = await createOwner();
    const { phoneNumberId } = await connectWhatsapp(owner.organization.id);
    const lasting = await connect(owner.token);
    const expiring = await connect(await shortSession(owner.email, owner.password, 1_500));

    expect(await within(expiring.closed, 10_000)).toEqual({
      code: 4001,
      reason: "Sesión caducada",
    });

    await deliver(
      delivery(inboundMessage({ phoneNumberId, from: "34611222333", id: wamid(), text: "tarde" })),
    );
    await lasting.receive((e) => e.type === "new_message");
    expect(expiring.received.filter((e) => e.type === "new_message")).toEqual([]);
    lasting.socket.close();
  });

  it("is closed on its next message once its session has ended, alarm or not", async () => {
    const owner = await createOwner();
    const socket = await connect(await shortSession(owner.email, owner.password, 1_000));
    // The alarm is lost (as if it had not run yet): the socket's own message is enough.
    const hub = await organizationStore(env, owner.organization.id);
    await runInDurableObject(hub, (_, state) => state.storage.deleteAlarm());
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    socket.socket.send("ping");
    expect(await within(socket.closed, 5_000)).toEqual({ code: 4001, reason: "Sesión caducada" });
    // Nothing but the notice that the session ended.
    expect(socket.received).toEqual([
      { type: "session_ended", data: { reason: "Sesión caducada" } },
    ]);
  });
});
