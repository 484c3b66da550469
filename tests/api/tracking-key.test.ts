// The organization's public tracking key: carried by GET /organizations/me, rotated by an
// owner or admin, and the old key refused at once.
import { describe, expect, it } from "vitest";
import { createOwner, randomIp, registerUser } from "../support/factories";
import { answer, api } from "../support/api";
import { orgSql } from "../support/org-data";

type Owner = Awaited<ReturnType<typeof createOwner>>;

async function joinAs(owner: Owner, role: "admin" | "agent") {
  const user = await registerUser();
  const invitation = await answer(
    api(owner.token).organizations.invitations.$post({ json: { email: user.email, role } }),
  );
  const token = new URL(invitation.body.data.url!).searchParams.get("invitation")!;
  const joined = await answer(
    api(user.token).organizations.invitations.accept.$post({ json: { token } }),
  );
  expect(joined.status).toBe(200);
  return user;
}

const rotate = (token: string, headers: Record<string, string> = {}) =>
  answer(api(token).tracking.key.rotate.$post({}, { headers }));

/** A landing page's visit with `key`, the call the snippet makes first. */
const visitWith = (key: string) =>
  answer(
    api().tracking.sessions.$post(
      { json: { tracking_params: { utm_source: "facebook" } } },
      { headers: { "X-Tracking-Key": key, "CF-Connecting-IP": randomIp() } },
    ),
  );

describe("POST /tracking/key/rotate", () => {
  it("gives a new key; the old one stops working at once", async () => {
    const owner = await createOwner();
    const oldKey: string = owner.organization.tracking_key;
    expect((await visitWith(oldKey)).status).toBe(201);

    const rotated = await rotate(owner.token, { "CF-Connecting-IP": "203.0.113.21" });
    expect(rotated.status).toBe(200);
    const newKey: string = rotated.body.data.tracking_key;
    expect(rotated.body.data).toEqual({ tracking_key: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(newKey).not.toBe(oldKey);

    const refused = await visitWith(oldKey);
    expect(refused.status).toBe(401);
    expect(refused.body.error).toBe("unauthorized");
    expect((await visitWith(newKey)).status).toBe(201);

    const organization = await answer(api(owner.token).organizations.me.$get());
    expect(organization.body.data.tracking_key).toBe(newKey);

    const audit = await orgSql(
      owner.organization.id,
      "SELECT user_id, ip, metadata FROM audit_events WHERE organization_id = ? AND action = 'tracking_key.rotate'",
      owner.organization.id,
    );
    expect(audit).toEqual([{ user_id: owner.user.id, ip: "203.0.113.21", metadata: null }]);
  });

  it("is for owners and admins: an agent gets 403 and the key stays", async () => {
    const owner = await createOwner();
    const key: string = owner.organization.tracking_key;
    const agent = await joinAs(owner, "agent");
    const refused = await rotate(agent.token);
    expect(refused.status).toBe(403);
    expect(refused.body.error).toBe("forbidden");
    expect((await visitWith(key)).status).toBe(201);

    const admin = await joinAs(owner, "admin");
    const rotated = await rotate(admin.token);
    expect(rotated.status).toBe(200);
    expect((await visitWith(key)).status).toBe(401);
  });

  it("needs a signed-in member: the public key, no token or no organization is refused", async () => {
    const owner = await createOwner();
    const key: string = owner.organization.tracking_key;
    const withKey = await answer(
      api().tracking.key.rotate.$post({}, { headers: { "X-Tracking-Key": key } }),
    );
    expect(withKey.status).toBe(401);
    expect((await answer(api().tracking.key.rotate.$post())).status).toBe(401);
    const loner = await registerUser();
    expect((await rotate(loner.token)).status).toBe(404);
    expect((await visitWith(key)).status).toBe(201);
  });

  it("changes only the caller's organization", async () => {
    const owner = await createOwner();
    const other = await createOwner();
    await rotate(owner.token);
    expect((await visitWith(other.organization.tracking_key)).status).toBe(201);
  });
});
