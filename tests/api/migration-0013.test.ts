// Migration 0013 forgets the message costs kept before they were read per number: they were
// the whole WhatsApp Business Account's, other organizations' numbers included. The next view
// reads them again from Meta, for the organization's own number.
import { env } from "cloudflare:workers";
import { expect, it } from "vitest";
import { advertiser } from "../support/ads";
import { api } from "../support/api";
import { keepInD1 } from "../support/org-data";

it("forgets the costs kept for the whole account, and reads the number's again", async () => {
  // A number of the shared account without figures of its own at the fake Meta.
  const { owner, connection } = await advertiser();
  // Its data in D1, where the migration ran: a store never held costs of that time.
  await keepInD1(owner.organization.id);
  await env.DB.prepare("UPDATE whatsapp_connections SET phone_number = ? WHERE id = ?")
    .bind("+34 644 000 013", connection.id)
    .run();
  const today = new Date().toISOString().slice(0, 10);
  const now = new Date().toISOString();
  // Today read a minute ago, as before 0013: every number of the account summed.
  await env.DB.batch([
    env.DB.prepare(
      `INSERT INTO message_costs (organization_id, day, category, country, volume, cost, fetched_at)
       VALUES (?1, ?2, 'marketing', 'ES', 40, 9.5, ?3)`,
    ).bind(owner.organization.id, today, now),
    env.DB.prepare(
      "INSERT INTO message_cost_syncs (organization_id, day, fetched_at) VALUES (?1, ?2, ?3)",
    ).bind(owner.organization.id, today, now),
  ]);

  // The migration's statements, run on what the schema keeps today (the factories write the
  // newest schema, so the data cannot be made at 0012 and migrated forward).
  const migration = env.TEST_MIGRATIONS.find((m) => m.name.startsWith("0013_"))!;
  await env.DB.batch(migration.queries.map((query) => env.DB.prepare(query)));
  const res = await api(owner.token).tracking["message-costs"].$get({
    query: { date_from: today, date_to: today },
  });
  expect(res.status).toBe(200);
  expect(await res.json()).toMatchObject({
    data: { total: 0, billable_messages: 0, by_category: {} },
  });
});
