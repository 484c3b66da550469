// Serves the production build for the browser tests on a fresh local D1:
// node scripts/e2e-server.mjs <port> <state dir>
import { execSync, spawn } from "node:child_process";
import { rmSync } from "node:fs";

const [port = "4317", stateDir = ".wrangler/e2e-state"] = process.argv.slice(2);
const env = {
  ...process.env,
  CI: "1",
  LOCAL_STATE_DIR: stateDir,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
};

rmSync(stateDir, { recursive: true, force: true });
execSync("node scripts/dev-setup.mjs --no-migrate", { stdio: "inherit", env });
execSync(`wrangler d1 migrations apply DB --local --persist-to ${stateDir}`, {
  stdio: "inherit",
  env,
});
execSync("react-router build", { stdio: "inherit", env });

const server = spawn("vite", ["preview", "--port", port, "--strictPort"], {
  stdio: "inherit",
  env,
});
const stop = () => server.kill("SIGTERM");
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
server.on("exit", (code) => process.exit(code ?? 0));
