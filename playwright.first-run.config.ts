import { defineConfig, devices } from "@playwright/test";
import base from "./playwright.config";

const PORT = Number(process.env.FIRST_RUN_PORT ?? 4321);

// The first run of a newcomer: the development server (`npm run dev`) from a cold Vite cache
// and an empty local D1, not the production build the other browser tests use.
export default defineConfig({
  testDir: "tests/first-run",
  workers: 1,
  retries: 0,
  // Vite optimizes the console's dependencies on the first request: minutes on a busy machine.
  timeout: 240_000,
  expect: { timeout: 60_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/first-run.json" }]],
  use: {
    ...base.use,
    baseURL: `http://localhost:${PORT}`,
    ...devices["Desktop Chrome"],
    channel: undefined,
  },
  webServer: {
    command: `node scripts/first-run-server.mjs ${PORT}`,
    url: `http://localhost:${PORT}/auth`,
    timeout: 240_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
  },
});
