// The steps of an organization's move between D1 and its store (contract section 15, decisions
// 0065 and 0070), as the operator's command (`npm run stores -- move`) and the bench take them.
// Every step is one short call, so a large organization's move is followed step by step rather
// than waited on in one call (Node's fetch gives up after 300 s).

/** Passes over what changed at most; what is left, the check finds, and the move goes back. */
const MAX_PASSES = 5;
/** Into its store: keys written since their page that may be left for after the switch. */
const LEFT_FOR_THE_SWITCH = 2_000;

/**
 * @typedef {(path: string, body?: unknown) => Promise<any>} Operator one call to the app's
 *   `/api/v1/operator` routes, answering `data` and throwing on a refusal
 * @typedef {{ copied: number, changed: number, refused: number, pages: number }} Figures
 * @typedef {(event:
 *   | { step: "table", table: string, figures: Figures, again: boolean }
 *   | { step: "changes", tables: Record<string, { synced: number, changed: number, refused: number }>, remaining: number, switched: boolean }
 *   | { step: "waiting", ms: number }) => void} Report
 */

/**
 * Moves one organization to `to`: begin, every page of every table while it works, (into its
 * store) the keys written meanwhile, switch, wait until no Worker can write the old way, what
 * changed since (into its store: the keys written since; back to D1: every page again), finish.
 * Answers null when there was nothing to move, else the steps' figures and times. A step
 * refused throws; the caller decides whether to abort.
 * @param {Operator} operator @param {string} id @param {"d1" | "store"} to
 * @param {Report} [report]
 */
export async function moveOrganization(operator, id, to, report = () => {}) {
  const started = Date.now();
  const begun = await operator(`/stores/${id}/move`, { to });
  if (begun.copy_from === null) return null;
  /** @type {string[]} */
  const tables = begun.tables;
  const copied = await copyTables(operator, id, tables, false, report);
  if (to === "store") {
    // The keys written while it copied, while it still works: the switch is left only the rest.
    await syncChanges(operator, id, false, report, LEFT_FOR_THE_SWITCH);
  }
  const switchStarted = Date.now();
  const switched = await operator(`/stores/${id}/switch`, {});
  const wait = Math.max(0, Date.parse(switched.sync_from) - Date.now());
  report({ step: "waiting", ms: wait });
  await new Promise((resolve) => setTimeout(resolve, wait + 100));
  const syncStarted = Date.now();
  const changedAfterSwitch =
    to === "store"
      ? await syncChanges(operator, id, true, report, 0)
      : await copyAgain(operator, id, tables, report);
  const finishStarted = Date.now();
  const finished = await operator(`/stores/${id}/finish`, {});
  const done = Date.now();
  return {
    begun,
    copied,
    changedAfterSwitch,
    finished,
    times: {
      copyMs: switchStarted - started,
      waitMs: syncStarted - switchStarted,
      syncMs: finishStarted - syncStarted,
      finishMs: done - finishStarted,
      switchingMs: done - switchStarted,
      totalMs: done - started,
    },
  };
}

/**
 * Every page of every table, in order; answers the figures by table.
 * @param {Operator} operator @param {string} id @param {string[]} tables @param {boolean} again
 * @param {Report} report
 */
async function copyTables(operator, id, tables, again, report) {
  /** @type {Record<string, Figures>} */
  const byTable = {};
  for (const table of tables) {
    const figures = { copied: 0, changed: 0, refused: 0, pages: 0 };
    for (let after = ""; after !== null;) {
      const page = await operator(`/stores/${id}/copy`, { table, after });
      figures.copied += page.copied;
      figures.changed += page.changed;
      figures.refused += page.refused;
      figures.pages += 1;
      after = page.next;
    }
    byTable[table] = figures;
    report({ step: "table", table, figures, again });
  }
  return byTable;
}

/**
 * Back to D1: every page again for what changed since the copy, again while a pass both writes
 * and refuses rows (a row waiting for a value another frees); answers the rows changed.
 * @param {Operator} operator @param {string} id @param {string[]} tables @param {Report} report
 */
async function copyAgain(operator, id, tables, report) {
  let total = 0;
  for (let pass = 1; pass <= MAX_PASSES; pass++) {
    const figures = Object.values(await copyTables(operator, id, tables, true, report));
    const changed = figures.reduce((sum, f) => sum + f.changed, 0);
    const refused = figures.reduce((sum, f) => sum + f.refused, 0);
    total += changed;
    if (refused === 0 || changed === 0) break;
  }
  return total;
}

/**
 * Into its store: the keys written since their page was copied, in passes until no more than
 * `leave` are left or a pass copies none; answers the rows changed.
 * @param {Operator} operator @param {string} id @param {boolean} switched
 * @param {Report} report @param {number} leave
 */
async function syncChanges(operator, id, switched, report, leave) {
  let total = 0;
  for (let pass = 1; pass <= MAX_PASSES; pass++) {
    let [synced, remaining] = [0, 0];
    for (let after = 0; after !== null;) {
      const step = await operator(`/stores/${id}/changes`, { after });
      for (const figures of Object.values(step.tables)) {
        synced += figures.synced;
        total += figures.changed;
      }
      report({ step: "changes", tables: step.tables, remaining: step.remaining, switched });
      remaining = step.remaining;
      after = step.next;
    }
    if (remaining <= leave || synced === 0) break;
  }
  return total;
}
