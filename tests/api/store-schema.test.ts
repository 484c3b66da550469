// An organization's store holds every table of its data with D1's columns and indexes
// (decision 0054): the same services and the same drizzle schema run over both, so a column
// D1 gains and the store lacks would fail the first query that names it, in production.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ORGANIZATION_TABLES } from "../../worker/db/places";
import { organizationStore } from "../../worker/stores/registry";
import { createOwner } from "../support/factories";

type Row = Record<string, SqlStorageValue>;

/**
 * What only D1 has, for the upgrade stop's moves into the stores (migration 0027, decision
 * 0070): an index on the organization and the key, and the triggers recording what is written
 * while an organization moves. A store is its organization's alone and never moves out that way.
 */
const MOVE_BOOKKEEPING = /_move_(idx|insert|update|delete)$/;

/** Columns and indexes of `table`, as SQLite describes them. */
const describeIn = (run: (sql: string) => Promise<Row[]>) => async (table: string) => ({
  columns: (await run(`PRAGMA table_info(${table})`)).map(
    ({ name, type, notnull, dflt_value, pk }) => ({ name, type, notnull, dflt_value, pk }),
  ),
  indexes: (
    await run(
      `SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = '${table}' AND sql IS NOT NULL ORDER BY name`,
    )
  )
    .filter(({ name }) => !MOVE_BOOKKEEPING.test(String(name)))
    .map(({ name, sql }) => ({ name, sql: String(sql).replace(/[\s`]/g, "") })),
  triggers: (
    await run(
      `SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = '${table}' ORDER BY name`,
    )
  )
    .map(({ name }) => name)
    .filter((name) => !MOVE_BOOKKEEPING.test(String(name))),
});

describe("the store's schema", () => {
  it("has every organization table of D1, with its columns, indexes and triggers", async () => {
    const { organization } = await createOwner();
    const store = await organizationStore(env, organization.id);
    const inD1 = describeIn(async (sql) => (await env.DB.prepare(sql).all<Row>()).results);
    const inStore = describeIn((sql) =>
      runInDurableObject(store, (_, state) => state.storage.sql.exec<Row>(sql).toArray()),
    );
    for (const table of ORGANIZATION_TABLES) {
      const [d1, stored] = await Promise.all([inD1(table), inStore(table)]);
      expect(d1.columns.length, table).toBeGreaterThan(0);
      expect(stored, table).toEqual(d1);
    }
  });
});
