// `npm test`: the workerd API tests (vitest), the browser tests (Playwright in Debian's
// Chromium) and the first-run test, ending with one line of totals: "N passed, N failed".
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { CHROMIUM, ensureChromium } from "./chromium.mjs";

/** @param {string} command @param {string[]} args @param {Record<string, string>} env */
function run(command, args, env = {}) {
  const result = spawnSync(command, args, { stdio: "inherit", env: { ...process.env, ...env } });
  return result.status ?? 1;
}

/** @param {string} path @returns {any} */
function readJson(path) {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return null;
  }
}

mkdirSync("test-results", { recursive: true });
let passed = 0;
let failed = 0;

// 1. API and Worker tests inside workerd.
const vitestStatus = run("vitest", [
  "run",
  "--reporter=default",
  "--reporter=json",
  "--outputFile.json=test-results/api.json",
]);
const api = readJson("test-results/api.json");
if (api) {
  passed += api.numPassedTests;
  failed += api.numFailedTests;
}
if (vitestStatus !== 0 && (!api || api.numFailedTests === 0)) failed += 1; // the runner itself failed

/** A Playwright run and its JSON report: the totals it adds. @param {string[]} args @param {string} report */
function browserTests(args, report) {
  const status = run("playwright", ["test", ...args], { CHROMIUM_PATH: CHROMIUM });
  const results = readJson(report);
  if (results) {
    // A test that passed only on a retry (`--retries` given by hand) failed once: it counts so.
    passed += results.stats.expected;
    failed += results.stats.unexpected + results.stats.flaky;
  }
  if (status !== 0 && (!results || results.stats.unexpected === 0)) failed += 1;
}

// 2. Browser tests against the production build, then a newcomer's first run: `npm run dev`
// from a cold Vite cache (playwright.first-run.config.ts).
if (ensureChromium()) {
  browserTests([], "test-results/e2e.json");
  browserTests(["--config", "playwright.first-run.config.ts"], "test-results/first-run.json");
} else {
  failed += 1;
}

console.log(`${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
