import { runInDurableObject } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { OrganizationStoreCalls } from "../../worker/stores/store-calls";
import { EXPORT_PAGE_SIZE } from "../../worker/auth/privacy-service";
import { organizationStore } from "../../worker/stores/registry";
import {
  addMember,
  createAgent,
  createConversation,
  createOwner,
  randomIp,
  registerUser,
  uniqueEmail,
} from "../support/factories";
import { answer, api, personalExport } from "../support/api";
import { seedMessage } from "../support/db";
import { orgSql } from "../support/org-data";

const countIn = async (table: string, column: string, value: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table} WHERE ${column} = ?`)
    .bind(value)
    .first<{ n: number }>())!.n;

/** The rows of a statement in D1 and in each of these organizations' data, all together. */
async function everywhere<T extends Record<string, unknown>>(
  organizationIds: string[],
  sql: string,
  ...params: unknown[]
) {
  const { results } = await env.DB.prepare(sql)
    .bind(...params)
    .all<T>();
  const theirs = await Promise.all(organizationIds.map((id) => orgSql<T>(id, sql, ...params)));
  return [...results, ...theirs.flat()];
}

/**
 * The organization's rows of `table` left in the store it had: none once erased (erasing drops
 * the store's tables: a table gone counts as empty).
 */
const leftInStore = (
  store: DurableObjectStub<OrganizationStoreCalls>,
  table: string,
  organizationId: string,
) =>
  runInDurableObject(store, (_, state) => {
    const { sql } = state.storage;
    const exists = sql
      .exec("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", table)
      .toArray();
    if (exists.length === 0) return 0;
    return sql
      .exec<{ n: number }>(
        `SELECT count(*) AS n FROM ${table} WHERE organization_id = ?`,
        organizationId,
      )
      .one().n;
  });

describe("GET /profiles/me/export", () => {
  it("returns the caller's data and, for an owner, the organization's, without secrets", async () => {
    const owner = await createOwner({ name: "Exportable" });
    const conversation = await createConversation(owner, { contact_name: "Cliente" });
    await seedMessage(owner.organization.id, conversation.id, { content: "Hola desde WhatsApp" });
    await createAgent(owner, { name: "Bot" });
    await answer(api(owner.token).labels.$post({ json: { name: "VIP", color: "#7c3aed" } }));
    const res = await personalExport(owner.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toContain("attachment");
    const doc = res.body.data;
    expect(doc.user).toMatchObject({ id: owner.user.id, email: owner.email });
    expect(doc.organization.name).toBe("Exportable");
    expect(doc.organization.messages[0].content).toBe("Hola desde WhatsApp");
    expect(doc.organization.agents[0].name).toBe("Bot");
    // The team inbox's data too: labels, mentions, the member's availability and capacity.
    expect(doc.organization.labels.map((l: { name: string }) => l.name)).toEqual(["VIP"]);
    expect(doc.organization.mentions).toEqual([]);
    // Every table of the organization's data, but the bookkeeping and the security trail.
    expect(Object.keys(doc.organization)).toEqual(
      expect.arrayContaining(["knowledge_entries", "broadcasts", "follow_ups", "phone_contacts"]),
    );
    expect(Object.keys(doc.organization)).toEqual(
      expect.arrayContaining(["marketing_consents", "conversation_labels", "message_costs"]),
    );
    for (const left of ["audit_events", "held_statuses", "history_pages", "ad_spend_syncs"]) {
      expect(doc.organization).not.toHaveProperty(left);
    }
    expect(doc.membership).toMatchObject({ role: "owner", available: true, max_open: null });
    const text = JSON.stringify(doc);
    expect(text).not.toContain("pbkdf2");
    expect(text).not.toMatch(/access_?token/i);
  });

  it("pages a table keyed by more than an id past its first page", async () => {
    const owner = await createOwner();
    const orgId = owner.organization.id;
    // 501 days of one ad's spend: a table keyed by the ad and the day.
    await orgSql(
      orgId,
      `WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < 500)
       INSERT INTO ad_spend (organization_id, ad_id, day, spend, fetched_at)
       SELECT ?1, 'ad-1', date('2025-01-01', '+' || i || ' days'), 1.5, ?2 FROM n`,
      orgId,
      new Date().toISOString(),
    );
    const res = await personalExport(owner.token);
    expect(res.status).toBe(200);
    const days = res.body.data.organization.ad_spend.map((row: { day: string }) => row.day);
    expect(days).toHaveLength(501);
    expect(new Set(days).size).toBe(501);
  });

  it("gives a member who is not an owner only their own data", async () => {
    const user = await registerUser();
    const res = await personalExport(user.token);
    expect(res.body.data.organization).toBeUndefined();
    expect(res.body.data.user.id).toBe(user.user.id);
  });
});

describe("GET /profiles/me/export, for a member of the team inbox", () => {
  it("has the notes the person wrote and the mentions addressed to them, nobody else's", async () => {
    const owner = await createOwner();
    const marta = await addMember(owner.organization.id, "agent");
    const pablo = await addMember(owner.organization.id, "agent");
    await answer(api(marta.token).profiles.me.$patch({ json: { full_name: "Marta López" } }));
    await answer(api(pablo.token).profiles.me.$patch({ json: { full_name: "Pablo Ruiz" } }));
    const conversation = await createConversation(owner);
    const note = (token: string, content: string) =>
      answer(
        api(token).conversations[":id"].notes.$post({
          param: { id: conversation.id },
          json: { content },
        }),
      );
    const toMarta = await note(owner.token, "Llama tú, @Marta López");
    const hers = await note(marta.token, "Le llamo mañana, @Pablo Ruiz");
    await note(pablo.token, "Vale, @Marta López");
    expect(hers.status).toBe(201);

    const exported = await personalExport(marta.token);
    expect(exported.status).toBe(200);
    const doc = (exported.body as { data: PersonalExport }).data;
    expect(doc.notes).toEqual([
      {
        id: hers.body.data.note.id,
        conversation_id: conversation.id,
        content: "Le llamo mañana, @Pablo Ruiz",
        mentions: [pablo.user.id],
        created_at: hers.body.data.note.created_at,
      },
    ]);
    expect(doc.mentions).toHaveLength(2);
    expect(doc.mentions.map((m) => m.author_id).sort()).toEqual(
      [owner.user.id, pablo.user.id].sort(),
    );
    expect(doc.mentions.find((m) => m.author_id === owner.user.id)).toMatchObject({
      conversation_id: conversation.id,
      note_id: toMarta.body.data.note.id,
      read_at: null,
    });
    // The person's own part is theirs alone: no organization section for an agent.
    expect(doc.organization).toBeUndefined();
  });
});

interface PersonalExport {
  notes: {
    id: string;
    conversation_id: string;
    content: string;
    mentions: string[];
    created_at: string;
  }[];
  mentions: {
    id: string;
    conversation_id: string;
    note_id: string;
    author_id: string | null;
    read_at: string | null;
    created_at: string;
  }[];
  organization?: unknown;
}

/** Stores `n` messages in one statement, with text that JSON must escape. */
async function seedMessages(organizationId: string, conversationId: string, n: number) {
  await orgSql(
    organizationId,
    `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?)
     INSERT INTO messages (id, organization_id, conversation_id, content, direction, sender_type, status, created_at)
     SELECT printf('seed-%05d', i), ?, ?, printf('Mensaje %d: "comillas", \\barra, ñ 😀' || char(10) || 'fin', i),
            'inbound', 'customer', 'delivered', strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
     FROM seq`,
    n,
    organizationId,
    conversationId,
  );
}

describe("GET /profiles/me/export, whatever the organization stored", () => {
  it("streams every row, page after page, as one JSON document", async () => {
    const owner = await createOwner();
    const conversation = await createConversation(owner);
    const count = EXPORT_PAGE_SIZE * 2 + 200;
    await seedMessages(owner.organization.id, conversation.id, count);

    const res = await exports.default.fetch("http://localhost/api/v1/profiles/me/export", {
      headers: { Authorization: `Bearer ${owner.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/json");
    expect(res.headers.get("Content-Disposition")).toContain("attachment");
    // Written as it is read: the body arrives in pieces, not as one string built in memory.
    const reader = res.body!.getReader();
    const decoder = new TextDecoder();
    let text = "";
    let chunks = 0;
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      chunks++;
      text += decoder.decode(read.value, { stream: true });
    }
    expect(chunks).toBeGreaterThan(3);

    const exported = JSON.parse(text).data.organization.messages;
    expect(exported).toHaveLength(count);
    expect(new Set(exported.map((m: { id: string }) => m.id)).size).toBe(count);
    expect(exported[0].content).toBe('Mensaje 1: "comillas", \\barra, ñ 😀\nfin');
    expect(exported.at(-1).conversationId).toBe(conversation.id);
  });
});

describe("DELETE /profiles/me", () => {
  it("needs the right password and changes nothing otherwise", async () => {
    const owner = await createOwner();
    const res = await answer(api(owner.token).profiles.me.$delete({ json: { password: "mala" } }));
    expect(res.status).toBe(422);
    expect((await answer(api(owner.token).auth.me.$get())).status).toBe(200);
  });

  it("limits password confirmations to 5 per 15 minutes", async () => {
    const user = await registerUser();
    const attempt = (password: string) =>
      answer(api(user.token).profiles.me.$delete({ json: { password } }));
    for (let i = 0; i < 5; i++) expect((await attempt("mala")).status).toBe(422);
    const blocked = await attempt(user.password);
    expect(blocked.status).toBe(429);
    expect(Number(blocked.headers.get("Retry-After"))).toBeGreaterThan(0);
    expect(await countIn("users", "id", user.user.id)).toBe(1);
  });

  it("deletes the sole owner's account and organization, revoking every token", async () => {
    const owner = await createOwner();
    const second = await answer(
      api().auth.login.$post({ json: { email: owner.email, password: owner.password } }),
    );
    const conversation = await createConversation(owner);
    await seedMessage(owner.organization.id, conversation.id);
    const store = await organizationStore(env, owner.organization.id);
    const res = await answer(
      api(owner.token).profiles.me.$delete({ json: { password: owner.password } }),
    );
    expect(res.status).toBe(200);
    expect(res.body.data.organization_deleted).toBe(true);
    for (const token of [owner.token, second.body.data.token]) {
      expect((await answer(api(token).auth.me.$get())).status).toBe(401);
    }
    expect(await countIn("users", "id", owner.user.id)).toBe(0);
    expect(await countIn("sessions", "user_id", owner.user.id)).toBe(0);
    expect(await countIn("organizations", "id", owner.organization.id)).toBe(0);
    expect(await countIn("organization_stores", "organization_id", owner.organization.id)).toBe(0);
    for (const table of ["messages", "conversations", "conversation_counts"]) {
      expect(await leftInStore(store, table, owner.organization.id), table).toBe(0);
    }
    const login = await answer(
      api().auth.login.$post({ json: { email: owner.email, password: owner.password } }),
    );
    expect(login.status).toBe(401);
  });
});

describe("what a deleted account leaves behind", () => {
  it("loses the person's e-mail and addresses: audit entries, invitations, rate limits", async () => {
    const a = await createOwner();
    const b = await createOwner();
    const person = await registerUser();
    const personIp = randomIp();
    const invite = (owner: typeof a, email: string, role: "admin" | "agent" = "agent") =>
      answer(
        api(owner.token).organizations.invitations.$post(
          { json: { email, role } },
          { headers: { "CF-Connecting-IP": "203.0.113.7" } },
        ),
      );
    const invitation = await invite(a, person.email, "admin");
    await answer(
      api(person.token).organizations.invitations.accept.$post({
        json: { token: new URL(invitation.body.data.url!).searchParams.get("invitation")! },
      }),
    );
    const signIn = (email: string, password: string, ip: string) =>
      answer(
        api().auth.login.$post(
          { json: { email, password } },
          { headers: { "CF-Connecting-IP": ip } },
        ),
      );
    const session = await signIn(person.email, person.password, personIp);
    const token = session.body.data.token as string;
    await signIn(person.email, "mala", randomIp());
    // Someone else's window whose key merely contains the person's e-mail stays.
    const lookalike = `x${person.email}`;
    await signIn(lookalike, "mala", randomIp());
    const colleague = uniqueEmail("colega");
    await answer(
      api(token).organizations.invitations.$post(
        { json: { email: colleague, role: "agent" } },
        { headers: { "CF-Connecting-IP": personIp } },
      ),
    );
    await invite(b, person.email);
    await answer(api(token).profiles.me.$delete({ json: { password: "mala" } }));

    // The account's own entries are in D1, each organization's in its data.
    const places = [a.organization.id, b.organization.id];
    const about = await everywhere<{ id: string }>(
      places,
      "SELECT id FROM audit_events WHERE user_id = ? OR target = ? OR json_extract(metadata, '$.email') = ?",
      person.user.id,
      person.email,
      person.email,
    );
    expect(about.length).toBeGreaterThan(4);

    const res = await answer(
      api(token).profiles.me.$delete({ json: { password: person.password } }),
    );
    expect(res.status).toBe(200);

    const entries = await everywhere<{
      user_id: string | null;
      target: string | null;
      metadata: string | null;
      ip: string | null;
    }>(
      places,
      `SELECT user_id, target, metadata, ip FROM audit_events WHERE id IN (${about.map(() => "?").join(",")})`,
      ...about.map((row) => row.id),
    );
    expect(entries).toHaveLength(about.length);
    for (const entry of entries) {
      expect(entry.user_id).not.toBe(person.user.id);
      expect(entry.target).not.toBe(person.email);
      expect(entry.metadata ?? "").not.toContain(person.email);
    }
    const everything = await everywhere<{ n: number }>(
      places,
      "SELECT count(*) AS n FROM audit_events WHERE ip = ? OR instr(coalesce(metadata, '') || coalesce(target, ''), ?) > 0",
      personIp,
      `"${person.email}`,
    );
    expect(everything.map((row) => row.n)).toEqual([0, 0, 0]);
    // What others did keeps their own address.
    const others = await everywhere<{ n: number }>(
      places,
      "SELECT count(*) AS n FROM audit_events WHERE ip = ?",
      "203.0.113.7",
    );
    expect(others.reduce((sum, row) => sum + row.n, 0)).toBeGreaterThan(0);

    expect(await countIn("invitations", "email", person.email)).toBe(0);
    const sent = await env.DB.prepare("SELECT invited_by FROM invitations WHERE email = ?")
      .bind(colleague)
      .first<{ invited_by: string | null }>();
    expect(sent).toEqual({ invited_by: null });

    const { results: windows } = await env.DB.prepare("SELECT key FROM rate_limits").all<{
      key: string;
    }>();
    const keys = windows.map((row) => row.key);
    expect(keys.filter((key) => key.split(":").includes(person.email))).toEqual([]);
    expect(keys.filter((key) => key.includes(person.user.id))).toEqual([]);
    expect(keys).toContain(`login:email:${lookalike}`);
  });
});
