// Runs before `npm run dev`: working local defaults and an up-to-date local D1.
// `--no-migrate` only creates .dev.vars (the browser tests migrate their own database).
import { execSync } from "node:child_process";
import { copyFileSync, existsSync } from "node:fs";

if (!existsSync(".dev.vars")) {
  copyFileSync(".dev.vars.example", ".dev.vars");
  console.log("Created .dev.vars from .dev.vars.example (local defaults).");
}

if (!process.argv.includes("--no-migrate")) {
  // CI=1 keeps wrangler from asking for confirmation in a terminal.
  // LOCAL_STATE_DIR: a local D1 of its own (the first-run test's), as vite.config.ts uses it.
  const state = process.env.LOCAL_STATE_DIR;
  execSync(`wrangler d1 migrations apply DB --local${state ? ` --persist-to ${state}` : ""}`, {
    stdio: "inherit",
    env: {
      ...process.env,
      CI: "1",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      WRANGLER_SEND_METRICS: "false",
    },
  });
}
