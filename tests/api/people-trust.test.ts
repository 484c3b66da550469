// A person who leaves holds nothing (contract section 14, docs/decisions/0039): removed from
// the organization or with their account deleted, what they held goes back to the team,
// audited and announced, in the same batch that removes them.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { addMember, createConversation, createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { orgSql } from "../support/org-data";
import { connect, tick } from "../support/sockets";

/** `n` conversations held by `userId`, stored in one statement. */
async function seedHeld(organizationId: string, userId: string, n: number) {
  const rows = await orgSql<{ id: string }>(
    organizationId,
    `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?1)
     INSERT INTO conversations (id, organization_id, phone_number, assignee_id, last_message_at,
       created_at, updated_at)
     SELECT lower(hex(randomblob(16))), ?2, printf('3469%07d', i), ?3, ?4, ?4, ?4 FROM seq
     RETURNING id`,
    n,
    organizationId,
    userId,
    new Date().toISOString(),
  );
  return rows.map((row) => row.id);
}

type ReleaseEntry = {
  id: string;
  organization_id: string;
  user_id: string | null;
  target: string;
  metadata: string;
  ip: string | null;
};

const RELEASE_ENTRIES = `SELECT a.id, a.organization_id, a.user_id, a.target, a.metadata, a.ip
  FROM audit_events AS a
  WHERE a.action = 'conversation.assign' AND a.target IN (SELECT value FROM json_each(?))`;

/** The organization's `conversation.assign` entries of these conversations. */
const releaseEntries = (organizationId: string, conversationIds: string[]) =>
  orgSql<ReleaseEntry>(organizationId, RELEASE_ENTRIES, JSON.stringify(conversationIds));

const heldBy = async (token: string, userId: string) =>
  (await answer(api(token).conversations.$get({ query: { assignee_id: userId } }))).body.data.total;

describe("removing a member", () => {
  it("releases and audits everything they held in the batch that removes them, or nothing", async () => {
    const owner = await createOwner();
    const marta = await addMember(owner.organization.id, "agent");
    // More conversations than D1 binds parameters in one statement (100).
    const held = await seedHeld(owner.organization.id, marta.user.id, 120);
    const remove = () =>
      answer(
        api(owner.token).organizations.members[":userId"].$delete({
          param: { userId: marta.user.id },
        }),
      );

    // A fault in the middle: one released conversation's audit entry cannot be stored.
    await orgSql(
      owner.organization.id,
      `CREATE TRIGGER refuse_one_release BEFORE INSERT ON audit_events
       WHEN NEW.target = '${held[60]}' BEGIN SELECT RAISE(ABORT, 'refused'); END`,
    );
    try {
      expect((await remove()).status).toBe(500);
    } finally {
      await orgSql(owner.organization.id, "DROP TRIGGER refuse_one_release");
    }
    // Nothing happened: still a member, holding all of it, nothing audited.
    const team = (await answer(api(owner.token).organizations.members.$get())).body.data;
    expect(team.map((m) => m.user_id)).toContain(marta.user.id);
    expect(await heldBy(owner.token, marta.user.id)).toBe(120);
    expect(await releaseEntries(owner.organization.id, held)).toEqual([]);

    const inbox = await connect(owner.token);
    expect((await remove()).status).toBe(200);
    expect(await heldBy(owner.token, marta.user.id)).toBe(0);
    const entries = await releaseEntries(owner.organization.id, held);
    expect(entries.map((e) => e.target).sort()).toEqual([...held].sort());
    expect(new Set(entries.map((e) => e.id)).size).toBe(120);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        organization_id: owner.organization.id,
        user_id: owner.user.id,
      });
      expect(JSON.parse(entry.metadata)).toEqual({ assignee_id: null, how: "member_removed" });
    }
    // The ids are UUIDv7 like every row's: the audit log pages by them.
    const page = await answer(
      api(owner.token).organizations["audit-log"].$get({
        query: { limit: "50", before: entries[0]!.id },
      }),
    );
    expect(page.status).toBe(200);
    for (const id of held) {
      const event = await inbox.receive(
        (e) => e.type === "conversation_update" && e.data.conversation.id === id,
      );
      expect(event.data.conversation.assignee_id).toBeNull();
    }
    inbox.socket.close();
  });
});

describe("deleting an account", () => {
  it("gives back to the team what the person held: audited and announced", async () => {
    const owner = await createOwner();
    const marta = await addMember(owner.organization.id, "admin");
    const held = [await createConversation(owner), await createConversation(owner)];
    const kept = await createConversation(owner);
    for (const { id } of held) {
      const assigned = await answer(
        api(owner.token).conversations[":id"].$patch({
          param: { id },
          json: { assignee_id: marta.user.id },
        }),
      );
      expect(assigned.status).toBe(200);
    }
    const inbox = await connect(owner.token);

    const deleted = await answer(
      api(marta.token).profiles.me.$delete({ json: { password: marta.password } }),
    );
    expect(deleted.status).toBe(200);
    const entries = (
      await releaseEntries(
        owner.organization.id,
        held.map((c) => c.id),
      )
    ).filter((e) => JSON.parse(e.metadata).how !== "manual");
    expect(entries.map((e) => e.target).sort()).toEqual(held.map((c) => c.id).sort());
    for (const entry of entries) {
      // Nobody did it but the person, whose id and address are forgotten with the account.
      expect(entry).toMatchObject({
        organization_id: owner.organization.id,
        user_id: null,
        ip: null,
      });
      expect(JSON.parse(entry.metadata)).toEqual({ assignee_id: null, how: "account_deleted" });
    }
    for (const { id } of held) {
      const event = await inbox.receive(
        (e) => e.type === "conversation_update" && e.data.conversation.id === id,
      );
      expect(event.data.conversation.assignee_id).toBeNull();
    }
    inbox.socket.close();
    const unassigned = await answer(
      api(owner.token).conversations.$get({ query: { assignee_id: "none" } }),
    );
    expect(unassigned.body.data.conversations.map((c) => c.id).sort()).toEqual(
      [...held.map((c) => c.id), kept.id].sort(),
    );
  });

  it("of a sole owner takes the organization and announces nothing to it", async () => {
    const owner = await createOwner();
    const admin = await addMember(owner.organization.id, "admin");
    const conversation = await createConversation(owner);
    await answer(
      api(owner.token).conversations[":id"].$patch({
        param: { id: conversation.id },
        json: { assignee_id: owner.user.id },
      }),
    );
    const inbox = await connect(admin.token);
    const deleted = await answer(
      api(owner.token).profiles.me.$delete({ json: { password: owner.password } }),
    );
    expect(deleted.body.data).toEqual({ organization_deleted: true });
    await tick();
    expect(inbox.received.filter((e) => e.type === "conversation_update")).toEqual([]);
    inbox.socket.close();
    // The organization's data went with it (its store erased): nor did the account's own trail,
    // in D1, take a release.
    const { results } = await env.DB.prepare(RELEASE_ENTRIES)
      .bind(JSON.stringify([conversation.id]))
      .all<ReleaseEntry>();
    expect(results).toEqual([]);
  });
});
