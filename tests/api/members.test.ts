import { env } from "cloudflare:workers";
import type { InferRequestType } from "hono/client";
import { describe, expect, it } from "vitest";
import { createOwner, registerUser } from "../support/factories";
import { answer, api } from "../support/api";
import { orgSql } from "../support/org-data";

type Client = ReturnType<typeof api>;
type Invitation = InferRequestType<Client["organizations"]["invitations"]["$post"]>["json"];
type MemberChange = InferRequestType<
  Client["organizations"]["members"][":userId"]["$patch"]
>["json"];

const accept = (token: string, invitation: string) =>
  answer(api(token).organizations.invitations.accept.$post({ json: { token: invitation } }));

const me = (token: string) => answer(api(token).auth.me.$get());

async function inviteAndJoin(
  owner: Awaited<ReturnType<typeof createOwner>>,
  role: Invitation["role"],
) {
  const user = await registerUser();
  const invitation = await answer(
    api(owner.token).organizations.invitations.$post({ json: { email: user.email, role } }),
  );
  expect(invitation.status).toBe(201);
  const token = new URL(invitation.body.data.url!).searchParams.get("invitation");
  const joined = await accept(user.token, token!);
  expect(joined.status).toBe(200);
  return { ...user, invitationToken: token! };
}

describe("team", () => {
  it("joins through a single-use invitation link with the invited role", async () => {
    const owner = await createOwner({ name: "Equipo" });
    const member = await inviteAndJoin(owner, "agent");
    const mine = await me(member.token);
    expect(mine.body.data).toMatchObject({ role: "agent", organization: { name: "Equipo" } });

    const other = await registerUser();
    const reuse = await accept(other.token, member.invitationToken);
    expect(reuse.status).toBe(404);

    const list = await answer(api(member.token).organizations.members.$get());
    expect(list.body.data.map((m) => m.role)).toEqual(["owner", "agent"]);
  });

  it("refuses an expired invitation", async () => {
    const owner = await createOwner();
    const user = await registerUser();
    const invitation = await answer(
      api(owner.token).organizations.invitations.$post({ json: { email: user.email } }),
    );
    await env.DB.prepare("UPDATE invitations SET expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), invitation.body.data.id)
      .run();
    const token = new URL(invitation.body.data.url!).searchParams.get("invitation");
    const res = await accept(user.token, token!);
    expect(res.status).toBe(404);
    expect((await me(user.token)).body.data.organization).toBeNull();
  });

  it("never leaves an organization without an owner", async () => {
    const owner = await createOwner();
    const member = (token: string) => api(token).organizations.members[":userId"];
    const param = { userId: owner.user.id };
    const demote = await answer(member(owner.token).$patch({ param, json: { role: "admin" } }));
    expect(demote.status).toBe(422);
    expect(demote.body.error).toBe("last_owner");
    const remove = await answer(member(owner.token).$delete({ param }));
    expect(remove.status).toBe(422);

    const second = await inviteAndJoin(owner, "owner");
    const now = await answer(member(second.token).$patch({ param, json: { role: "admin" } }));
    expect(now.status).toBe(200);
    expect(now.body.data.role).toBe("admin");
  });

  it("lets admins manage agents but not owners; agents manage nobody", async () => {
    const owner = await createOwner();
    const admin = await inviteAndJoin(owner, "admin");
    const agent = await inviteAndJoin(owner, "agent");
    const byAdmin = api(admin.token).organizations;
    const promote = await answer(
      byAdmin.members[":userId"].$patch({
        param: { userId: agent.user.id },
        json: { role: "owner" },
      }),
    );
    expect(promote.status).toBe(403);
    const touchOwner = await answer(
      byAdmin.members[":userId"].$delete({ param: { userId: owner.user.id } }),
    );
    expect(touchOwner.status).toBe(403);
    const byAgent = await answer(
      api(agent.token).organizations.invitations.$post({ json: { email: "x@example.com" } }),
    );
    expect(byAgent.status).toBe(403);
    const removed = await answer(
      byAdmin.members[":userId"].$delete({ param: { userId: agent.user.id } }),
    );
    expect(removed.status).toBe(200);
    expect((await answer(api(agent.token).conversations.$get({ query: {} }))).status).toBe(404);
  });

  it("a role change signs the person out everywhere; removal leaves them their account", async () => {
    const owner = await createOwner();
    const member = await inviteAndJoin(owner, "agent");
    const changeRole = (role: MemberChange["role"]) =>
      answer(
        api(owner.token).organizations.members[":userId"].$patch({
          param: { userId: member.user.id },
          json: { role },
        }),
      );
    // The same role is no change: nothing is revoked.
    expect((await changeRole("agent")).status).toBe(200);
    expect((await me(member.token)).status).toBe(200);

    expect((await changeRole("admin")).status).toBe(200);
    expect((await me(member.token)).status).toBe(401);
    expect((await me(owner.token)).status).toBe(200);

    const again = await answer(
      api().auth.login.$post({ json: { email: member.email, password: member.password } }),
    );
    const signedIn = await me(again.body.data.token);
    expect(signedIn.body.data.role).toBe("admin");

    await answer(
      api(owner.token).organizations.members[":userId"].$delete({
        param: { userId: member.user.id },
      }),
    );
    const after = await me(again.body.data.token);
    expect(after.status).toBe(200);
    expect(after.body.data).toMatchObject({ organization: null, role: null });
  });

  const changeMember = (token: string, userId: string, json: MemberChange) =>
    answer(api(token).organizations.members[":userId"].$patch({ param: { userId }, json }));

  const memberOf = async (token: string, userId: string) =>
    (await answer(api(token).organizations.members.$get())).body.data.find(
      (m) => m.user_id === userId,
    );

  /** The organization's audit entries about a member. */
  const auditOf = async (organizationId: string, target: string) =>
    (
      await orgSql<{ action: string }>(
        organizationId,
        "SELECT action FROM audit_events WHERE target = ? ORDER BY created_at, id",
        target,
      )
    ).map((row) => row.action);

  it("changes nothing when any part of a change is refused", async () => {
    const owner = await createOwner();
    const admin = await inviteAndJoin(owner, "admin");
    // The last owner cannot step down: their availability in the same request stays as it was.
    const demote = await changeMember(owner.token, owner.user.id, {
      available: false,
      max_open: 3,
      role: "admin",
    });
    expect(demote.status).toBe(422);
    expect(demote.body.error).toBe("last_owner");
    expect(await memberOf(owner.token, owner.user.id)).toMatchObject({
      role: "owner",
      available: true,
      max_open: null,
    });
    // An admin making an agent an owner: refused, and the agent's capacity untouched.
    const agent = await inviteAndJoin(owner, "agent");
    const promote = await changeMember(admin.token, agent.user.id, { max_open: 2, role: "owner" });
    expect(promote.status).toBe(403);
    expect(await memberOf(owner.token, agent.user.id)).toMatchObject({
      role: "agent",
      max_open: null,
    });
    expect(await auditOf(owner.organization.id, owner.user.id)).toEqual([]);
    expect(await auditOf(owner.organization.id, agent.user.id)).toEqual([]);

    // Accepted, every part is written and audited, and the role change signs them out.
    const both = await changeMember(owner.token, agent.user.id, {
      available: false,
      max_open: 4,
      role: "admin",
    });
    expect(both.status).toBe(200);
    expect(both.body.data).toMatchObject({ role: "admin", available: false, max_open: 4 });
    expect(await auditOf(owner.organization.id, agent.user.id)).toEqual([
      "member.availability",
      "member.role_change",
    ]);
    expect((await me(agent.token)).status).toBe(401);
  });

  it("an owner's availability and capacity are theirs and other owners' to set, not admins'", async () => {
    const owner = await createOwner();
    const admin = await inviteAndJoin(owner, "admin");
    const agent = await inviteAndJoin(owner, "agent");
    for (const change of [{ available: false }, { max_open: 3 }] satisfies MemberChange[]) {
      const refused = await changeMember(admin.token, owner.user.id, change);
      expect(refused.status).toBe(403);
    }
    expect(await memberOf(owner.token, owner.user.id)).toMatchObject({
      available: true,
      max_open: null,
    });
    expect(await auditOf(owner.organization.id, owner.user.id)).toEqual([]);

    // Admins still set their own and agents'; owners their own and other owners'.
    expect((await changeMember(admin.token, admin.user.id, { max_open: 5 })).status).toBe(200);
    expect((await changeMember(admin.token, agent.user.id, { available: false })).status).toBe(200);
    expect((await changeMember(owner.token, owner.user.id, { available: false })).status).toBe(200);
    const second = await inviteAndJoin(owner, "owner");
    const byOwner = await changeMember(second.token, owner.user.id, {
      available: true,
      max_open: 7,
    });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.data).toMatchObject({ available: true, max_open: 7 });
  });

  it("members and invitations of another organization are 404", async () => {
    const a = await createOwner();
    const b = await createOwner();
    const invitation = await answer(
      api(b.token).organizations.invitations.$post({ json: { email: "nuevo@example.com" } }),
    );
    const byA = api(a.token).organizations;
    const results = await Promise.all([
      answer(
        byA.members[":userId"].$patch({ param: { userId: b.user.id }, json: { role: "agent" } }),
      ),
      answer(byA.members[":userId"].$delete({ param: { userId: b.user.id } })),
      answer(byA.invitations[":id"].$delete({ param: { id: invitation.body.data.id } })),
    ]);
    expect(results.map((r) => r.status)).toEqual([404, 404, 404]);
    const pending = await answer(api(b.token).organizations.invitations.$get());
    expect(pending.body.data).toHaveLength(1);
    expect(pending.body.data[0]!.url).toBeUndefined();
  });
});
