// Runs before `npm run dev`: working local defaults and an up-to-date local D1.
// `--no-migrate` only creates .dev.vars (the browser tests migrate their own database).
import { execSync } from "node:child_process";
import { generateKeyPairSync, randomBytes } from "node:crypto";
import { copyFileSync, existsSync, readFileSync, writeFileSync } from "node:fs";

if (!existsSync(".dev.vars")) {
  copyFileSync(".dev.vars.example", ".dev.vars");
  console.log("Created .dev.vars from .dev.vars.example (local defaults).");
}

// The example's operator token is public, and the Worker refuses it: each copy gets its own.
const EXAMPLE_OPERATOR_TOKEN = "local-operator-token-change-me";
const vars = readFileSync(".dev.vars", "utf8");
if (vars.includes(`OPERATOR_TOKEN="${EXAMPLE_OPERATOR_TOKEN}"`)) {
  const token = randomBytes(32).toString("hex");
  writeFileSync(
    ".dev.vars",
    vars.replace(`OPERATOR_TOKEN="${EXAMPLE_OPERATOR_TOKEN}"`, `OPERATOR_TOKEN="${token}"`),
  );
  console.log("Gave .dev.vars an operator token of its own (npm run stores reads it there).");
}

// The booking Flow's RSA-2048 key (WhatsApp encrypts its calls to /webhooks/flows for it): each
// copy makes its own, on one line with its line breaks written \n (dotenv reads them back).
if (!/^FLOWS_PRIVATE_KEY=/m.test(readFileSync(".dev.vars", "utf8"))) {
  const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
  const pem = privateKey.export({ type: "pkcs8", format: "pem" }).toString().trim();
  const line = `FLOWS_PRIVATE_KEY="${pem.replaceAll("\n", "\\n")}"\n`;
  const current = readFileSync(".dev.vars", "utf8");
  writeFileSync(".dev.vars", `${current}${current.endsWith("\n") ? "" : "\n"}${line}`);
  console.log("Gave .dev.vars a booking Flow key of its own (FLOWS_PRIVATE_KEY).");
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
