// An organization's data has one home, its store (decisions 0075, 0076): D1 holds none of the
// tables the store's schema declares (but the audit trail, which both have), and the store holds
// every one of them with the same columns, so a column the schema gains and the store's
// migrations lack fails here rather than at the first query that names it, in production.
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { getTableColumns, getTableName, isTable } from "drizzle-orm";
import type { SQLiteTable } from "drizzle-orm/sqlite-core";
import { describe, expect, it } from "vitest";
import * as globalSchema from "../../worker/db/global-schema";
import * as storeSchema from "../../durable-objects/schema";
import { organizationStore } from "../../worker/stores/registry";
import { createOwner } from "../support/factories";

type Row = Record<string, SqlStorageValue>;

const tablesOf = (schema: Record<string, unknown>) =>
  Object.values(schema).filter((value): value is SQLiteTable => isTable(value));

/** The organization's tables as the store's schema declares them (the search indexes are SQL's). */
const declared = tablesOf(storeSchema);
const globalNames = new Set(tablesOf(globalSchema).map(getTableName));

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

  it("are none of D1's, which holds the global schema's tables and only those", async () => {
    const { results } = await env.DB.prepare(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '_cf_%' AND name <> 'd1_migrations'",
    ).all<{ name: string }>();
    expect(results.map((row) => row.name).sort()).toEqual([...globalNames].sort());
    // The one table of both: an account's own audit entries in D1, an organization's in its store.
    expect(declared.map(getTableName).filter((name) => globalNames.has(name))).toEqual([
      "audit_events",
    ]);
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
