import { describe, expect, it } from "vitest";
import { createAgent, createOwner, registerUser } from "../support/factories";
import { answer, api } from "../support/api";
import { orgSql } from "../support/org-data";

type Owner = Awaited<ReturnType<typeof createOwner>>;

async function inviteAndJoin(owner: Owner, role: "admin" | "agent") {
  const user = await registerUser({ full_name: "Luis Gómez" });
  const invitation = await answer(
    api(owner.token).organizations.invitations.$post(
      { json: { email: user.email, role } },
      { headers: { "CF-Connecting-IP": "203.0.113.7" } },
    ),
  );
  const token = new URL(invitation.body.data.url!).searchParams.get("invitation")!;
  const joined = await answer(
    api(user.token).organizations.invitations.accept.$post({ json: { token } }),
  );
  expect(joined.status).toBe(200);
  return user;
}

type AuditLogQuery = { limit?: string; before?: string };
const auditLog = (token: string, query: AuditLogQuery = {}) =>
  answer(api(token).organizations["audit-log"].$get({ query }));

/** Stores `n` profile updates for the organization, one second apart, the newest last. */
async function seedEntries(organizationId: string, n: number) {
  const start = Date.parse("2025-01-01T00:00:00.000Z");
  for (let i = 0; i < n; i++) {
    await orgSql(
      organizationId,
      "INSERT INTO audit_events (id, organization_id, action, target, created_at) VALUES (?, ?, 'organization.update', ?, ?)",
      crypto.randomUUID(),
      organizationId,
      `seed-${i}`,
      new Date(start + i * 1000).toISOString(),
    );
  }
}

describe("GET /organizations/audit-log", () => {
  it("shows an owner their own organization's entries, newest first, with who did them", async () => {
    const owner = await createOwner({ name: "Auditada" });
    const other = await createOwner({ name: "Ajena" });
    const member = await inviteAndJoin(owner, "agent");
    await answer(
      api(owner.token).organizations.members[":userId"].$patch({
        param: { userId: member.user.id },
        json: { role: "admin" },
      }),
    );
    await answer(
      api(other.token).organizations.invitations.$post({ json: { email: "de-otra@example.com" } }),
    );

    const res = await auditLog(owner.token);
    expect(res.status).toBe(200);
    const { entries, has_more } = res.body.data;
    expect(has_more).toBe(false);
    expect(entries.map((e) => e.action)).toEqual([
      "member.role_change",
      "member.join",
      "member.invite",
      "organization.create",
    ]);
    const [roleChange, join, invite] = entries;
    expect(roleChange).toMatchObject({
      actor: { name: owner.full_name, email: owner.email },
      // A member is named by e-mail, not by their internal id.
      target: member.email,
      details: { from: "agent", to: "admin" },
    });
    expect(join!.actor).toEqual({ name: "Luis Gómez", email: member.email });
    expect(invite).toMatchObject({ target: member.email, ip: "203.0.113.7" });
    expect(invite!.created_at).toMatch(/^\d{4}-\d\d-\d\dT.*Z$/);
    expect(JSON.stringify(entries)).not.toContain("de-otra@example.com");

    // The other organization sees only its own.
    const theirs = await auditLog(other.token);
    expect(theirs.body.data.entries.map((e) => e.action)).toEqual([
      "member.invite",
      "organization.create",
    ]);
  });

  it("records who revoked an invitation, and a revoked link no longer lets anyone join", async () => {
    const owner = await createOwner();
    const other = await createOwner();
    const created = await answer(
      api(owner.token).organizations.invitations.$post({
        json: { email: "arrepentida@example.com", role: "admin" },
      }),
    );
    const { id, url } = created.body.data;
    // Another organization cannot revoke it: not found, and nothing recorded there or here.
    const foreign = await answer(
      api(other.token).organizations.invitations[":id"].$delete({ param: { id } }),
    );
    expect(foreign.status).toBe(404);
    const revoked = await answer(
      api(owner.token).organizations.invitations[":id"].$delete({ param: { id } }),
    );
    expect(revoked.status).toBe(200);

    const { entries } = (await auditLog(owner.token)).body.data;
    expect(entries.map((e) => e.action)).toEqual([
      "member.invite_revoke",
      "member.invite",
      "organization.create",
    ]);
    expect(entries[0]).toMatchObject({
      actor: { email: owner.email },
      target: "arrepentida@example.com",
      details: { role: "admin" },
    });
    expect((await auditLog(other.token)).body.data.entries.map((e) => e.action)).toEqual([
      "organization.create",
    ]);

    const user = await registerUser();
    const token = new URL(url!).searchParams.get("invitation")!;
    const joined = await answer(
      api(user.token).organizations.invitations.accept.$post({ json: { token } }),
    );
    expect(joined.status).toBe(404);
  });

  it("names only its own members: a free-text target is never looked up as a user", async () => {
    const a = await createOwner({ name: "Vecina" });
    const b = await createOwner({ name: "Curiosa" });
    // B names an agent after A's owner's user id, then deletes it: the entry's target is that name.
    const agent = await createAgent(b, { name: a.user.id });
    expect(
      (await answer(api(b.token).agents[":id"].$delete({ param: { id: agent.id } }))).status,
    ).toBe(200);
    const { entries } = (await auditLog(b.token)).body.data;
    const deletion = entries.find((e) => e.action === "agent.delete")!;
    expect(deletion.target).toBe(a.user.id);
    expect(JSON.stringify(entries)).not.toContain(a.email);
  });

  it("is for owners and admins only", async () => {
    const owner = await createOwner();
    const agent = await inviteAndJoin(owner, "agent");
    const admin = await inviteAndJoin(owner, "admin");
    const refused = await auditLog(agent.token);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ error: "forbidden", message: expect.any(String) });
    expect((await auditLog(admin.token)).status).toBe(200);

    expect((await auditLog("")).status).toBe(401);
    const withoutOrganization = await registerUser();
    expect((await auditLog(withoutOrganization.token)).status).toBe(404);
  });

  it("pages back with before, without repeating or skipping an entry", async () => {
    const owner = await createOwner();
    await seedEntries(owner.organization.id, 5);
    // organization.create is the newest: it was stored now, the seeds in 2025.
    const seen: string[] = [];
    let query: AuditLogQuery = { limit: "2" };
    for (;;) {
      const res = await auditLog(owner.token, query);
      expect(res.status).toBe(200);
      const { entries, has_more } = res.body.data;
      seen.push(...entries.map((e) => e.target ?? e.action));
      if (!has_more) break;
      query = { limit: "2", before: entries.at(-1)!.id };
    }
    expect(seen).toEqual(["organization.create", "seed-4", "seed-3", "seed-2", "seed-1", "seed-0"]);

    const defaultPage = await auditLog(owner.token);
    expect(defaultPage.body.data.entries).toHaveLength(6);
  });

  it("answers a bad query with the error envelope and never pages from another organization", async () => {
    const owner = await createOwner();
    const other = await createOwner();
    for (const query of [
      { limit: "abc" },
      { limit: "0" },
      { limit: "51" },
      { limit: "2.5" },
      { before: "xyz" },
    ]) {
      const res = await auditLog(owner.token, query);
      expect(res.status, JSON.stringify(query)).toBe(400);
      expect(res.body, JSON.stringify(query)).toMatchObject({
        error: "bad_request",
        message: expect.any(String),
        details: [expect.objectContaining({ path: expect.any(String) })],
      });
    }
    const foreign = (await auditLog(other.token)).body.data.entries[0]!.id;
    const res = await auditLog(owner.token, { before: foreign });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ error: "not_found", message: expect.any(String) });
  });
});
