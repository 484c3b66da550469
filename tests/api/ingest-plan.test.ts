import { describe, expect, it } from "vitest";
import { INGEST_BATCH } from "../../durable-objects/whatsapp/ingest";
import { createOwner } from "../support/factories";
import { orgSql } from "../support/org-data";

type PlanRow = {
  id: number;
  parent: number;
  detail: string;
};

/**
 * The tables of the organization's data a statement reads, under their own names and the
 * aliases it gives them.
 */
function tableNames(sql: string) {
  const names = new Set<string>();
  for (const [, table, alias] of sql.matchAll(
    /\b(?:FROM|JOIN|UPDATE|INTO)\s+(conversations|messages|broadcast_recipients)\b(?:\s+AS\s+(\w+))?/gi,
  )) {
    names.add(table!);
    if (alias) names.add(alias);
  }
  return names;
}

/**
 * What in a statement's plan would make a delivery cost more than its size: a table walked
 * instead of searched by index, or the delivery's JSON (json_each, a virtual table) read again
 * inside another loop, once per row of it.
 */
function repeatedWork(sql: string, plan: PlanRow[]) {
  const tables = tableNames(sql);
  const byId = new Map(plan.map((row) => [row.id, row]));
  const ancestors = (row: PlanRow) => {
    const found: PlanRow[] = [];
    for (let up = byId.get(row.parent); up; up = byId.get(up.parent)) found.push(up);
    return found;
  };
  const isLoop = (row: PlanRow) => /^(SCAN|SEARCH) /.test(row.detail);
  const problems: string[] = [];
  for (const row of plan) {
    const scanned = /^SCAN (\w+)/.exec(row.detail)?.[1];
    if (scanned && tables.has(scanned)) problems.push(`walks a table: ${row.detail}`);
    // Searched by the organization alone: every row of the organization, however few the
    // delivery names (a broadcast's 10,000 recipients for each customer message).
    const byOrganization =
      /^SEARCH (\w+) USING (?:COVERING )?INDEX \w+ \(organization_id=\?\)$/.exec(row.detail)?.[1];
    if (byOrganization && tables.has(byOrganization)) {
      problems.push(`walks the organization's rows: ${row.detail}`);
    }
    if (!/VIRTUAL TABLE/.test(row.detail)) continue;
    const loopBefore = plan.some(
      (other) => other.parent === row.parent && other.id < row.id && isLoop(other),
    );
    const correlated = ancestors(row).some((up) => /^CORRELATED/.test(up.detail));
    if (loopBefore || correlated) problems.push(`reads the JSON once per row: ${row.detail}`);
  }
  return problems;
}

/** A statement's plan, with `parameters` bound, where an organization's data can be. */
type Explain = (sql: string, parameters: string[]) => Promise<PlanRow[]>;

let storeOrganization: Promise<string> | undefined;
/** In an organization's store, where a delivery is written. */
const explainInStore: Explain = async (sql, parameters) => {
  storeOrganization ??= createOwner().then((owner) => owner.organization.id);
  return orgSql<PlanRow>(await storeOrganization, `EXPLAIN QUERY PLAN ${sql}`, ...parameters);
};

describe.each([["a store", explainInStore]])(
  "the webhook's ingest batch in %s",
  (_place, explain) => {
    // Without statistics SQLite may pick a plan whose work grows with the delivery squared, or
    // with the organization's inbox: a 100-message delivery took 21 ms in one statement alone.
    it.each(Object.entries(INGEST_BATCH))(
      "%s reads the delivery's JSON once and every conversation and message by index",
      async (_name, sql) => {
        const parameters = Math.max(...[...sql.matchAll(/\?(\d)/g)].map((m) => Number(m[1])));
        const results = await explain(
          sql,
          Array.from({ length: parameters }, () => "[]"),
        );
        expect(results.length).toBeGreaterThan(0);
        expect(repeatedWork(sql, results)).toEqual([]);
      },
    );

    it("sees the repeated work in a plan that has it", async () => {
      // The phone match as it was: the conversations outer, the JSON scanned for each.
      const sql = `UPDATE conversations SET contact_name = c.value ->> 'name'
      FROM json_each(?2) AS c
      WHERE conversations.organization_id = ?1 AND conversations.phone_number = c.value ->> 'phone'
        AND conversations.phone_number IN (SELECT value ->> 'phone' FROM json_each(?2))`;
      const results = await explain(sql, ["[]", "[]"]);
      expect(repeatedWork(sql, results)).toEqual([
        expect.stringMatching(/^reads the JSON once per row: SCAN c VIRTUAL TABLE/),
      ]);
      const walk = `SELECT id FROM conversations WHERE contact_name = ?1`;
      const walked = await explain(walk, ["[]"]);
      expect(repeatedWork(walk, walked)).toEqual([
        expect.stringMatching(/^walks a table: SCAN conversations/),
      ]);
    });
  },
);
