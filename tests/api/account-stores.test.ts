// An account's work on organizations' data, each in its store (contract section 15, decisions
// 0053, 0075): signing in, joining, an account's export and its deletion reach each
// organization's store, and `organization_people` says which organizations to visit.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createConversation, createOwner, randomIp, registerUser } from "../support/factories";
import { answer, api, personalExport } from "../support/api";
import { orgFirst, orgSql } from "../support/org-data";
import { connect } from "../support/sockets";

type Owner = Awaited<ReturnType<typeof createOwner>>;
type User = Awaited<ReturnType<typeof registerUser>>;

const login = (email: string, password: string, ip: string) =>
  answer(
    api().auth.login.$post({ json: { email, password } }, { headers: { "CF-Connecting-IP": ip } }),
  );

const invite = (owner: Owner, email: string, role: "admin" | "agent") =>
  answer(api(owner.token).organizations.invitations.$post({ json: { email, role } }));

/** The person joins the owner's organization through an invitation, as the console does. */
async function join(owner: Owner, person: User, role: "admin" | "agent") {
  const sent = await invite(owner, person.email, role);
  const token = new URL(sent.body.data.url!).searchParams.get("invitation")!;
  const joined = await answer(
    api(person.token).organizations.invitations.accept.$post({ json: { token } }),
  );
  expect(joined.status).toBe(200);
}

/** D1's rows: only what is global. */
const inD1 = (sql: string, ...params: unknown[]) =>
  env.DB.prepare(sql)
    .bind(...params)
    .all<Record<string, unknown>>()
    .then((result) => result.results);

const peopleOf = (organizationId: string) =>
  inD1(
    "SELECT user_id, email FROM organization_people WHERE organization_id = ? ORDER BY user_id, email",
    organizationId,
  );

describe("signing in, for a member of an organization in its store", () => {
  it("records the sign-in in the organization's store and knows the address it came from", async () => {
    const owner = await createOwner();
    const home = randomIp();
    expect((await login(owner.email, owner.password, home)).status).toBe(200);

    const entry = await orgFirst<{ user_id: string; organization_id: string }>(
      owner.organization.id,
      "SELECT user_id, organization_id FROM audit_events WHERE action = 'auth.login' AND ip = ?",
      home,
    );
    expect(entry).toEqual({ user_id: owner.user.id, organization_id: owner.organization.id });
    expect(await inD1("SELECT id FROM audit_events WHERE ip = ?", home)).toEqual([]);

    // Guesses from elsewhere lock the e-mail, but not the address the store knows as theirs.
    const attacker = randomIp();
    for (let i = 0; i < 5; i++) {
      expect((await login(owner.email, "mala", attacker)).status).toBe(401);
    }
    expect((await login(owner.email, owner.password, randomIp())).status).toBe(429);
    expect((await login(owner.email, owner.password, home)).status).toBe(200);
  });
});

describe("joining and creating, for an organization in its store", () => {
  it("writes the creation and the join in the store, and remembers who the organization had", async () => {
    const owner = await createOwner();
    const person = await registerUser();
    const stranger = `nadie-${crypto.randomUUID().slice(0, 8)}@example.com`;
    await join(owner, person, "agent");
    await invite(owner, stranger, "agent");

    const entries = await orgSql<{ action: string; user_id: string; metadata: string | null }>(
      owner.organization.id,
      `SELECT action, user_id, metadata FROM audit_events
       WHERE action IN ('organization.create', 'member.join') ORDER BY created_at, id`,
    );
    expect(entries.map(({ action, user_id }) => ({ action, user_id }))).toEqual([
      { action: "organization.create", user_id: owner.user.id },
      { action: "member.join", user_id: person.user.id },
    ]);
    expect(JSON.parse(entries[1]!.metadata!)).toMatchObject({ role: "agent" });
    expect(
      await inD1("SELECT id FROM audit_events WHERE organization_id = ?", owner.organization.id),
    ).toEqual([]);

    const people = await peopleOf(owner.organization.id);
    expect(people).toHaveLength(4);
    expect(people).toEqual(
      expect.arrayContaining([
        { user_id: owner.user.id, email: null },
        { user_id: person.user.id, email: null },
        { user_id: null, email: person.email },
        { user_id: null, email: stranger },
      ]),
    );
  });
});

/**
 * A person known to two organizations: a member of the owner's (signed
 * in, holding a conversation, writing a note that mentions the owner, mentioned by the owner,
 * writing knowledge), and invited by the other's only.
 */
async function personInTwoOrganizations() {
  const owner = await createOwner();
  const other = await createOwner();
  const person = await registerUser({ full_name: "Marta López" });
  await join(owner, person, "admin");
  await answer(api(owner.token).profiles.me.$patch({ json: { full_name: "Olga Ruiz" } }));
  const ip = randomIp();
  const session = await login(person.email, person.password, ip);
  const token = session.body.data.token as string;
  await invite(other, person.email, "agent");

  const held = await createConversation(owner);
  const assigned = await answer(
    api(owner.token).conversations[":id"].$patch({
      param: { id: held.id },
      json: { assignee_id: person.user.id },
    }),
  );
  expect(assigned.status).toBe(200);
  const note = (from: string, content: string) =>
    answer(
      api(from).conversations[":id"].notes.$post({ param: { id: held.id }, json: { content } }),
    );
  const toHer = await note(owner.token, "Llama tú, @Marta López");
  const hers = await note(token, "Le llamo mañana, @Olga Ruiz");
  expect([toHer.status, hers.status]).toEqual([201, 201]);
  const knowledge = await answer(
    api(token).knowledge.$post({ json: { title: "Horario", content: "De 9 a 19 h." } }),
  );
  expect(knowledge.status).toBe(201);
  return { owner, other, person: { ...person, token }, ip, held, hers: hers.body.data.note };
}

describe("an account's export, for a member of an organization", () => {
  it("has the person's entries, notes and mentions from its store", async () => {
    const { owner, person, ip, hers } = await personInTwoOrganizations();
    const exported = await personalExport(person.token);
    expect(exported.status).toBe(200);
    const doc = exported.body.data;

    const actions = doc.audit_events.map((entry: { action: string }) => entry.action);
    expect(actions).toEqual(
      expect.arrayContaining(["auth.register", "member.join", "auth.login", "knowledge.create"]),
    );
    expect(doc.audit_events.find((e: { ip: string }) => e.ip === ip)).toMatchObject({
      action: "auth.login",
      organizationId: owner.organization.id,
    });
    expect(doc.notes).toEqual([
      expect.objectContaining({ id: hers.id, content: "Le llamo mañana, @Olga Ruiz" }),
    ]);
    expect(doc.mentions).toEqual([expect.objectContaining({ author_id: owner.user.id })]);
    expect(doc.organization).toBeUndefined();
    // The export is the organization's entry, where its data is.
    expect(
      await orgFirst(
        owner.organization.id,
        "SELECT id FROM audit_events WHERE action = 'account.export' AND user_id = ?",
        person.user.id,
      ),
    ).not.toBeNull();
  });
});

describe("an owner's export, for an organization in its store", () => {
  it("gives an owner the organization's section from its store", async () => {
    const owner = await createOwner();
    const conversation = await createConversation(owner, { contact_name: "Cliente" });
    await answer(
      api(owner.token).conversations[":id"].notes.$post({
        param: { id: conversation.id },
        json: { content: "Nota del equipo" },
      }),
    );
    const doc = (await personalExport(owner.token)).body.data;
    expect(doc.organization.conversations.map((c: { id: string }) => c.id)).toEqual([
      conversation.id,
    ]);
    expect(doc.organization.messages.map((m: { content: string }) => m.content)).toContain(
      "Nota del equipo",
    );
    expect(doc.organization.members).toEqual([{ user_id: owner.user.id, role: "owner" }]);
  });
});

describe("an account's deletion", () => {
  it("clears the person from every organization that had them and gives back what they held", async () => {
    const { owner, other, person, ip, held, hers } = await personInTwoOrganizations();
    const inbox = await connect(owner.token);

    // A broadcast they made (nothing else of it is theirs).
    await orgSql(
      owner.organization.id,
      `INSERT INTO broadcasts (id, organization_id, name, template_name, template_language,
         template_category, template_parameters, audience, created_by, created_at, updated_at)
       VALUES (?, ?, 'Rebajas', 'bienvenida', 'es', 'MARKETING', '[]', '{}', ?, ?4, ?4)`,
      crypto.randomUUID(),
      owner.organization.id,
      person.user.id,
      new Date().toISOString(),
    );
    // And a follow-up rule.
    await orgSql(
      owner.organization.id,
      `INSERT INTO follow_ups (id, organization_id, name, no_reply_minutes, label_ids, stages,
         text, active_since, created_by, created_at, updated_at)
       VALUES (?, ?, 'Seguimiento', 60, '[]', '[]', '¿Seguimos?', ?4, ?3, ?4, ?4)`,
      crypto.randomUUID(),
      owner.organization.id,
      person.user.id,
      new Date().toISOString(),
    );

    const res = await answer(
      api(person.token).profiles.me.$delete({ json: { password: person.password } }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ organization_deleted: false });

    // What they held goes back to the team, announced and audited.
    const event = await inbox.receive(
      (e) => e.type === "conversation_update" && e.data.conversation.id === held.id,
    );
    expect(event.data.conversation.assignee_id).toBeNull();
    inbox.socket.close();
    const release = await orgFirst<{ metadata: string }>(
      owner.organization.id,
      `SELECT metadata FROM audit_events WHERE action = 'conversation.assign' AND target = ?
       ORDER BY created_at DESC, id DESC`,
      held.id,
    );
    expect(JSON.parse(release!.metadata)).toEqual({ assignee_id: null, how: "account_deleted" });

    // Their trail, in their organization's data and in the one's that only invited them.
    for (const organizationId of [owner.organization.id, other.organization.id]) {
      const naming = await orgSql(
        organizationId,
        `SELECT id FROM audit_events WHERE user_id = ? OR target = ? OR ip = ?
           OR instr(coalesce(metadata, ''), ?) > 0`,
        person.user.id,
        person.email,
        ip,
        person.email,
      );
      expect(naming).toEqual([]);
    }
    const invited = await orgFirst<{ target: string | null }>(
      other.organization.id,
      "SELECT target FROM audit_events WHERE action = 'member.invite' AND organization_id = ?",
      other.organization.id,
    );
    expect(invited).toEqual({ target: null });

    // What D1's foreign keys to `users` did, done in a store too.
    const orgId = owner.organization.id;
    const namingHer = await orgSql(
      orgId,
      `SELECT 'conversation' AS what FROM conversations WHERE assignee_id = ?1
       UNION ALL SELECT 'message' FROM messages WHERE sender_user_id = ?1
       UNION ALL SELECT 'knowledge' FROM knowledge_entries WHERE created_by = ?1
       UNION ALL SELECT 'mention by' FROM mentions WHERE author_id = ?1
       UNION ALL SELECT 'mention of' FROM mentions WHERE user_id = ?1`,
      person.user.id,
    );
    expect(namingHer).toEqual([]);
    expect(
      await orgSql(
        orgId,
        `SELECT id FROM broadcasts WHERE created_by = ?1
         UNION ALL SELECT id FROM follow_ups WHERE created_by = ?1`,
        person.user.id,
      ),
    ).toEqual([]);
    expect(
      await orgFirst(orgId, "SELECT sender_user_id FROM messages WHERE id = ?", hers.id),
    ).toEqual({
      sender_user_id: null,
    });
    expect(
      await orgFirst(
        orgId,
        "SELECT created_by FROM knowledge_entries WHERE organization_id = ?",
        orgId,
      ),
    ).toEqual({ created_by: null });
    expect(
      await orgSql(orgId, "SELECT author_id FROM mentions WHERE organization_id = ?", orgId),
    ).toEqual([{ author_id: null }]);
    // The deletion is the organization's entry, without the person.
    const deletion = await orgFirst<{ user_id: string | null; ip: string | null }>(
      orgId,
      "SELECT user_id, ip FROM audit_events WHERE action = 'account.delete' AND organization_id = ?",
      orgId,
    );
    expect(deletion).toEqual({ user_id: null, ip: null });

    // Nothing global names them either.
    expect(
      await inD1(
        "SELECT organization_id FROM organization_people WHERE user_id = ? OR email = ?",
        person.user.id,
        person.email,
      ),
    ).toEqual([]);
    expect(await inD1("SELECT id FROM users WHERE id = ?", person.user.id)).toEqual([]);
  });
});

describe("an owner's deletion, for an organization in its store", () => {
  it("erases the store of an organization deleted with its only owner", async () => {
    const owner = await createOwner();
    await createConversation(owner);
    const { store_id: storeId } = (
      await inD1(
        "SELECT store_id FROM organization_stores WHERE organization_id = ?",
        owner.organization.id,
      )
    )[0] as { store_id: string };

    const res = await answer(
      api(owner.token).profiles.me.$delete({ json: { password: owner.password } }),
    );
    expect(res.body.data).toEqual({ organization_deleted: true });
    // Nothing of its data is left (a store woken again migrates to empty tables).
    const left = await runInDurableObject(env.ORGANIZATION_HUB.getByName(storeId), (_, state) => {
      const { sql } = state.storage;
      const tables = sql
        .exec<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE name IN ('conversations', 'audit_events')",
        )
        .toArray();
      return tables.map(({ name }) => sql.exec(`SELECT id FROM ${name}`).toArray().length);
    });
    expect(left.filter((rows) => rows > 0)).toEqual([]);
    expect(await peopleOf(owner.organization.id)).toEqual([]);
    expect(
      await inD1(
        "SELECT organization_id FROM organization_stores WHERE organization_id = ?",
        owner.organization.id,
      ),
    ).toEqual([]);
  });
});
