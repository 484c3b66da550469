// The organization's data in its store: `orgBatch` and `orgStatements` are all-or-nothing and
// answer what each statement returned.
import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { orgBatch, orgStatements } from "../../durable-objects/db";
import { quickReplies } from "../../durable-objects/schema";
import { createOwner } from "../support/factories";
import { withOrgDb } from "../support/org-data";

const reply = (organizationId: string, shortcut: string) => ({
  id: crypto.randomUUID(),
  organizationId,
  shortcut,
  content: `Texto de ${shortcut}`,
});

describe("the organization's data in its store", () => {
  it("runs a batch as one unit and answers what each statement returned", async () => {
    const { organization } = await createOwner();
    await withOrgDb(organization.id, async (db) => {
      const first = reply(organization.id, "hola");
      const [inserted, rows] = await orgBatch(db, [
        db.insert(quickReplies).values(first).returning({ id: quickReplies.id }),
        db.select().from(quickReplies).where(eq(quickReplies.organizationId, organization.id)),
      ]);
      expect(inserted).toEqual([{ id: first.id }]);
      expect(rows.map((row) => row.shortcut)).toEqual(["hola"]);

      // A failing statement (the same id again) undoes the whole batch.
      expect(() =>
        orgBatch(db, [
          db.insert(quickReplies).values(reply(organization.id, "adios")),
          db.insert(quickReplies).values(first),
        ]),
      ).toThrow();
      const left = await db
        .select({ shortcut: quickReplies.shortcut })
        .from(quickReplies)
        .where(eq(quickReplies.organizationId, organization.id));
      expect(left).toEqual([{ shortcut: "hola" }]);
    });
  });

  it("runs plain statements as one unit and answers their rows by column name", async () => {
    const { organization } = await createOwner();
    await withOrgDb(organization.id, async (db) => {
      const created = new Date().toISOString();
      const insert = (id: string, shortcut: string) => ({
        sql: `INSERT INTO quick_replies (id, organization_id, shortcut, content, created_at, updated_at)
              VALUES (?1, ?2, ?3, ?3, ?4, ?4)`,
        params: [id, organization.id, shortcut, created],
      });
      const [, rows] = await orgStatements(db, [
        insert("a", "uno"),
        {
          sql: "SELECT shortcut FROM quick_replies WHERE organization_id = ? ORDER BY shortcut",
          params: [organization.id],
        },
      ]);
      expect(rows).toEqual([{ shortcut: "uno" }]);
      expect(() => orgStatements(db, [insert("b", "dos"), insert("a", "tres")])).toThrow();
      const [left] = await orgStatements(db, [
        {
          sql: "SELECT count(*) AS n FROM quick_replies WHERE organization_id = ?",
          params: [organization.id],
        },
      ]);
      expect(left).toEqual([{ n: 1 }]);
    });
  });
});
