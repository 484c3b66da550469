// The console as a person meets it, in Debian's Chromium against the production build:
// how long the inbox takes to show its first row and a conversation its messages (each as a
// ratio to the landing page's first paint, measured in the same browser and run), how many
// API round trips follow one another before the inbox shows, and how many list requests a
// burst of realtime messages causes.
/* global document, performance, localStorage, PerformanceObserver, MutationObserver, window -- run in the page by Playwright */
import { createHmac } from "node:crypto";
import { chromium } from "@playwright/test";
import { CHROMIUM } from "../chromium.mjs";
import { delivery, inboundMessage } from "../../tests/fakes/whatsapp-payloads.mjs";

const RUNS = 5;
const FIRST_ROW = 'ul[aria-label="Conversaciones"] li a';
const FIRST_MESSAGE = '[aria-label="Mensajes"] li';

/** @param {number[]} values */
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? null;

/**
 * The page's time (ms since its navigation started) at which `selector` is first in the DOM,
 * checked on every animation frame.
 * @param {import("@playwright/test").Page} page @param {string} selector
 */
async function shownAt(page, selector) {
  const handle = await page.waitForFunction(
    (s) => (document.querySelector(s) ? performance.now() : 0),
    selector,
    { polling: "raf", timeout: 60_000 },
  );
  return /** @type {number} */ (await handle.jsonValue());
}

/**
 * Records, in the page, when `selector` first enters the DOM (a mutation observer runs before
 * any later task, so before any answer that arrives after it).
 * @param {string} selector
 */
function recordFirstRowInserted(selector) {
  const observer = new MutationObserver(() => {
    if (!document.querySelector(selector)) return;
    /** @type {any} */ (window).__firstRowInsertedAt = performance.now();
    observer.disconnect();
  });
  observer.observe(document, { childList: true, subtree: true });
}

/**
 * The longest chain of API requests each sent after the previous one answered: the round
 * trips a person waits through one after another.
 * @param {{ start: number, end: number }[]} requests
 */
function sequentialRoundTrips(requests) {
  const sorted = [...requests].sort((a, b) => a.start - b.start);
  /** @type {number[]} */
  const depth = [];
  sorted.forEach((r, i) => {
    const before = sorted.slice(0, i).map((q, j) => (q.end <= r.start ? (depth[j] ?? 0) : 0));
    depth[i] = 1 + Math.max(0, ...before);
  });
  return Math.max(0, ...depth);
}

/**
 * @param {import("@playwright/test").Browser} browser @param {string} base @param {string} token
 */
async function inboxRun(browser, base, token) {
  const context = await browser.newContext({ locale: "es-ES" });
  await context.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  await context.addInitScript(recordFirstRowInserted, FIRST_ROW);
  const page = await context.newPage();
  /** @type {import("@playwright/test").Request[]} */
  const apiRequests = [];
  page.on("request", (r) => {
    if (new URL(r.url()).pathname.startsWith("/api/v1/")) apiRequests.push(r);
  });
  await page.goto(`${base}/conversations`, { waitUntil: "commit" });
  const firstRow = await shownAt(page, FIRST_ROW);
  const { timeOrigin, insertedAt } = await page.evaluate(() => ({
    timeOrigin: performance.timeOrigin,
    insertedAt: /** @type {any} */ (window).__firstRowInsertedAt ?? Infinity,
  }));
  const answered = [];
  for (const r of apiRequests) {
    const response = await r.response();
    if (!response) continue;
    await response.finished();
    const t = r.timing();
    const start = t.startTime - timeOrigin;
    const end = start + t.responseEnd;
    // A request sent once the row was in the page did not hold it up, even if it answered
    // before the next frame painted it.
    if (end <= firstRow && start < insertedAt) {
      answered.push({ start, end, path: new URL(r.url()).pathname });
    }
  }
  const clickedAt = await page.evaluate(() => performance.now());
  await page.locator(FIRST_ROW).first().click();
  const messages = (await shownAt(page, FIRST_MESSAGE)) - clickedAt;
  await context.close();
  return { firstRow, messages, roundTrips: sequentialRoundTrips(answered), requests: answered };
}

/** @param {import("@playwright/test").Browser} browser @param {string} base */
async function landingPaint(browser, base) {
  const context = await browser.newContext({ locale: "es-ES" });
  const page = await context.newPage();
  await page.goto(`${base}/`);
  const fcp = await page.evaluate(
    () =>
      new Promise((resolve) =>
        new PerformanceObserver((list) => {
          const entry = list.getEntries().find((e) => e.name === "first-contentful-paint");
          if (entry) resolve(entry.startTime);
        }).observe({ type: "paint", buffered: true }),
      ),
  );
  await context.close();
  return /** @type {number} */ (fcp);
}

/**
 * 50 customer messages in one second, from the connected number's customers, while a person
 * watches the inbox: the list requests they cause.
 * @param {import("@playwright/test").Browser} browser
 * @param {{ base: string, token: string, appSecret: string, phoneNumberId: string }} live
 */
async function realtimeBurst(browser, { base, token, appSecret, phoneNumberId }) {
  const context = await browser.newContext({ locale: "es-ES" });
  await context.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  await context.addInitScript(recordFirstRowInserted, FIRST_ROW);
  const page = await context.newPage();
  let listRequests = 0;
  page.on("request", (r) => {
    if (new URL(r.url()).pathname === "/api/v1/conversations") listRequests += 1;
  });
  await page.goto(`${base}/conversations`);
  await shownAt(page, FIRST_ROW);
  // The sidebar says the socket is open (the toast is only for a connection that came back).
  await page.getByText("Tiempo Real", { exact: true }).first().waitFor();
  await page.waitForTimeout(2_000); // the socket's own reload, and its window, are over
  const before = listRequests;
  const started = Date.now();
  const posts = [];
  for (let i = 0; i < 50; i++) {
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, started + i * 20 - Date.now())));
    const raw = JSON.stringify(
      delivery(
        inboundMessage({
          phoneNumberId,
          from: String(34690000000 + (i % 25)),
          text: `Ráfaga ${i}`,
          id: `wamid.BURST${started}${i}`,
        }),
      ),
    );
    const signature = `sha256=${createHmac("sha256", appSecret).update(raw).digest("hex")}`;
    posts.push(
      fetch(`${base}/webhooks/whatsapp`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-hub-signature-256": signature },
        body: raw,
      }),
    );
  }
  await Promise.all(posts);
  const sentInMs = Date.now() - started;
  await page.waitForTimeout(4_000);
  await context.close();
  return { listRequests: listRequests - before, sentInMs };
}

/**
 * @param {{ base: string, inboxToken: string, live: { token: string, appSecret: string,
 *   phoneNumberId: string } }} options
 */
export async function consoleBench({ base, inboxToken, live }) {
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--disable-gpu", "--disable-background-networking", "--no-first-run"],
  });
  try {
    const landing = [];
    const inbox = [];
    for (let i = 0; i < RUNS; i++) {
      landing.push(await landingPaint(browser, base));
      inbox.push(await inboxRun(browser, base, inboxToken));
    }
    const burst = await realtimeBurst(browser, { base, ...live });
    const landingMs = median(landing) ?? NaN;
    const firstRowMs = median(inbox.map((r) => r.firstRow)) ?? NaN;
    const messagesMs = median(inbox.map((r) => r.messages)) ?? NaN;
    return {
      runs: RUNS,
      landingFirstPaintMs: landingMs,
      inboxFirstRowMs: firstRowMs,
      inboxRatio: firstRowMs / landingMs,
      openConversationMs: messagesMs,
      openRatio: messagesMs / landingMs,
      roundTrips: Math.max(...inbox.map((r) => r.roundTrips)),
      // The requests of the run with the longest chain: what to read when it grows.
      requestsBeforeInbox: inbox.reduce((a, b) => (b.roundTrips > a.roundTrips ? b : a)).requests,
      burst,
    };
  } finally {
    await browser.close();
  }
}
