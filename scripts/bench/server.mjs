// The production build served by `wrangler dev --log-level warn` on the bench's own state,
// and the CPU time of its workerd processes read from /proc.
import { execFileSync, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
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

/** @param {string} file */
export function d1File(file) {
  execFileSync(
    "wrangler",
    ["d1", "execute", "DB", "--local", "--persist-to", STATE_DIR, "--file", file, "--yes"],
    { env: toolEnv, stdio: ["ignore", "pipe", "inherit"], maxBuffer: 64 * 1024 * 1024 },
  );
}
