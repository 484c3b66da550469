import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import {
  createAgent,
  createOwner,
  organizationFields,
  randomIp,
  registerUser,
} from "../support/factories";
import { answer, api } from "../support/api";
import { orgSql } from "../support/org-data";

type Audited = { action: string; ip: string | null; created_at: string; id: string };

/**
 * The address each audited action of this user was stored with, by action: the account's own
 * entries (in D1) and those in the organization's data.
 */
async function auditedAddresses(userId: string, organizationId: string) {
  const columns = "SELECT action, ip, created_at, id FROM audit_events WHERE user_id = ?";
  const { results: own } = await env.DB.prepare(`${columns} AND organization_id IS NULL`)
    .bind(userId)
    .all<Audited>();
  const inOrganization = await orgSql<Audited>(
    organizationId,
    `${columns} AND organization_id = ?`,
    userId,
    organizationId,
  );
  const inOrder = [...own, ...inOrganization].sort(
    (a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id),
  );
  return Object.fromEntries(inOrder.map((row) => [row.action, row.ip]));
}

describe("the audit trail records where a request came from (decision 0034)", () => {
  it("stores the caller's address on what a member and a signed-in person do", async () => {
    const owner = await createOwner();
    const ip = randomIp();
    const client = api(owner.token);
    const from = { headers: { "CF-Connecting-IP": ip } };

    const agent = await createAgent(owner);
    const entry = await answer(
      client.knowledge.$post({ json: { title: "Horario", content: "9 a 19" } }, from),
    );
    expect(entry.status).toBe(201);
    const id = entry.body.data.id;
    const steps = [
      await client.knowledge[":id"].$patch(
        { param: { id }, json: { title: "Horario nuevo" } },
        from,
      ),
      await client.knowledge[":id"].$delete({ param: { id } }, from),
      await client.agents[":id"].$delete({ param: { id: agent.id } }, from),
      await client.organizations[":id"].$patch(
        { param: { id: owner.organization.id }, json: { city: "Sevilla" } },
        from,
      ),
      await client.organizations.invitations.$post({ json: { email: "nuevo@example.com" } }, from),
      await client.tracking.key.rotate.$post({}, from),
      await client.profiles.me.$patch({ json: { full_name: "Ana María Pérez" } }, from),
      await client.auth.logout.$post({}, from),
    ];
    expect(steps.map((res) => res.status)).toEqual([200, 200, 200, 200, 201, 200, 200, 200]);

    expect(await auditedAddresses(owner.user.id, owner.organization.id)).toMatchObject({
      "knowledge.create": ip,
      "knowledge.update": ip,
      "knowledge.delete": ip,
      "agent.delete": ip,
      "organization.update": ip,
      "member.invite": ip,
      "tracking_key.rotate": ip,
      "profile.update": ip,
      "auth.logout": ip,
    });
  });

  it("stores the address of the person who creates an organization and who joins one", async () => {
    const owner = await createOwner();
    const person = await registerUser();
    const ip = randomIp();
    const invitation = await answer(
      api(owner.token).organizations.invitations.$post({ json: { email: person.email } }),
    );
    const token = new URL(invitation.body.data.url!).searchParams.get("invitation")!;
    const joined = await answer(
      api(person.token).organizations.invitations.accept.$post(
        { json: { token } },
        { headers: { "CF-Connecting-IP": ip } },
      ),
    );
    expect(joined.status).toBe(200);

    const founder = await registerUser();
    const created = await answer(
      api(founder.token).organizations.$post(
        { json: { ...organizationFields, name: "Taller Norte" } },
        { headers: { "CF-Connecting-IP": ip } },
      ),
    );
    expect(created.status).toBe(201);

    expect(await auditedAddresses(person.user.id, owner.organization.id)).toMatchObject({
      "member.join": ip,
    });
    expect(await auditedAddresses(founder.user.id, created.body.data.id)).toMatchObject({
      "organization.create": ip,
    });
  });
});
