import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

// API and Worker tests run inside workerd (miniflare) against a real local D1 and real
// Durable Objects; each test file starts with an empty database with every migration applied.
export default defineConfig(async () => {
  const migrations = await readD1Migrations("./migrations");
  return {
    plugins: [
      cloudflareTest({
        // The Worker without the React Router build (pages are covered by the browser tests).
        main: "./tests/support/test-worker.ts",
        wrangler: { configPath: "./wrangler.toml" },
        miniflare: {
          bindings: {
            TEST_MIGRATIONS: migrations,
            JWT_SECRET: "test-jwt-secret-0123456789abcdef0123456789",
            ENCRYPTION_KEY: "dGVzdC1lbmNyeXB0aW9uLWtleS0zMi1ieXRlcy0hISE=",
            PUBLIC_APP_URL: "http://localhost:5173",
          },
        },
      }),
    ],
    test: {
      include: ["tests/api/**/*.test.ts"],
      setupFiles: ["./tests/support/apply-migrations.ts"],
    },
  };
});
