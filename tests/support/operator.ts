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

type ChangesPass = Record<string, { synced: number; changed: number; refused: number }>;

/**
 * Into its store: the keys written in D1 since the move began, copied again a step at a time,
 * in passes while one both copies and refuses keys (a row before its parent), as
 * `npm run stores` does; answers the passes' figures added up by table.
 */
export async function syncAllChanges(organizationId: string) {
  const total: ChangesPass = {};
  for (let pass = 0; pass < 5; pass++) {
    let [synced, remaining] = [0, 0];
    for (let after: number | null = 0; after !== null;) {
      const step = await operator(`/stores/${organizationId}/changes`, { after });
      expect(step.status, JSON.stringify(step.body)).toBe(200);
      for (const [table, figures] of Object.entries(step.body.data.tables as ChangesPass)) {
        const sum = (total[table] ??= { synced: 0, changed: 0, refused: 0 });
        sum.synced += figures.synced;
        sum.changed += figures.changed;
        sum.refused += figures.refused;
        synced += figures.synced;
      }
      remaining = step.body.data.remaining;
      after = step.body.data.next;
    }
    if (remaining === 0 || synced === 0) break;
  }
  return total;
}

/**
 * Into its store: `switch`, then the keys written since their page was copied (the tests'
 * routes live 0 s); answers the figures of that copy by table.
 */
export async function switchAndSync(organizationId: string) {
  const switched = await operator(`/stores/${organizationId}/switch`);
  expect(switched.status, JSON.stringify(switched.body)).toBe(200);
  return syncAllChanges(organizationId);
}

/**
 * Back to D1: `switch`, then every page again for what changed since the copy, again while a
 * pass both writes and refuses rows, as `npm run stores` does.
 */
async function switchAndCopyAgain(organizationId: string, tables: string[]) {
  const switched = await operator(`/stores/${organizationId}/switch`);
  expect(switched.status, JSON.stringify(switched.body)).toBe(200);
  for (let pass = 0; pass < 5; pass++) {
    const all = Object.values(await copyAll(organizationId, tables)).flat();
    const sum = (key: "changed" | "refused") => all.reduce((n, page) => n + page[key], 0);
    if (sum("refused") === 0 || sum("changed") === 0) break;
  }
}

/**
 * `move`, every page it copies, `switch` and what changed since: the organization is left
 * `switching`, checked next.
 */
export async function beginAndCopy(organizationId: string, to: "d1" | "store") {
  const begun = await operator(`/stores/${organizationId}/move`, { to });
  expect(begun.status, JSON.stringify(begun.body)).toBe(200);
  await copyAll(organizationId, begun.body.data.tables);
  if (to === "store") await switchAndSync(organizationId);
  else await switchAndCopyAgain(organizationId, begun.body.data.tables);
}

/** Every step of a move; answers `finish`'s figures. */
export async function move(organizationId: string, to: "d1" | "store") {
  await beginAndCopy(organizationId, to);
  return (await operator(`/stores/${organizationId}/finish`)).body.data;
}
