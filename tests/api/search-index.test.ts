// Hand-built deliveries on purpose: Meta's signed webhook is what stores the messages searched.
// The search indexes are written in batches by the store's `search` job (decision 0149): a
// message is found the moment it is stored (search reads the rows above the index's mark
// directly), the job writes them to the index later, and deletions and edits on either side of
// the mark leave the index exactly the rows it should hold (FTS5's integrity check against
// the tables, once nothing waits).
import { runDurableObjectAlarm } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { INDEX_RUN_ROWS, indexSearchBacklog } from "../../durable-objects/conversations/search";
import { organizationStore } from "../../worker/stores/registry";
import { delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { answer, api } from "../support/api";
import { connectWhatsapp, seedMessage } from "../support/db";
import { createConversation, createOwner } from "../support/factories";
import { orgSql, orgSqlBatch, withOrgDb } from "../support/org-data";
import { makeDue, workOf } from "../support/scheduled-work";
import { customerBsuid, customerPhone, deliver } from "../support/webhooks";

type Owner = Awaited<ReturnType<typeof createOwner>>;

/** An organization with a connected number and no agent. */
async function connected() {
  const owner = await createOwner();
  const { phoneNumberId } = await connectWhatsapp(owner.organization.id);
  return { owner, organizationId: owner.organization.id, phoneNumberId };
}

/** The ids of the conversations the inbox's search finds for `term`. */
const search = async (owner: Owner, term: string) =>
  (
    await answer(api(owner.token).conversations.$get({ query: { search: term } }))
  ).body.data.conversations.map((c) => c.id);

/** The messages the index itself holds for a phrase (not what search finds). */
const indexed = async (organizationId: string, phrase: string) =>
  (
    await orgSql<{ content: string }>(
      organizationId,
      "SELECT content FROM messages WHERE rowid IN (SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?)",
      `"${phrase}"`,
    )
  ).map((row) => row.content);

const marks = async (organizationId: string) =>
  Object.fromEntries(
    (
      await orgSql<{ name: string; indexed_through: number }>(
        organizationId,
        "SELECT name, indexed_through FROM search_progress",
      )
    ).map((row) => [row.name, row.indexed_through]),
  );

/** FTS5's check that each index holds exactly its table's rows: throws otherwise. */
const checkIndexes = (organizationId: string) =>
  orgSqlBatch(organizationId, [
    { sql: "INSERT INTO messages_fts (messages_fts, rank) VALUES ('integrity-check', 1)" },
    {
      sql: "INSERT INTO conversations_fts (conversations_fts, rank) VALUES ('integrity-check', 1)",
    },
  ]);

const indexNow = (organizationId: string) =>
  withOrgDb(organizationId, (db) => indexSearchBacklog(db));

describe("search indexes written in batches", () => {
  it("find a message the moment it is stored, and hold it once the store's job has run", async () => {
    const { owner, organizationId, phoneNumberId } = await connected();
    const store = await organizationStore(env, organizationId);
    const sent = await deliver(
      delivery(
        inboundMessage({
          phoneNumberId,
          from: customerPhone(),
          userId: customerBsuid(),
          name: "Lucía Pérez",
          text: "Quisiera reservar una mesa en la terraza",
        }),
      ),
    );
    expect(sent.status).toBe(200);
    const [conversation] = await orgSql<{ id: string }>(
      organizationId,
      "SELECT id FROM conversations",
    );

    // Not in the index yet, and found all the same: by its text, its name, in any case.
    expect(await indexed(organizationId, "reservar una mesa")).toEqual([]);
    expect(await search(owner, "reservar una mesa")).toEqual([conversation!.id]);
    expect(await search(owner, "LUCÍA PÉREZ")).toEqual([conversation!.id]);
    expect(await search(owner, "TERRAZA")).toEqual([conversation!.id]);
    expect(await search(owner, "cena")).toEqual([]);

    // One message is not a batch: the job waits for more to come.
    const job = await workOf(store, "job:search");
    expect(job!.dueAt).toBeGreaterThan(Date.now() + 60_000);
    await makeDue(store, "job:search");
    await runDurableObjectAlarm(store);

    expect(await workOf(store, "job:search")).toBeUndefined();
    expect(await indexed(organizationId, "reservar una mesa")).toEqual([
      "Quisiera reservar una mesa en la terraza",
    ]);
    expect(await search(owner, "reservar una mesa")).toEqual([conversation!.id]);
    expect(await search(owner, "LUCÍA PÉREZ")).toEqual([conversation!.id]);
    await checkIndexes(organizationId);
  });

  it("are asked for by a console write that stored something", async () => {
    const { owner, organizationId } = await connected();
    const store = await organizationStore(env, organizationId);
    expect(await workOf(store, "job:search")).toBeUndefined();
    const conversation = await createConversation(owner, { contact_name: "Desde la consola" });
    expect((await workOf(store, "job:search"))!.dueAt).toBeGreaterThan(Date.now());
    expect(await search(owner, "desde la consola")).toEqual([conversation.id]);
  });

  it("make the job due at once when many rows wait, in runs of a bounded size", async () => {
    const { owner, organizationId, phoneNumberId } = await connected();
    const store = await organizationStore(env, organizationId);
    const messages = Array.from({ length: 40 }, (_, i) =>
      inboundMessage({
        phoneNumberId,
        from: customerPhone(),
        userId: customerBsuid(),
        text: `Pedido número ${i} de la tanda`,
      }),
    );
    expect((await deliver(delivery(...messages))).status).toBe(200);
    // 40 messages and their 40 conversations wait: a batch.
    expect((await workOf(store, "job:search"))!.dueAt).toBeLessThanOrEqual(Date.now());
    await runDurableObjectAlarm(store);
    expect(await indexed(organizationId, "de la tanda")).toHaveLength(40);
    expect(await search(owner, "número 39 de la")).toHaveLength(1);
    await checkIndexes(organizationId);

    // A backlog larger than a run is indexed a run at a time.
    const conversation = await createConversation(owner, { contact_name: "Archivo" });
    await orgSql(
      organizationId,
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?3)
       INSERT INTO messages (id, organization_id, conversation_id, content, direction, sender_type,
         status, created_at)
       SELECT 'archived-' || i, ?1, ?2, 'Nota archivada ' || i, 'inbound', 'customer', 'delivered',
         '2026-11-29T10:00:00.000Z' FROM n`,
      organizationId,
      conversation.id,
      INDEX_RUN_ROWS + 100,
    );
    const before = await marks(organizationId);
    expect(await indexNow(organizationId)).toBe(true);
    expect((await marks(organizationId)).messages).toBe(before.messages! + INDEX_RUN_ROWS);
    expect(await indexNow(organizationId)).toBe(false);
    const last = `Nota archivada ${INDEX_RUN_ROWS + 100}`;
    expect(await indexed(organizationId, last)).toEqual([last]);
    await checkIndexes(organizationId);
  });

  it("keep exactly the rows they should through edits and deletions on both sides of the mark", async () => {
    const { owner, organizationId } = await connected();
    const conversation = await createConversation(owner, { contact_name: "Marta Ruiz" });
    const seed = (content: string) => seedMessage(organizationId, conversation.id, { content });
    const edit = (id: string, content: string) =>
      orgSql(organizationId, "UPDATE messages SET content = ? WHERE id = ?", content, id);
    const remove = (id: string) => orgSql(organizationId, "DELETE FROM messages WHERE id = ?", id);
    await seed("Primer mensaje indexado");
    const edited = await seed("Texto antes de editar");
    const goneIndexed = await seed("Borrado ya indexado");
    expect(await indexNow(organizationId)).toBe(false);

    // Below the mark: an edit and a deletion change the index.
    await edit(edited.id, "Texto editado");
    await remove(goneIndexed.id);
    // Above it: the same, before the job has seen them.
    const editedWaiting = await seed("Espera sin editar");
    const goneWaiting = await seed("Espera y se borra");
    await edit(editedWaiting.id, "Espera ya editado");
    await remove(goneWaiting.id);
    await orgSql(
      organizationId,
      "UPDATE conversations SET contact_name = ? WHERE id = ?",
      "Marta Gil",
      conversation.id,
    );

    const finds = async (term: string) => (await search(owner, term)).length;
    expect(await finds("Texto editado")).toBe(1);
    expect(await finds("antes de editar")).toBe(0);
    expect(await finds("Borrado ya")).toBe(0);
    expect(await finds("Espera ya editado")).toBe(1);
    expect(await finds("sin editar")).toBe(0);
    expect(await finds("se borra")).toBe(0);
    expect(await finds("Marta Gil")).toBe(1);
    expect(await finds("Marta Ruiz")).toBe(0);

    expect(await indexNow(organizationId)).toBe(false);
    await checkIndexes(organizationId);
    expect(await finds("Espera ya editado")).toBe(1);
    expect(await finds("sin editar")).toBe(0);
  });

  it("never count a new row as indexed when the newest one is deleted and its rowid comes back", async () => {
    const { owner, organizationId } = await connected();
    const conversation = await createConversation(owner, { contact_name: "Nuevo" });
    await seedMessage(organizationId, conversation.id, { content: "Mensaje que queda" });
    const newest = await seedMessage(organizationId, conversation.id, { content: "El último" });
    expect(await indexNow(organizationId)).toBe(false);
    const [{ rowid }] = (await orgSql<{ rowid: number }>(
      organizationId,
      "SELECT rowid FROM messages WHERE id = ?",
      newest.id,
    )) as [{ rowid: number }];

    await orgSql(organizationId, "DELETE FROM messages WHERE id = ?", newest.id);
    expect((await marks(organizationId)).messages).toBe(rowid - 1);
    // SQLite gives the next row the highest rowid plus one: the one just freed.
    const next = await seedMessage(organizationId, conversation.id, { content: "Llega después" });
    const [reused] = await orgSql<{ rowid: number }>(
      organizationId,
      "SELECT rowid FROM messages WHERE id = ?",
      next.id,
    );
    expect(reused!.rowid).toBe(rowid);
    expect(await search(owner, "Llega después")).toEqual([conversation.id]);
    expect(await indexNow(organizationId)).toBe(false);
    expect(await indexed(organizationId, "Llega después")).toEqual(["Llega después"]);
    await checkIndexes(organizationId);
  });
});
