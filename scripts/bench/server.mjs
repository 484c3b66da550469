// The production build served by `wrangler dev --log-level warn` on the bench's own state,
// the CPU time of its workerd processes read from /proc, each organization's store written
// through the server's bench-only route and its SQLite file read beside the server, and D1
// through wrangler.
import { execFileSync, spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";

export const STATE_DIR = ".wrangler/bench-state";
export const BUILD_DIR = ".wrangler/bench-build";

export const toolEnv = {
  ...process.env,
  PATH: `${process.cwd()}/node_modules/.bin:${process.env.PATH}`,
  CI: "1",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
};

/** @param {number} ms */
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** @returns {Promise<number>} */
export function freePort() {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = /** @type {import("node:net").AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/**
 * @param {number} port
 * @param {{ observability?: boolean }} [options] wrangler dev records every request's trace,
 *   one span per D1 statement and Durable Object call, into a SQLite store inside the very
 *   workerd process being measured, whatever wrangler.json says (X_LOCAL_OBSERVABILITY);
 *   production collects traces outside the Worker's CPU time. Off unless asked for.
 */
export async function startServer(port, { observability = false } = {}) {
  const child = spawn(
    "wrangler",
    [
      "dev",
      "--config",
      `${BUILD_DIR}/server/wrangler.json`,
      "--persist-to",
      STATE_DIR,
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--log-level",
      "warn",
      "--test-scheduled",
      "--show-interactive-dev-session=false",
    ],
    {
      env: { ...toolEnv, X_LOCAL_OBSERVABILITY: String(observability) },
      stdio: ["ignore", "pipe", "pipe"],
      detached: true,
    },
  );
  const pid = /** @type {number} */ (child.pid);
  // A run that fails half-way leaves no server behind: its process group, while it lives.
  const killOnExit = () => {
    if (child.exitCode !== null) return;
    try {
      process.kill(-pid, "SIGKILL");
    } catch {
      // gone
    }
  };
  process.once("exit", killOnExit);
  child.once("exit", () => process.off("exit", killOnExit));
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited:\n${output}`);
    try {
      const res = await fetch(`${base}/__bench/ok`);
      if (res.status === 200) break;
    } catch {
      // not listening yet
    }
    await sleep(250);
  }
  if (Date.now() >= deadline) throw new Error(`wrangler dev did not answer:\n${output}`);
  return {
    base,
    pid,
    output: () => output,
    async stop() {
      if (child.exitCode !== null) return;
      const exited = new Promise((r) => child.once("exit", r));
      try {
        process.kill(-pid, "SIGTERM"); // its own process group: wrangler and its workerd
      } catch {
        // already gone
      }
      await Promise.race([exited, sleep(5000)]);
      try {
        process.kill(-pid, "SIGKILL");
      } catch {
        // gone
      }
    },
  };
}

const TICK_MS = 1000 / Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim() || 100);

/** CPU milliseconds used so far by the descendants of `rootPid`: workerd ones and all. */
/** @param {number} rootPid */
export function treeCpu(rootPid) {
  const procs = new Map();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const fields = stat.slice(close + 2).split(" ");
      // fields[0] is state (field 3); ppid is field 4, utime 14, stime 15.
      procs.set(Number(name), {
        comm,
        ppid: Number(fields[1]),
        cpu: (Number(fields[11]) + Number(fields[12])) * TICK_MS,
      });
    } catch {
      // exited meanwhile
    }
  }
  const children = new Map();
  for (const [pid, p] of procs) {
    if (!children.has(p.ppid)) children.set(p.ppid, []);
    children.get(p.ppid).push(pid);
  }
  let workerd = 0;
  let total = 0;
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop();
    const p = procs.get(pid);
    if (p) {
      total += p.cpu;
      if (p.comm.includes("workerd")) workerd += p.cpu;
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return { workerd, total };
}

/**
 * One SQL query on the bench database through wrangler, beside the running server (which
 * may hold the database for a moment: SQLITE_BUSY is retried).
 */
/**
 * @param {string} sql
 * @returns {any[]}
 */
export function d1Query(sql) {
  for (let attempt = 1; ; attempt++) {
    try {
      return d1QueryOnce(sql);
    } catch (/** @type {any} */ error) {
      if (attempt >= 10 || !/SQLITE_BUSY|database is locked/.test(String(error.stderr ?? error))) {
        throw error;
      }
      execFileSync("sleep", ["0.5"]);
    }
  }
}

/** @param {string} sql */
function d1QueryOnce(sql) {
  const out = execFileSync(
    "wrangler",
    ["d1", "execute", "DB", "--local", "--persist-to", STATE_DIR, "--json", "--command", sql],
    { env: toolEnv, stdio: ["ignore", "pipe", "pipe"], maxBuffer: 64 * 1024 * 1024 },
  ).toString();
  return JSON.parse(out)[0].results;
}

/**
 * Seed statements run in an organization's store through the running server's bench-only
 * `POST /__bench/store-sql` (BENCH_ROUTES=1): `perCall` statements a call (the seed's are of
 * at most 200 rows: a few thousand rows a call), each call one transaction in the store, its
 * triggers (conversation counts) writing as the app's own writes do; then the store's own
 * `search` job runs until the seed's rows are in the search indexes, as its alarm would have by
 * then (`POST /__bench/search-index`). Returns the rows the statements wrote (triggers' included;
 * the indexes' are the job's).
 * @param {string} base @param {string} organizationId @param {string[]} statements
 * @param {number} [perCall]
 */
export async function storeSql(base, organizationId, statements, perCall = 20) {
  let written = 0;
  const calls = [];
  for (let i = 0; i < statements.length; i += perCall) calls.push(statements.slice(i, i + perCall));
  for (const call of calls) {
    const res = await fetch(`${base}/__bench/store-sql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        organization_id: organizationId,
        statements: call.map((sql) => ({ sql, params: [] })),
      }),
    });
    if (!res.ok) {
      throw new Error(`store-sql for ${organizationId}: ${res.status} ${await res.text()}`);
    }
    /** @type {{ rowsWritten: number }[]} */
    const results = await res.json();
    for (const r of results) written += r.rowsWritten;
  }
  const indexed = await fetch(`${base}/__bench/search-index?organization=${organizationId}`, {
    method: "POST",
  });
  if (!indexed.ok) {
    throw new Error(
      `search-index for ${organizationId}: ${indexed.status} ${await indexed.text()}`,
    );
  }
  return written;
}

/** @param {string} file */
export function d1File(file) {
  execFileSync(
    "wrangler",
    ["d1", "execute", "DB", "--local", "--persist-to", STATE_DIR, "--file", file, "--yes"],
    { env: toolEnv, stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 * 1024 * 1024 },
  );
}

// ── The state's SQLite files, read beside the running server ────────────────
// Node 22's SQLite (package.json's engines; `npm run` puts its node first on the PATH), opened
// read-only: a reader of a WAL database sees what was committed, and workerd keeps writing.
/** @type {typeof import("node:sqlite") | null} */
const nodeSqlite = await import("node:sqlite").catch(() => null);
export const canReadSqlite = nodeSqlite !== null;

/** @param {string} dir @returns {string[]} the SQLite databases of a state folder, not its metadata */
function sqliteFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sqlite") && f !== "metadata.sqlite")
    .map((f) => `${dir}/${f}`);
}

/**
 * @template T
 * @param {string} file @param {(db: import("node:sqlite").DatabaseSync) => T} read
 * @returns {T}
 */
function readSqlite(file, read) {
  if (!nodeSqlite) throw new Error("node:sqlite is not available (Node 22 or later)");
  for (let attempt = 1; ; attempt++) {
    /** @type {import("node:sqlite").DatabaseSync | undefined} */
    let db;
    try {
      db = new nodeSqlite.DatabaseSync(file, { readOnly: true });
      db.exec("PRAGMA busy_timeout = 5000");
      return read(db);
    } catch (/** @type {any} */ error) {
      if (attempt >= 10 || !/busy|locked/i.test(String(error?.message))) throw error;
      execFileSync("sleep", ["0.5"]);
    } finally {
      db?.close();
    }
  }
}

/**
 * The organizations' stores in the bench's state: each OrganizationHub's SQLite file, by the
 * organization its `store_owner` names (a store records the first organization that calls it).
 * @returns {Map<string, string>}
 */
export function storeFiles() {
  const dirs = existsSync(`${STATE_DIR}/v3/do`)
    ? readdirSync(`${STATE_DIR}/v3/do`).filter((d) => d.endsWith("-OrganizationHub"))
    : [];
  const byOrganization = new Map();
  for (const file of dirs.flatMap((d) => sqliteFiles(`${STATE_DIR}/v3/do/${d}`))) {
    const owner = readSqlite(file, (db) => {
      const table = db
        .prepare("SELECT 1 FROM sqlite_schema WHERE type = 'table' AND name = 'store_owner'")
        .get();
      return table ? db.prepare("SELECT organization_id FROM store_owner").get() : undefined;
    });
    if (owner) byOrganization.set(String(owner.organization_id), file);
  }
  return byOrganization;
}

/**
 * One query on an organization's store, read from its SQLite file.
 * @param {string} organizationId @param {string} sql @param {...(string | number)} params
 * @returns {any[]}
 */
export function storeQuery(organizationId, sql, ...params) {
  const file = storeFiles().get(organizationId);
  if (!file) throw new Error(`no store for organization ${organizationId} under ${STATE_DIR}`);
  return readSqlite(file, (db) => db.prepare(sql).all(...params));
}

/**
 * A SQLite database's size as SQLite counts it (pages × page size, what a Durable Object's
 * `databaseSize` reports, WAL included), its free pages, and the bytes of each table with its
 * indexes (`dbstat`; an FTS5 index's shadow tables count under the index's name).
 * @param {string} file
 */
export function sqliteSize(file) {
  return readSqlite(file, (db) => {
    const pragma = (/** @type {string} */ name) =>
      Number(Object.values(db.prepare(`PRAGMA ${name}`).get() ?? {})[0]);
    const pageSize = pragma("page_size");
    /** @type {Record<string, number>} */
    const tables = {};
    const rows = db
      .prepare(
        `SELECT coalesce(s.tbl_name, d.name) AS name, sum(d.pgsize) AS bytes
         FROM dbstat d LEFT JOIN sqlite_schema s ON s.name = d.name GROUP BY 1`,
      )
      .all();
    for (const row of rows) {
      const name = String(row.name).replace(/_fts_(data|idx|docsize|config|content)$/, "_fts");
      tables[name] = (tables[name] ?? 0) + Number(row.bytes);
    }
    return {
      bytes: pragma("page_count") * pageSize,
      freeBytes: pragma("freelist_count") * pageSize,
      tables,
    };
  });
}
