import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";
import { GRAPH_FIXTURES } from "./tests/fakes/graph-server.mjs";
import { GOOGLE_CLIENT_ID, GOOGLE_CLIENT_SECRET } from "./tests/fakes/google-server.mjs";
import { TEST_AI_KEY, TEST_APP_SECRET, TEST_OPERATOR_TOKEN } from "./tests/global-setup.ts";

// API and Worker tests run inside workerd (miniflare) against a real local D1 and real
// Durable Objects; each test file starts with an empty database with every migration applied.
// Meta's Graph API and the AI model are local fakes started by tests/global-setup.ts.
export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  return {
    plugins: [
      cloudflareTest(({ inject }) => ({
        // The Worker without the React Router build (pages are covered by the browser tests).
        main: "./tests/support/test-worker.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            JWT_SECRET: "test-jwt-secret-0123456789abcdef0123456789",
            ENCRYPTION_KEY: "dGVzdC1lbmNyeXB0aW9uLWtleS0zMi1ieXRlcy0hISE=",
            PUBLIC_APP_URL: "http://localhost:5173",
            META_APP_ID: GRAPH_FIXTURES.appId,
            META_APP_SECRET: TEST_APP_SECRET,
            META_WEBHOOK_VERIFY_TOKEN: "test-verify-token",
            META_GRAPH_URL: inject("graphUrl"),
            META_BUSINESS_API_URL: inject("graphUrl").replace(/\/v[\d.]+$/, "/business/whatsapp"),
            AI_BASE_URL: inject("modelUrl"),
            FLOWS_PRIVATE_KEY: inject("flowsPrivateKey"),
            AI_API_KEY: TEST_AI_KEY,
            STRIPE_API_URL: inject("stripeUrl"),
            MERCADOPAGO_API_URL: inject("mercadoPagoUrl"),
            GOOGLE_API_URL: inject("googleUrl"),
            GOOGLE_OAUTH_URL: inject("googleUrl"),
            GOOGLE_CLIENT_ID,
            GOOGLE_CLIENT_SECRET,
            OPERATOR_TOKEN: TEST_OPERATOR_TOKEN,
            // Every read of the store registry sees the row as it is now (a test moves an
            // organization and calls it at once); how long a route may be kept is a setting.
            STORE_ROUTE_TTL_SECONDS: "0",
            // D1 refuses more than 100 bound parameters, as deployed D1 does (worker/db/client.ts).
            D1_BIND_CHECK: "1",
          },
        },
      })),
    ],
    // The console's modules import each other as "~/..." (unit tests read some of them).
    resolve: { alias: { "~": new URL("./app", import.meta.url).pathname } },
    test: {
      include: ["tests/api/**/*.test.ts", "tests/unit/**/*.test.ts"],
      // Some tests make a hundred requests or more; on a busy two-core machine (the browser
      // tests' build beside them) vitest's default 5 s cuts them off. Not a speed check.
      testTimeout: 30_000,
      globalSetup: ["./tests/global-setup.ts"],
      setupFiles: ["./tests/support/apply-migrations.ts"],
    },
  };
});
