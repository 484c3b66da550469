// An organization's data has one home, its store (decision 0075): D1 holds none of its tables
// after migration 0028, and the store holds every table the drizzle schema declares for it,
// with the same columns, so a column the schema gains and the store lacks fails here rather
// than at the first query that names it, in production.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { getTableColumns, getTableName, isTable } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as schema from "../../worker/db/schema";
import * as bookingsSchema from "../../worker/bookings/schema";
import { ORGANIZATION_TABLES } from "../../worker/db/places";
import { organizationStore } from "../../worker/stores/registry";
import { createOwner } from "../support/factories";

type Row = Record<string, SqlStorageValue>;

/**
 * The organization's tables as the drizzle schemas declare them (the search indexes are SQL's):
 * the shared one and each domain's own module.
 */
const declared = ([...Object.values(schema), ...Object.values(bookingsSchema)] as unknown[])
  .filter((value): value is SQLiteTable => isTable(value))
  .filter((table) => ORGANIZATION_TABLES.has(getTableName(table)));

describe("the organization's tables", () => {
  it("are all in its store, with the columns the schema declares", async () => {
    const { organization } = await createOwner();
    const store = await organizationStore(env, organization.id);
    const run = (sql: string) =>
      runInDurableObject(store, (_, state) => state.storage.sql.exec<Row>(sql).toArray());
    expect(declared.length).toBeGreaterThan(25);
    for (const table of declared) {
      const name = getTableName(table);
      const stored = (await run(`PRAGMA table_info(${name})`)).map((column) => ({
        name: column.name,
        notNull: column.notnull === 1 || column.pk === 1,
      }));
      const columns = Object.values(getTableColumns(table)).map((column) => ({
        name: column.name,
        notNull: column.notNull || column.primary,
      }));
      const byName = (a: { name: unknown }, b: { name: unknown }) =>
        String(a.name).localeCompare(String(b.name));
      expect(stored.sort(byName), name).toEqual(columns.sort(byName));
    }
  });

  it("are none of D1's", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table'",
    ).all<{ name: string }>();
    const inD1 = results.map((row) => row.name).filter((name) => ORGANIZATION_TABLES.has(name));
    expect(inD1).toEqual([]);
  });
});

describe("the store's foreign keys", () => {
  it("each lead an index, so that a parent's delete finds its children without reading them all", async () => {
    const { organization } = await createOwner();
    const store = await organizationStore(env, organization.id);
    const unindexed = await runInDurableObject(store, (_, state) => {
      const rows = <T>(query: string) => state.storage.sql.exec(query).toArray() as T[];
      const tables = rows<{ name: string }>(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '%fts%' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%'",
      );
      const missing: string[] = [];
      for (const { name } of tables) {
        const leading = new Set(
          rows<{ name: string }>(`PRAGMA index_list(${name})`).flatMap((index) =>
            rows<{ seqno: number; name: string }>(`PRAGMA index_info(${index.name})`)
              .filter((column) => column.seqno === 0)
              .map((column) => column.name),
          ),
        );
        for (const key of rows<{ from: string; table: string }>(
          `PRAGMA foreign_key_list(${name})`,
        )) {
          if (!leading.has(key.from)) missing.push(`${name}.${key.from} → ${key.table}`);
        }
      }
      return missing;
    });
    expect(unindexed).toEqual([]);
  });
});
