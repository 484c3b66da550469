// Revocation reaches sockets (server contract §12): logout, refresh, removal from the
// organization, a role change and account deletion close that person's open sockets with
// 4001, the old token cannot open a new one, and everyone else keeps receiving.
import { env } from "cloudflare:workers";
import { afterEach, describe, expect, it, vi } from "vitest";
import { delivery, inboundMessage, wamid } from "../fakes/whatsapp-payloads.mjs";
import { connectWhatsapp } from "../support/db";
import { createOwner, registerUser } from "../support/factories";
import { answer, api } from "../support/api";
import { connect, upgrade, type ReceivedEvent } from "../support/sockets";
import { deliver } from "../support/webhooks";

type Socket = Awaited<ReturnType<typeof connect>>;
type Team = Awaited<ReturnType<typeof team>>;

/** An organization with a WhatsApp number, its owner and an agent, each with a socket open. */
async function team() {
  const owner = await createOwner();
  const { phoneNumberId } = await connectWhatsapp(owner.organization.id);
  const member = await registerUser();
  const invitation = await answer(
    api(owner.token).organizations.invitations.$post({
      json: { email: member.email, role: "agent" },
    }),
  );
  const joined = await answer(
    api(member.token).organizations.invitations.accept.$post({
      json: { token: new URL(invitation.body.data.url!).searchParams.get("invitation")! },
    }),
  );
  expect(joined.status).toBe(200);
  return {
    owner,
    member,
    phoneNumberId,
    ownerSocket: await connect(owner.token),
    memberSocket: await connect(member.token),
  };
}

const isNewMessage = (text: string) => (event: ReceivedEvent) =>
  event.type === "new_message" && event.data.message.content === text;

/** A customer writes through the signed webhook; resolves once `listener` has the message. */
async function customerWrites(phoneNumberId: string, text: string, listener: Socket) {
  const res = await deliver(
    delivery(inboundMessage({ phoneNumberId, from: "34611222333", id: wamid(), text })),
  );
  expect(res.status).toBe(200);
  await listener.receive(isNewMessage(text));
}

/**
 * The whole promise for one trigger: both sockets receive a message; after `revoke` the
 * person's socket is closed with 4001, their old token cannot open a socket, and the next
 * message reaches the bystander only.
 */
async function expectRevocationReachesSockets(revoke: (t: Team) => Promise<unknown>) {
  const t = await team();
  await customerWrites(t.phoneNumberId, "antes", t.ownerSocket);
  await t.memberSocket.receive(isNewMessage("antes"));

  await revoke(t);
  expect(await t.memberSocket.closed).toEqual({ code: 4001, reason: "Sesión revocada" });
  // Told first as an event too: a proxy that drops close frames still carries it.
  expect(t.memberSocket.received.at(-1)).toEqual({
    type: "session_ended",
    data: { reason: "Sesión revocada" },
  });
  expect((await upgrade(t.member.token)).status).toBe(401);

  await customerWrites(t.phoneNumberId, "después", t.ownerSocket);
  expect(t.memberSocket.received.filter(isNewMessage("después"))).toEqual([]);
  t.ownerSocket.socket.close();
  return t;
}

describe("revocation reaches open sockets", () => {
  it("logout closes that session's sockets, and only that session's", async () => {
    let otherSession: { token: string; socket: Socket } | undefined;
    await expectRevocationReachesSockets(async (t) => {
      const login = await answer(
        api().auth.login.$post({ json: { email: t.member.email, password: t.member.password } }),
      );
      otherSession = { token: login.body.data.token, socket: await connect(login.body.data.token) };
      expect((await answer(api(t.member.token).auth.logout.$post())).status).toBe(200);
    });
    // The same person signed in elsewhere keeps that session and its socket.
    await otherSession!.socket.receive(isNewMessage("después"));
    expect((await upgrade(otherSession!.token)).status).toBe(101);
    otherSession!.socket.socket.close();
  });

  it("refresh closes the old session's sockets; the new token opens one", async () => {
    let fresh = "";
    await expectRevocationReachesSockets(async (t) => {
      const res = await answer(api(t.member.token).auth.refresh.$post());
      expect(res.status).toBe(200);
      fresh = res.body.data.token;
    });
    const socket = await connect(fresh);
    socket.socket.close();
  });

  it("removal from the organization closes the person's sockets there", async () => {
    await expectRevocationReachesSockets(async (t) => {
      const res = await answer(
        api(t.owner.token).organizations.members[":userId"].$delete({
          param: { userId: t.member.user.id },
        }),
      );
      expect(res.status).toBe(200);
    });
  });

  it("a role change closes the person's sockets and signs them out", async () => {
    const t = await expectRevocationReachesSockets(async (t) => {
      const res = await answer(
        api(t.owner.token).organizations.members[":userId"].$patch({
          param: { userId: t.member.user.id },
          json: { role: "admin" },
        }),
      );
      expect(res.status).toBe(200);
    });
    expect((await answer(api(t.member.token).auth.me.$get())).status).toBe(401);
  });

  it("account deletion closes every socket of the account", async () => {
    await expectRevocationReachesSockets(async (t) => {
      const res = await answer(
        api(t.member.token).profiles.me.$delete({ json: { password: t.member.password } }),
      );
      expect(res.status).toBe(200);
    });
  });
});

describe("a socket opened while its session is being revoked", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is closed when the revocation lands between the token check and the hub's accept", async () => {
    const t = await team();
    const hubs = env.ORGANIZATION_HUB;
    const getByName = hubs.getByName.bind(hubs);
    // The logout (D1 first, then closing the sockets that exist) runs after /ws checked the
    // token and before the hub accepts: the race the route's second check is there for.
    vi.spyOn(hubs, "getByName").mockImplementation((name) => {
      const hub = getByName(name);
      return new Proxy(hub, {
        get(target, property) {
          if (property !== "fetch") return Reflect.get(target, property);
          return async (request: Request) => {
            vi.restoreAllMocks();
            await answer(api(t.member.token).auth.logout.$post());
            return target.fetch(request);
          };
        },
      });
    });
    const res = await upgrade(t.member.token);
    expect(res.status).toBe(101);
    const socket = res.webSocket!;
    const closed = new Promise<number>((resolve) => {
      socket.addEventListener("close", (event) => resolve(event.code));
    });
    socket.accept();
    expect(await closed).toBe(4001);
    t.ownerSocket.socket.close();
  });
});
