// Nothing of an organization outlives its retention or its erasure in any copy, job or key of
// its store (issue 46; contract section 12, 2026-11-28; decision 0082). A customer is given
// something in every kind of place the product keeps (messages and their search, the phone's
// address book, consent, labels, broadcasts, follow-ups, a pending AI reply and transcript);
// then every table of the store and every storage key is walked for anything that names them.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { contactSync, delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { runRetention } from "../../durable-objects/retention/service";
import { api, answer } from "../support/api";
import { marketingOrganization, type MarketingOrganization } from "../support/marketing";
import { orgFirst, orgSql, orgSqlBatch, withStoreDeps } from "../support/org-data";
import { customerPhone, deliver } from "../support/webhooks";
import { makeDue } from "../support/scheduled-work";

type Row = Record<string, SqlStorageValue>;
const YEAR_MS = 365 * 24 * 3600 * 1000;

/** What names the customer anywhere: their phone, their BSUID, their conversation. */
interface Traces {
  phone: string;
  userId: string;
  conversationId: string;
  name: string;
}

/**
 * A customer with something in every kind of place: their messages (and the search's index),
 * the address book's name, an opt-out, a label, a broadcast and a follow-up sent to them, an AI
 * reply and a transcript waiting in the store's keys. Answers what names them.
 */
async function customerEverywhere(s: MarketingOrganization): Promise<Traces> {
  const phone = customerPhone();
  const userId = `ES.${crypto.randomUUID().replaceAll("-", "")}`;
  const name = `Cliente ${crypto.randomUUID().slice(0, 6)}`;
  const { phoneNumberId } = s;
  await deliver(
    delivery(inboundMessage({ phoneNumberId, from: phone, userId, name, text: "Hola zapatillas" })),
  );
  await deliver(delivery(contactSync({ phoneNumberId, contacts: [{ phone, fullName: name }] })));
  await deliver(delivery(inboundMessage({ phoneNumberId, from: phone, userId, text: "STOP" })));
  const conversation = await orgFirst<{ id: string }>(
    s.orgId,
    "SELECT id FROM conversations WHERE phone_number = ?",
    phone,
  );
  const conversationId = conversation!.id;
  const labelled = await answer(
    api(s.owner.token).conversations[":id"].labels.$put({
      param: { id: conversationId },
      json: { label_ids: [s.labelId] },
    }),
  );
  expect(labelled.status).toBe(200);
  const at = new Date().toISOString();
  const [broadcastId, followUpId] = [crypto.randomUUID(), crypto.randomUUID()];
  await orgSqlBatch(s.orgId, [
    {
      sql: `INSERT INTO broadcasts (id, organization_id, name, status, template_name,
              template_language, template_category, template_parameters, audience, created_at,
              updated_at)
            VALUES (?1, ?2, 'Rebajas', 'completed', 'bienvenida', 'es', 'MARKETING', '[]', '{}',
              ?3, ?3)`,
      params: [broadcastId, s.orgId, at],
    },
    {
      sql: `INSERT INTO broadcast_recipients (broadcast_id, conversation_id, organization_id,
              state, wamid, sent_at, created_at, updated_at)
            VALUES (?1, ?2, ?3, 'read', ?4, ?5, ?5, ?5)`,
      params: [broadcastId, conversationId, s.orgId, `wamid.${crypto.randomUUID()}`, at],
    },
    {
      sql: `INSERT INTO follow_ups (id, organization_id, name, no_reply_minutes, label_ids,
              stages, text, active_since, created_at, updated_at)
            VALUES (?1, ?2, 'Recordatorio', 60, '[]', '[]', '¿Sigues ahí?', ?3, ?3, ?3)`,
      params: [followUpId, s.orgId, at],
    },
    {
      sql: `INSERT INTO follow_up_sends (follow_up_id, conversation_id, organization_id,
              waited_since, state, sent_at, created_at)
            VALUES (?1, ?2, ?3, ?4, 'sent', ?4, ?4)`,
      params: [followUpId, conversationId, s.orgId, at],
    },
  ]);
  const message = await orgFirst<{ id: string }>(
    s.orgId,
    "SELECT id FROM messages WHERE conversation_id = ? LIMIT 1",
    conversationId,
  );
  await s.store.scheduleReply(s.orgId, conversationId);
  await s.store.scheduleTranscripts(s.orgId, [message!.id]);
  await makeDue(s.store, "reply:");
  return { phone, userId, conversationId, name };
}

/**
 * Every table of the store (its search indexes' own tables too) and every storage key or value
 * that names the customer, as `table` or `key:<name>`.
 */
async function whereNamed(storeId: DurableObjectStub, traces: Traces) {
  const marks = [traces.phone, traces.userId, traces.conversationId, traces.name];
  return runInDurableObject(storeId, async (_, state) => {
    const { sql } = state.storage;
    const found: string[] = [];
    const tables = sql
      .exec<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%'",
      )
      .toArray();
    for (const { name } of tables) {
      const rows = sql.exec<Row>(`SELECT * FROM "${name}"`).toArray();
      const text = rows
        .map((row) =>
          Object.values(row)
            .map((value) =>
              value instanceof ArrayBuffer ? new TextDecoder().decode(value) : String(value),
            )
            .join(" "),
        )
        .join("\n");
      if (marks.some((mark) => text.includes(mark))) found.push(name);
    }
    for (const [key, value] of await state.storage.list()) {
      if (marks.some((mark) => `${key} ${JSON.stringify(value)}`.includes(mark))) {
        found.push(`key:${key}`);
      }
    }
    return found;
  });
}

describe("nothing of a customer outlives", () => {
  it("retention, in any table or key of the store", async () => {
    const s = await marketingOrganization();
    const gone = await customerEverywhere(s);
    // Before: the walk finds them in every kind of place the product keeps.
    const before = await whereNamed(s.store, gone);
    expect(before).toEqual(
      expect.arrayContaining([
        "conversations",
        "messages",
        "phone_contacts",
        "marketing_consents",
        "conversation_labels",
        "broadcast_recipients",
        "follow_up_sends",
        "scheduled_work",
      ]),
    );
    // (and the walk does see every table: the search's own ones too)
    const tables = await runInDurableObject(s.store, (_, state) =>
      state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table'").toArray(),
    );
    expect(tables.length).toBeGreaterThan(30);

    // Three years later, with nothing new from them, retention runs, then the store's alarm.
    const later = new Date(Date.now() + 3 * YEAR_MS);
    await withStoreDeps(s.orgId, (storeDeps) => runRetention(storeDeps, s.orgId, later));
    await runDurableObjectAlarm(s.store);
    expect(await whereNamed(s.store, gone)).toEqual([]);
  });

  it("erasure, in any table or key of the store but its tombstone", async () => {
    const s = await marketingOrganization();
    const gone = await customerEverywhere(s);
    const res = await answer(
      api(s.owner.token).profiles.me.$delete({ json: { password: s.owner.password } }),
    );
    expect(res.body.data).toEqual({ organization_deleted: true });
    expect(await whereNamed(s.store, gone)).toEqual([]);
    const left = await runInDurableObject(s.store, async (_, state) => ({
      keys: [...(await state.storage.list()).keys()],
      rows: state.storage.sql
        .exec<{ name: string }>(
          "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '_cf_%'",
        )
        .toArray()
        .filter(({ name }) => name !== "store_migrations")
        .flatMap(({ name }) =>
          state.storage.sql.exec(`SELECT 1 FROM "${name}" LIMIT 1`).toArray().length > 0
            ? [name]
            : [],
        ),
    }));
    expect(left).toEqual({ keys: ["erased"], rows: [] });
  });
});

describe("the phone's address book", () => {
  it("keeps only the contacts who have a conversation, and they expire with it", async () => {
    const s = await marketingOrganization();
    const { phoneNumberId } = s;
    const [known, alone] = [customerPhone(), customerPhone()];
    await deliver(delivery(inboundMessage({ phoneNumberId, from: known })));
    await deliver(
      delivery(
        contactSync({
          phoneNumberId,
          contacts: [
            { phone: known, fullName: "Con conversación" },
            { phone: alone, fullName: "Sin conversación" },
          ],
        }),
      ),
    );
    const book = () =>
      orgSql<{ phone_number: string }>(s.orgId, "SELECT phone_number FROM phone_contacts");
    // The app's history may still bring the second one's chat: both are held meanwhile.
    expect((await book()).map((c) => c.phone_number).sort()).toEqual([known, alone].sort());

    // The history import ends without them: the contact alone goes.
    await orgSqlBatch(s.orgId, [
      {
        sql: `INSERT INTO history_imports (id, organization_id, state, created_at, updated_at)
              VALUES (?1, ?2, 'importing', ?3, ?3)`,
        params: [crypto.randomUUID(), s.orgId, new Date().toISOString()],
      },
      {
        sql: "UPDATE history_imports SET state = 'done' WHERE organization_id = ?",
        params: [s.orgId],
      },
    ]);
    expect(await book()).toEqual([{ phone_number: known }]);

    // A contact alone that no import ends is dropped by the next retention run after a day.
    await deliver(
      delivery(contactSync({ phoneNumberId, contacts: [{ phone: alone, fullName: "Otra vez" }] })),
    );
    await withStoreDeps(s.orgId, (storeDeps) =>
      runRetention(storeDeps, s.orgId, new Date(Date.now() + 25 * 3600_000)),
    );
    expect(await book()).toEqual([{ phone_number: known }]);

    // Its conversation deleted (here by hand, as retention or a move of number would), it goes.
    await orgSqlBatch(s.orgId, [
      {
        sql: "DELETE FROM messages WHERE conversation_id IN (SELECT id FROM conversations WHERE phone_number = ?)",
        params: [known],
      },
      { sql: "DELETE FROM conversations WHERE phone_number = ?", params: [known] },
    ]);
    expect(await book()).toEqual([]);
  });
});
