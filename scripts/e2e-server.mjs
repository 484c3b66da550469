// Serves the production build for the browser tests on a fresh local D1, with the local
// Meta Graph and model fakes: node scripts/e2e-server.mjs <port> <state dir>
import { execSync, spawn } from "node:child_process";
import { generateKeyPairSync } from "node:crypto";
import { rmSync, writeFileSync } from "node:fs";
import { startFakeGraph } from "../tests/fakes/graph-server.mjs";
import { startFakeModel } from "../tests/fakes/model-server.mjs";
import { startFakeStripe } from "../tests/fakes/stripe-server.mjs";
import { E2E_SETTINGS } from "../tests/e2e/settings.mjs";

const [port = "4317", stateDir = ".wrangler/e2e-state"] = process.argv.slice(2);
const env = {
  ...process.env,
  CI: "1",
  LOCAL_STATE_DIR: stateDir,
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_SEND_METRICS: "false",
};

const graph = await startFakeGraph({
  port: E2E_SETTINGS.graphPort,
  appSecret: E2E_SETTINGS.appSecret,
  webhookUrl: `http://localhost:${port}/webhooks/whatsapp`,
  autoStatuses: true,
  playAppData: true,
});
const model = await startFakeModel({ port: E2E_SETTINGS.modelPort, apiKey: E2E_SETTINGS.aiKey });
// Payment links (payments-console.spec.ts): keys are checked and sessions created here.
const stripe = await startFakeStripe({ port: E2E_SETTINGS.stripePort });

rmSync(stateDir, { recursive: true, force: true });
execSync("node scripts/dev-setup.mjs --no-migrate", { stdio: "inherit", env });
execSync(`wrangler d1 migrations apply DB --local --persist-to ${stateDir}`, {
  stdio: "inherit",
  env,
});
execSync("react-router build", { stdio: "inherit", env });

// The build carries a copy of .dev.vars; the browser tests run with their own settings.
writeFileSync(
  "build/server/.dev.vars",
  Object.entries({
    JWT_SECRET: "e2e-jwt-secret-0123456789abcdef0123456789",
    ENCRYPTION_KEY: "ZTJlLWVuY3J5cHRpb24ta2V5LTMyLWJ5dGVzLW9rISE=",
    PUBLIC_APP_URL: `http://localhost:${port}`,
    META_APP_ID: E2E_SETTINGS.appId,
    META_APP_SECRET: E2E_SETTINGS.appSecret,
    META_WEBHOOK_VERIFY_TOKEN: "e2e-verify-token",
    META_CONFIG_ID: "e2e-config-id",
    META_GRAPH_URL: graph.url,
    META_BUSINESS_API_URL: graph.businessUrl,
    AI_BASE_URL: model.url,
    AI_API_KEY: E2E_SETTINGS.aiKey,
    STRIPE_API_URL: stripe.url,
    // The booking Flow's key (agenda-y-cobra.spec.ts): the Graph fake encrypts with its public half.
    FLOWS_PRIVATE_KEY: generateKeyPairSync("rsa", { modulusLength: 2048 })
      .privateKey.export({ type: "pkcs8", format: "pem" })
      .toString()
      .replaceAll("\n", "\\n"),
    // Every browser test signs up from 127.0.0.1.
    REGISTRATIONS_PER_HOUR: "1000",
    OPERATOR_TOKEN: E2E_SETTINGS.operatorToken,
    // A move's switch waits twice this for cached routes to expire: 2 s, not a minute.
    STORE_ROUTE_TTL_SECONDS: "1",
  })
    .map(([key, value]) => `${key}="${value}"`)
    .join("\n"),
);

const server = spawn("vite", ["preview", "--port", port, "--strictPort"], {
  stdio: "inherit",
  env,
});
const stop = async () => {
  server.kill("SIGTERM");
  await Promise.all([graph.close(), model.close(), stripe.close()]);
};
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
server.on("exit", (code) => process.exit(code ?? 0));
