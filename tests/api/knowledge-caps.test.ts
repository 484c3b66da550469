// Each organization's knowledge is bounded (entries and characters, decision 0046) and
// listed a page at a time; the caps hold when two people add the last entry at once.
import { exports } from "cloudflare:workers";
import type { InferRequestType } from "hono/client";
import { describe, expect, it } from "vitest";
import {
  KNOWLEDGE_MAX_CHARACTERS,
  KNOWLEDGE_MAX_ENTRIES,
  KNOWLEDGE_TOO_MANY_CHARACTERS,
  KNOWLEDGE_TOO_MANY_ENTRIES,
} from "../../contracts/knowledge";
import { textPdf } from "../fixtures/pdf";
import { createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { orgSql } from "../support/org-data";

type Owner = Awaited<ReturnType<typeof createOwner>>;

/**
 * `n` entries written straight to the organization's data (the API would take a while), `size`
 * characters each.
 */
async function seedEntries(owner: Owner, n: number, size = 10) {
  await orgSql(
    owner.organization.id,
    `WITH RECURSIVE seq(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM seq WHERE i < ?1)
     INSERT INTO knowledge_entries (id, organization_id, title, content, created_at, updated_at)
     SELECT lower(hex(randomblob(16))), ?2, 'Entrada ' || i, substr(hex(zeroblob(?3)), 1, ?3),
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || i || ' seconds'),
       strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-' || i || ' seconds')
     FROM seq`,
    n,
    owner.organization.id,
    size,
  );
}

const add = (owner: Owner, content = "Abrimos de 9 a 19.") =>
  answer(api(owner.token).knowledge.$post({ json: { title: "Horario", content } }));

const list = (owner: Owner, query: { page?: string; limit?: string } = {}) =>
  answer(api(owner.token).knowledge.$get({ query }));

const edit = (
  owner: Owner,
  id: string,
  json: InferRequestType<ReturnType<typeof api>["knowledge"][":id"]["$patch"]>["json"],
) => answer(api(owner.token).knowledge[":id"].$patch({ param: { id }, json }));

describe("knowledge caps", () => {
  it(`keeps at most ${KNOWLEDGE_MAX_ENTRIES} entries, even when the last place is asked for twice at once`, async () => {
    const owner = await createOwner();
    const other = await createOwner();
    await seedEntries(owner, KNOWLEDGE_MAX_ENTRIES - 1);

    const both = await Promise.all([add(owner), add(owner)]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 422]);
    const refused = both.find((r) => r.status === 422)!;
    expect(refused.body).toMatchObject({
      error: "knowledge_limit",
      message: KNOWLEDGE_TOO_MANY_ENTRIES,
    });
    expect((await list(owner)).body.data.usage.entries).toBe(KNOWLEDGE_MAX_ENTRIES);

    // An import is an entry too; another organization has its own count.
    const form = new FormData();
    form.append(
      "file",
      new File([textPdf(["Precios"])], "precios.pdf", { type: "application/pdf" }),
    );
    const imported = await exports.default.fetch("http://localhost/api/v1/knowledge/import", {
      method: "POST",
      headers: { Authorization: `Bearer ${owner.token}` },
      body: form,
    });
    expect(imported.status).toBe(422);
    expect(((await imported.json()) as { message: string }).message).toBe(
      KNOWLEDGE_TOO_MANY_ENTRIES,
    );
    // A full organization is told so before the file is read: an unreadable PDF gets the
    // cap's answer, not the reader's.
    const broken = new FormData();
    broken.append("file", new File(["%PDF-1.4 roto"], "roto.pdf", { type: "application/pdf" }));
    const unread = await exports.default.fetch("http://localhost/api/v1/knowledge/import", {
      method: "POST",
      headers: { Authorization: `Bearer ${owner.token}` },
      body: broken,
    });
    expect(((await unread.json()) as { message: string }).message).toBe(KNOWLEDGE_TOO_MANY_ENTRIES);
    expect((await add(other)).status).toBe(201);
    expect((await list(other)).body.data.usage).toEqual({
      entries: 1,
      characters: "Abrimos de 9 a 19.".length,
      max_entries: KNOWLEDGE_MAX_ENTRIES,
      max_characters: KNOWLEDGE_MAX_CHARACTERS,
    });
  });

  it(`keeps at most ${KNOWLEDGE_MAX_CHARACTERS.toLocaleString("en")} characters, on creation and on edit`, async () => {
    const owner = await createOwner();
    await seedEntries(owner, 1, KNOWLEDGE_MAX_CHARACTERS - 60_000);

    const tooLong = await add(owner, "x".repeat(60_001));
    expect(tooLong.status).toBe(422);
    expect(tooLong.body.message).toBe(KNOWLEDGE_TOO_MANY_CHARACTERS);
    const fits = await add(owner, "x".repeat(50_000));
    expect(fits.status).toBe(201);

    // 10,000 characters left: an edit may grow an entry up to them, not past.
    const id = fits.body.data.id;
    const grown = await edit(owner, id, { content: "x".repeat(60_001) });
    expect(grown.status).toBe(422);
    expect(grown.body.message).toBe(KNOWLEDGE_TOO_MANY_CHARACTERS);
    const unchanged = await answer(api(owner.token).knowledge[":id"].$get({ param: { id } }));
    expect(unchanged.body.data.content).toHaveLength(50_000);
    const edited = await edit(owner, id, { content: "x".repeat(60_000) });
    expect(edited.status).toBe(200);
    expect((await list(owner)).body.data.usage.characters).toBe(KNOWLEDGE_MAX_CHARACTERS);
    // A title alone never counts against the characters.
    const renamed = await edit(owner, id, { title: "Horario de verano" });
    expect(renamed.status).toBe(200);
  });

  it("lets an organization already past the characters (stored before the cap) shorten an entry, never grow one", async () => {
    const owner = await createOwner();
    await seedEntries(owner, 21, 99_000); // 2,079,000 characters
    const entry = (await list(owner)).body.data.entries[0]!;

    const grown = await edit(owner, entry.id, { content: "x".repeat(100_000) });
    expect(grown.status).toBe(422);
    const shortened = await edit(owner, entry.id, { content: "x".repeat(50_000) });
    expect(shortened.status).toBe(200);
    expect((await list(owner)).body.data.usage.characters).toBe(2_030_000);
  });
});

describe("GET /knowledge", () => {
  it("lists 50 entries a page, the most recently changed first, with the organization's usage", async () => {
    const owner = await createOwner();
    await seedEntries(owner, 120);
    const first = await list(owner);
    expect(first.status).toBe(200);
    expect(first.body.data).toMatchObject({ total: 120, page: 1, limit: 50 });
    expect(first.body.data.entries).toHaveLength(50);
    expect(first.body.data.entries[0]!.title).toBe("Entrada 1");
    const third = await list(owner, { page: "3" });
    expect(third.body.data.entries.map((e) => e.title)).toEqual(
      Array.from({ length: 20 }, (_, i) => `Entrada ${101 + i}`),
    );
    const all = await list(owner, { limit: String(KNOWLEDGE_MAX_ENTRIES) });
    expect(all.body.data.entries).toHaveLength(120);
  });

  it.each([
    { limit: "0" },
    { limit: String(KNOWLEDGE_MAX_ENTRIES + 1) },
    { limit: "diez" },
    { page: "0" },
  ])("refuses %o (400)", async (query) => {
    const owner = await createOwner();
    const res = await list(owner, query);
    expect(res.status).toBe(400);
    expect(typeof res.body.message).toBe("string");
  });
});
