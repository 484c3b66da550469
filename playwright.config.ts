import { defineConfig, devices } from "@playwright/test";
import { E2E_SETTINGS } from "./tests/e2e/settings.mjs";

const PORT = E2E_SETTINGS.appPort;
const STATE_DIR = ".wrangler/e2e-state";

// Browser tests in Debian's Chromium against the production build, served by workerd
// (vite preview) on a fresh local D1 of their own.
export default defineConfig({
  testDir: "tests/e2e",
  fullyParallel: false,
  workers: 1,
  // No retries, in CI either: a retry turns a race into a pass (docs/decisions/0019).
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [["list"], ["json", { outputFile: "test-results/e2e.json" }]],
  use: {
    baseURL: `http://localhost:${PORT}`,
    locale: "es-ES",
    timezoneId: "Europe/Madrid",
    trace: "retain-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      args: [
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--no-first-run",
      ],
    },
  },
  projects: [
    {
      name: "desktop",
      use: { ...devices["Desktop Chrome"], channel: undefined },
      grepInvert: /@mobile/,
    },
    { name: "mobile", use: { ...devices["Pixel 7"], channel: undefined }, grep: /@mobile/ },
  ],
  webServer: {
    command: `node scripts/e2e-server.mjs ${PORT} ${STATE_DIR}`,
    url: `http://localhost:${PORT}/`,
    timeout: 300_000,
    reuseExistingServer: false,
    stdout: "ignore",
    stderr: "pipe",
  },
});
