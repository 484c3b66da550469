import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { RealtimeEvent } from "../../contracts/realtime";
import { organizationStore } from "../../worker/stores/registry";
import { createOwner, registerUser } from "../support/factories";
import { answer, api } from "../support/api";
import { exports } from "cloudflare:workers";
import { connect, tick } from "../support/sockets";

/** Sends events through the organization's store, as its own code does (its `publish`). */
async function publish(organizationId: string, ...events: RealtimeEvent[]) {
  return (await organizationStore(env, organizationId)).publish(organizationId, events);
}

describe("GET /ws", () => {
  it("refuses a missing or bad token with 401 before upgrading", async () => {
    for (const query of ["", "?token=basura"]) {
      const res = await exports.default.fetch(`http://localhost/ws${query}`, {
        headers: { Upgrade: "websocket" },
      });
      expect(res.status).toBe(401);
      expect(res.webSocket).toBeNull();
    }
  });

  it("refuses a revoked token", async () => {
    const owner = await createOwner();
    await answer(api(owner.token).auth.logout.$post());
    const res = await exports.default.fetch(`http://localhost/ws?token=${owner.token}`, {
      headers: { Upgrade: "websocket" },
    });
    expect(res.status).toBe(401);
  });

  it("refuses a user without an organization", async () => {
    const user = await registerUser();
    const res = await exports.default.fetch(`http://localhost/ws?token=${user.token}`, {
      headers: { Upgrade: "websocket" },
    });
    expect(res.status).toBe(401);
  });

  it("delivers an organization's events to its sockets only", async () => {
    const a = await createOwner();
    const b = await createOwner();
    const a1 = await connect(a.token);
    const a2 = await connect(a.token);
    const b1 = await connect(b.token);

    const event = { type: "conversation_update" as const, data: { conversation: { id: "c1" } } };
    expect(await publish(a.organization.id, event)).toBe(2);
    await tick();
    expect(a1.received).toEqual([event]);
    expect(a2.received).toEqual([event]);
    expect(b1.received).toEqual([]);

    for (const s of [a1, a2, b1]) s.socket.close();
  });

  it("sends several events in one call, in order", async () => {
    const a = await createOwner();
    const socket = await connect(a.token);
    const first = { type: "new_message" as const, data: { message: { id: "m1" } } };
    const second = { type: "new_message" as const, data: { message: { id: "m2" } } };

    expect(await publish(a.organization.id, first, second)).toBe(1);
    await tick();
    expect(socket.received).toEqual([first, second]);
    expect(await publish(a.organization.id)).toBe(0);

    socket.socket.close();
  });
});
