// The operator's calls (`npm run stores`, /api/v1/operator), step by step as the command takes
// them, for tests that move an organization between D1 and its store.
import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import type { StoreListing } from "../../worker/stores/contract";

export async function operator(path: string, body: unknown = {}) {
  const res = await exports.default.fetch(`http://localhost/api/v1/operator${path}`, {
    method: "POST",
    headers: {
      Authorization: `Bearer ${env.OPERATOR_TOKEN!}`,
      "Content-Type": "application/json",
    },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

/** The organization's row of the operator's list (`npm run stores -- list`). */
export async function listedStore(organizationId: string) {
  const res = await exports.default.fetch("http://localhost/api/v1/operator/stores", {
    headers: { Authorization: `Bearer ${env.OPERATOR_TOKEN!}` },
  });
  const { data } = (await res.json()) as { data: StoreListing[] };
  return data.find((row) => row.organization_id === organizationId);
}

/** Every page of every table a move copies, in order; answers each table's pages. */
export async function copyAll(organizationId: string, tables: string[]) {
  const pages: Record<
    string,
    { copied: number; changed: number; refused: number; next: string | null }[]
  > = {};
  for (const table of tables) {
    pages[table] = [];
    for (let after: string | null = ""; after !== null;) {
      const page = await operator(`/stores/${organizationId}/copy`, { table, after });
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      pages[table].push(page.body.data);
      after = page.body.data.next;
    }
  }
  return pages;
}

/** The rows a copy changed, added up by table (tables without changes left out). */
export const changedRows = (pages: Awaited<ReturnType<typeof copyAll>>) =>
  Object.fromEntries(
    Object.entries(pages)
      .map(([table, list]) => [table, list.reduce((sum, page) => sum + page.changed, 0)] as const)
      .filter(([, changed]) => changed > 0),
  );

/**
 * `switch`, then every page again for what changed since the copy (the tests' routes live 0 s),
 * again while a pass both writes and refuses rows, as `npm run stores` does: answers the first
 * pass's pages.
 */
export async function switchAndSync(organizationId: string, tables: string[]) {
  const switched = await operator(`/stores/${organizationId}/switch`);
  expect(switched.status, JSON.stringify(switched.body)).toBe(200);
  const first = await copyAll(organizationId, tables);
  for (let pages = first, pass = 1; pass < 5; pass++) {
    const all = Object.values(pages).flat();
    const sum = (key: "changed" | "refused") => all.reduce((n, page) => n + page[key], 0);
    if (sum("refused") === 0 || sum("changed") === 0) break;
    pages = await copyAll(organizationId, tables);
  }
  return first;
}

/**
 * `move`, every page it copies, `switch` and every page again: the organization is left
 * `switching`, checked next.
 */
export async function beginAndCopy(organizationId: string, to: "d1" | "store") {
  const begun = await operator(`/stores/${organizationId}/move`, { to });
  expect(begun.status, JSON.stringify(begun.body)).toBe(200);
  await copyAll(organizationId, begun.body.data.tables);
  await switchAndSync(organizationId, begun.body.data.tables);
}

/** Every step of a move; answers `finish`'s figures. */
export async function move(organizationId: string, to: "d1" | "store") {
  await beginAndCopy(organizationId, to);
  return (await operator(`/stores/${organizationId}/finish`)).body.data;
}
