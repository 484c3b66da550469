import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createOwner, registerUser } from "../support/factories";
import { call } from "../support/http";

async function inviteAndJoin(owner: Awaited<ReturnType<typeof createOwner>>, role: string) {
  const user = await registerUser();
  const invitation = await call("POST", "/api/v1/organizations/invitations", {
    token: owner.token,
    body: { email: user.email, role },
  });
  expect(invitation.status).toBe(201);
  const token = new URL(invitation.body.data.url).searchParams.get("invitation");
  const joined = await call("POST", "/api/v1/organizations/invitations/accept", {
    token: user.token,
    body: { token },
  });
  expect(joined.status).toBe(200);
  return { ...user, invitationToken: token! };
}

describe("team", () => {
  it("joins through a single-use invitation link with the invited role", async () => {
    const owner = await createOwner({ name: "Equipo" });
    const member = await inviteAndJoin(owner, "agent");
    const me = await call("GET", "/api/v1/auth/me", { token: member.token });
    expect(me.body.data).toMatchObject({ role: "agent", organization: { name: "Equipo" } });

    const other = await registerUser();
    const reuse = await call("POST", "/api/v1/organizations/invitations/accept", {
      token: other.token,
      body: { token: member.invitationToken },
    });
    expect(reuse.status).toBe(404);

    const list = await call("GET", "/api/v1/organizations/members", { token: member.token });
    expect(list.body.data.map((m: { role: string }) => m.role)).toEqual(["owner", "agent"]);
  });

  it("refuses an expired invitation", async () => {
    const owner = await createOwner();
    const user = await registerUser();
    const invitation = await call("POST", "/api/v1/organizations/invitations", {
      token: owner.token,
      body: { email: user.email },
    });
    await env.DB.prepare("UPDATE invitations SET expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), invitation.body.data.id)
      .run();
    const token = new URL(invitation.body.data.url).searchParams.get("invitation");
    const res = await call("POST", "/api/v1/organizations/invitations/accept", {
      token: user.token,
      body: { token },
    });
    expect(res.status).toBe(404);
    expect(
      (await call("GET", "/api/v1/auth/me", { token: user.token })).body.data.organization,
    ).toBeNull();
  });

  it("never leaves an organization without an owner", async () => {
    const owner = await createOwner();
    const demote = await call("PATCH", `/api/v1/organizations/members/${owner.user.id}`, {
      token: owner.token,
      body: { role: "admin" },
    });
    expect(demote.status).toBe(422);
    expect(demote.body.error).toBe("last_owner");
    const remove = await call("DELETE", `/api/v1/organizations/members/${owner.user.id}`, {
      token: owner.token,
    });
    expect(remove.status).toBe(422);

    const second = await inviteAndJoin(owner, "owner");
    const now = await call("PATCH", `/api/v1/organizations/members/${owner.user.id}`, {
      token: second.token,
      body: { role: "admin" },
    });
    expect(now.status).toBe(200);
    expect(now.body.data.role).toBe("admin");
  });

  it("lets admins manage agents but not owners; agents manage nobody", async () => {
    const owner = await createOwner();
    const admin = await inviteAndJoin(owner, "admin");
    const agent = await inviteAndJoin(owner, "agent");
    const promote = await call("PATCH", `/api/v1/organizations/members/${agent.user.id}`, {
      token: admin.token,
      body: { role: "owner" },
    });
    expect(promote.status).toBe(403);
    const touchOwner = await call("DELETE", `/api/v1/organizations/members/${owner.user.id}`, {
      token: admin.token,
    });
    expect(touchOwner.status).toBe(403);
    const byAgent = await call("POST", "/api/v1/organizations/invitations", {
      token: agent.token,
      body: { email: "x@example.com" },
    });
    expect(byAgent.status).toBe(403);
    const removed = await call("DELETE", `/api/v1/organizations/members/${agent.user.id}`, {
      token: admin.token,
    });
    expect(removed.status).toBe(200);
    expect((await call("GET", "/api/v1/conversations", { token: agent.token })).status).toBe(404);
  });

  it("a role change signs the person out everywhere; removal leaves them their account", async () => {
    const owner = await createOwner();
    const member = await inviteAndJoin(owner, "agent");
    const changeRole = (role: string) =>
      call("PATCH", `/api/v1/organizations/members/${member.user.id}`, {
        token: owner.token,
        body: { role },
      });
    // The same role is no change: nothing is revoked.
    expect((await changeRole("agent")).status).toBe(200);
    expect((await call("GET", "/api/v1/auth/me", { token: member.token })).status).toBe(200);

    expect((await changeRole("admin")).status).toBe(200);
    expect((await call("GET", "/api/v1/auth/me", { token: member.token })).status).toBe(401);
    expect((await call("GET", "/api/v1/auth/me", { token: owner.token })).status).toBe(200);

    const again = await call("POST", "/api/v1/auth/login", {
      body: { email: member.email, password: member.password },
    });
    const me = await call("GET", "/api/v1/auth/me", { token: again.body.data.token });
    expect(me.body.data.role).toBe("admin");

    await call("DELETE", `/api/v1/organizations/members/${member.user.id}`, { token: owner.token });
    const after = await call("GET", "/api/v1/auth/me", { token: again.body.data.token });
    expect(after.status).toBe(200);
    expect(after.body.data).toMatchObject({ organization: null, role: null });
  });

  it("members and invitations of another organization are 404", async () => {
    const a = await createOwner();
    const b = await createOwner();
    const invitation = await call("POST", "/api/v1/organizations/invitations", {
      token: b.token,
      body: { email: "nuevo@example.com" },
    });
    const results = await Promise.all([
      call("PATCH", `/api/v1/organizations/members/${b.user.id}`, {
        token: a.token,
        body: { role: "agent" },
      }),
      call("DELETE", `/api/v1/organizations/members/${b.user.id}`, { token: a.token }),
      call("DELETE", `/api/v1/organizations/invitations/${invitation.body.data.id}`, {
        token: a.token,
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual([404, 404, 404]);
    const pending = await call("GET", "/api/v1/organizations/invitations", { token: b.token });
    expect(pending.body.data).toHaveLength(1);
    expect(pending.body.data[0].url).toBeUndefined();
  });
});
