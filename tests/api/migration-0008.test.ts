// Migration 0008 makes a conversation's phone nullable without rebuilding the table: every
// conversation, its messages and its search entry survive, and the inbox finds them after.
import { applyD1Migrations, reset } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { addMember } from "../support/factories";
import { call } from "../support/http";

it("keeps every conversation, message and search entry, and lets a phone be null", async () => {
  await reset();
  const before = env.TEST_MIGRATIONS.filter((m) => m.name < "0008");
  const from0008 = env.TEST_MIGRATIONS.filter((m) => m.name >= "0008");
  await applyD1Migrations(env.DB, before);

  // Written as the schema before 0008 has it: the factories speak the current one.
  const organizationId = crypto.randomUUID();
  const now = new Date().toISOString();
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO organizations (id, name, industry, employee_count, services_offered,
         business_hours, city, country, ai_use_case, tracking_key, created_at, updated_at)
       VALUES (?1, 'Clínica', 'Salud', '1-10', 'Limpiezas', 'L-V 9-19', 'Madrid', 'España',
         'Atención', ?2, ?3, ?3)`,
    ).bind(organizationId, crypto.randomUUID().replaceAll("-", ""), now),
    env.DB.prepare(
      `INSERT INTO conversations (id, organization_id, phone_number, wa_user_id, contact_name,
         status, last_message_at, created_at, updated_at)
       VALUES ('c1', ?1, '34611000001', 'ES.111', 'Rosa Flores', 'open', ?2, ?2, ?2),
              ('c2', ?1, '34611000002', NULL, NULL, 'open', ?2, ?2, ?2)`,
    ).bind(organizationId, now),
    env.DB.prepare(
      `INSERT INTO messages (id, organization_id, conversation_id, wamid, content, direction,
         sender_type, status, created_at)
       VALUES ('m1', ?1, 'c1', 'wamid.1', 'Hola', 'inbound', 'customer', 'delivered', ?2),
              ('m2', ?1, 'c2', 'wamid.2', 'Buenas', 'inbound', 'customer', 'delivered', ?2)`,
    ).bind(organizationId, now),
  ]);

  await applyD1Migrations(env.DB, from0008);
  const owner = await addMember(organizationId, "admin");

  const { results } = await env.DB.prepare(
    "SELECT id, phone_number, wa_user_id, username, contact_name FROM conversations ORDER BY id",
  ).all();
  expect(results).toEqual([
    {
      id: "c1",
      phone_number: "34611000001",
      wa_user_id: "ES.111",
      username: null,
      contact_name: "Rosa Flores",
    },
    { id: "c2", phone_number: "34611000002", wa_user_id: null, username: null, contact_name: null },
  ]);
  const messages = await env.DB.prepare("SELECT id FROM messages ORDER BY id").all();
  expect(messages.results.map((m) => m.id)).toEqual(["m1", "m2"]);

  // The search index was rebuilt: old conversations are found by name and phone.
  for (const [term, id] of [
    ["Flores", "c1"],
    ["611000002", "c2"],
  ]) {
    const found = await call("GET", `/api/v1/conversations?search=${term}`, {
      token: owner.token,
    });
    expect(found.body.data.conversations.map((c: { id: string }) => c.id)).toEqual([id]);
  }
  // A customer without a phone fits now; a second conversation for the same BSUID does not.
  await env.DB.prepare(
    `INSERT INTO conversations (id, organization_id, wa_user_id, status, last_message_at, created_at, updated_at)
     VALUES ('c3', ?1, 'ES.333', 'open', ?2, ?2, ?2)`,
  )
    .bind(organizationId, now)
    .run();
  await expect(
    env.DB.prepare(
      `INSERT INTO conversations (id, organization_id, wa_user_id, status, last_message_at, created_at, updated_at)
       VALUES ('c4', ?1, 'ES.333', 'open', ?2, ?2, ?2)`,
    )
      .bind(organizationId, now)
      .run(),
  ).rejects.toThrow(/UNIQUE/);
});
