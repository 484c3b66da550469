// What a newcomer runs first, for the first-run browser test: `npm run dev` with no Vite
// dependency cache and an empty local D1 (both under .wrangler/first-run, removed first).
//   node scripts/first-run-server.mjs <port>
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";

const [port = "4321"] = process.argv.slice(2);
const root = ".wrangler/first-run";
rmSync(root, { recursive: true, force: true });

// In Playwright's process group: stopping the test server stops npm and the dev server.
const dev = spawn("npm", ["run", "dev", "--", "--port", port, "--strictPort"], {
  stdio: "inherit",
  env: {
    ...process.env,
    // The newcomer's own local D1 and Vite cache stay untouched.
    LOCAL_STATE_DIR: `${root}/state`,
    VITE_CACHE_DIR: `${root}/vite`,
  },
});
dev.on("exit", (code) => process.exit(code ?? 0));
