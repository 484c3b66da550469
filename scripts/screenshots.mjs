// Screenshots of the conversation screens, for comparing the next change by eye:
//   npm run screenshots
// Builds the app and serves it with the browser tests' local fakes (scripts/e2e-server.mjs, on
// a port and a database of its own), fills an organization with a dozen customers as the
// sandbox would, books three of them for tomorrow, and writes
// docs/screenshots/{inbox,conversation,conversation-details,agenda}-{1440,390}.png: the list, a
// conversation, its details with its booking, and the Agenda's day, at a laptop's size
// (1440×900) and a phone's (390×844).
// The functions given to the browser (page.evaluate, init scripts) run in the page:
/* global document, localStorage */
import { spawn } from "node:child_process";
import { mkdirSync } from "node:fs";
import { delimiter, resolve } from "node:path";
import { chromium } from "@playwright/test";
import { CHROMIUM, ensureChromium } from "./chromium.mjs";

const PORT = Number(process.env.SCREENSHOTS_PORT ?? 4417);
// The fakes' ports follow the app's (tests/e2e/settings.mjs reads E2E_PORT).
process.env.E2E_PORT = String(PORT);
const { E2E_SETTINGS, ORGANIZATION } = await import("../tests/e2e/settings.mjs");
const { delivery, inboundMessage, signPayload } =
  await import("../tests/fakes/whatsapp-payloads.mjs");

const APP = `http://localhost:${PORT}`;
const OUT = "docs/screenshots";
const SIZES = {
  1440: { width: 1440, height: 900 },
  390: { width: 390, height: 844 },
};

/**
 * A dozen customers, newest last: name, phone, and what they wrote.
 * @type {[name: string, phone: string, texts: string[]][]}
 */
const CUSTOMERS = [
  ["Lucía Pérez", "34611000101", ["Hola, ¿tenéis cita para una limpieza esta semana?"]],
  ["Pedro Gil", "34611000102", ["¿Cuánto cuesta la ortodoncia invisible?"]],
  ["Irene Sanz", "34611000103", ["Quería cambiar mi cita del jueves"]],
  ["Jon Ugarte", "34611000104", ["¿Abrís el sábado por la mañana?"]],
  ["Ane Etxeberria", "34611000105", ["Gracias, nos vemos el lunes"]],
  ["Beñat Arana", "34611000106", ["¿Aceptáis el seguro de Sanitas?"]],
  ["Elena Martín", "34611000107", ["Me duele una muela desde ayer"]],
  ["Tomás Vidal", "34611000108", ["¿Podéis enviarme el presupuesto por aquí?"]],
  ["Sara Núñez", "34611000109", ["Vi vuestro anuncio del blanqueamiento"]],
  ["Iván Ortega", "34611000110", ["¿Hay parking cerca de la clínica?"]],
  ["Rosa Flores", "34611000111", ["Perfecto, allí estaré"]],
  [
    "Ana Ruiz",
    "34611000112",
    [
      "Hola, buenas tardes",
      "Quería pedir cita para una revisión y una limpieza",
      "Mejor por la tarde, salgo de trabajar a las 17:00",
    ],
  ],
];

/** @param {string} command @param {string[]} args */
const run = (command, args) =>
  spawn(command, args, {
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      PATH: `${resolve("node_modules/.bin")}${delimiter}${process.env.PATH}`,
    },
  });

/** @param {import("node:child_process").ChildProcess} server */
async function waitForApp(server) {
  for (let i = 0; i < 300; i += 1) {
    if (server.exitCode !== null) throw new Error("El servidor de pruebas se detuvo al arrancar.");
    try {
      if ((await fetch(`${APP}/`)).ok) return;
    } catch {
      // Not up yet.
    }
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${APP} no respondió en 5 minutos.`);
}

/**
 * @param {string} method @param {string} path @param {string | undefined} token
 * @param {unknown} [body]
 */
async function api(method, path, token, body) {
  const response = await fetch(`${APP}/api/v1${path}`, {
    method,
    headers: {
      "Content-Type": "application/json",
      ...(token && { Authorization: `Bearer ${token}` }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok)
    throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()).data;
}

/** @param {...ReturnType<typeof inboundMessage>} changes */
async function deliver(...changes) {
  const raw = JSON.stringify(delivery(...changes));
  const response = await fetch(`${APP}/webhooks/whatsapp`, {
    method: "POST",
    headers: {
      "Content-Type": "application/json",
      "X-Hub-Signature-256": await signPayload(raw, E2E_SETTINGS.appSecret),
    },
    body: raw,
  });
  if (!response.ok) throw new Error(`webhook: ${response.status}`);
}

/** The organization the screenshots show: a clinic, its number, a dozen customers. */
async function seed() {
  const { token } = await api("POST", "/auth/register", undefined, {
    email: `capturas-${Date.now()}@example.com`,
    password: "secreto123",
    full_name: "Marta Ruiz",
  });
  await api("POST", "/organizations", token, ORGANIZATION);
  const phoneNumberId = `${Date.now()}`;
  await api("POST", "/whatsapp-config", token, {
    phone_number_id: phoneNumberId,
    business_account_id: "waba-capturas",
    access_token: "sandbox-access-token",
  });
  await api("POST", "/agents", token, {
    name: "Sofía",
    system_prompt: "Eres Sofía, la recepcionista.",
    is_active: false,
  });
  // Minutes apart, oldest first, as a morning's inbox.
  const start = Math.floor(Date.now() / 1000) - 60 * 60;
  let minute = 0;
  for (const [name, from, texts] of CUSTOMERS) {
    for (const text of texts) {
      minute += 4;
      const timestamp = String(start + minute * 60);
      await deliver(inboundMessage({ phoneNumberId, from, name, text, timestamp }));
    }
  }
  const { conversations } = await api("GET", "/conversations?limit=20", token);
  /** @param {string} name @returns {{ id: string }} */
  const named = (name) =>
    conversations.find((/** @type {{ contact_name: string }} */ c) => c.contact_name === name);
  const me = (await api("GET", "/auth/me", token)).user.id;
  const vip = await api("POST", "/labels", token, { name: "VIP", color: "#7c3aed" });
  const budget = await api("POST", "/labels", token, { name: "Presupuesto", color: "#0369a1" });
  await api("PATCH", `/conversations/${named("Pedro Gil").id}`, token, { stage: "lead" });
  await api("PUT", `/conversations/${named("Pedro Gil").id}/labels`, token, {
    label_ids: [budget.id],
  });
  await api("PATCH", `/conversations/${named("Elena Martín").id}`, token, { priority: "urgent" });
  await api("PATCH", `/conversations/${named("Sara Núñez").id}`, token, { assignee_id: me });
  await api("PUT", `/conversations/${named("Sara Núñez").id}/labels`, token, {
    label_ids: [vip.id],
  });
  const open = named("Ana Ruiz");
  await api("PATCH", `/conversations/${open.id}`, token, { assignee_id: me });
  await api("PUT", `/conversations/${open.id}/labels`, token, { label_ids: [vip.id] });
  await api("POST", "/conversations/messages", token, {
    conversation_id: open.id,
    content: "¡Hola Ana! Claro, ¿te va bien el martes a las 17:30?",
  });
  const day = await book(token, {
    Ana: open.id,
    Lucía: named("Lucía Pérez").id,
    Irene: named("Irene Sanz").id,
  });
  return { token, conversationId: open.id, day };
}

/**
 * The clinic's hours and two services, and tomorrow's bookings: Ana's review at 17:30, Lucía's
 * cleaning at 10:00 and Irene's at 12:00 (Madrid, in winter; an hour later in summer).
 * @param {string} token @param {{ Ana: string, Lucía: string, Irene: string }} customers
 * @returns {Promise<string>} tomorrow, as the Agenda's `date`
 */
async function book(token, customers) {
  const { organization } = await api("GET", "/auth/me", token);
  const week = Object.fromEntries(
    ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map((d) => [d, [["08:00", "20:00"]]]),
  );
  await api("PATCH", `/organizations/${organization.id}`, token, {
    business_hours: { time_zone: "Europe/Madrid", week, closed_dates: [] },
  });
  const cleaning = await api("POST", "/services", token, {
    name: "Limpieza dental",
    duration_minutes: 45,
    price: "50.00",
  });
  const review = await api("POST", "/services", token, { name: "Revisión", duration_minutes: 30 });
  const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
  for (const [conversation, service, hour] of [
    [customers.Lucía, cleaning, "09:00"],
    [customers.Irene, cleaning, "11:00"],
    [customers.Ana, review, "16:30"],
  ]) {
    await api("POST", "/bookings", token, {
      service_id: service.id,
      conversation_id: conversation,
      start: `${tomorrow}T${hour}:00.000Z`,
    });
  }
  return tomorrow;
}

/**
 * Waits for the screen to settle: live, no transition running.
 * @param {import("@playwright/test").Page} page
 */
async function settle(page) {
  await page.getByText("Tiempo Real", { exact: true }).first().waitFor({ state: "attached" });
  await page.waitForFunction(() =>
    document.getAnimations().every((a) => a.playState !== "running"),
  );
}

/**
 * @param {import("@playwright/test").Browser} browser @param {string} token
 * @param {string} conversationId @param {string} day the Agenda's day
 */
async function capture(browser, token, conversationId, day) {
  mkdirSync(OUT, { recursive: true });
  /** @type {string[]} */
  const written = [];
  for (const [size, viewport] of Object.entries(SIZES)) {
    const context = await browser.newContext({
      viewport,
      deviceScaleFactor: 1,
      locale: "es-ES",
      timezoneId: "Europe/Madrid",
      isMobile: size === "390",
      hasTouch: size === "390",
    });
    await context.addInitScript(
      (/** @type {string} */ t) => localStorage.setItem("auth_token", t),
      token,
    );
    const page = await context.newPage();
    // Toasts come and go: the screenshots show the screens without them.
    await page.addInitScript(() => {
      const style = document.createElement("style");
      style.textContent = "[data-sonner-toaster] { display: none !important; }";
      document.addEventListener("DOMContentLoaded", () => document.head.append(style));
    });
    const shot = async (/** @type {string} */ name) => {
      await settle(page);
      const path = `${OUT}/${name}-${size}.png`;
      await page.screenshot({ path });
      written.push(path);
    };

    await page.goto(`${APP}/conversations`);
    await page.getByRole("list", { name: "Conversaciones" }).getByText("Ana Ruiz").waitFor();
    await shot("inbox");

    await page.goto(`${APP}/conversations/${conversationId}`);
    await page
      .getByRole("list", { name: "Mensajes" })
      .getByText("¿te va bien el martes a las 17:30?")
      .waitFor();
    await shot("conversation");

    await page.getByRole("button", { name: "Detalles" }).click();
    await page.getByRole("heading", { name: "Ventas y origen" }).waitFor();
    // Its bookings ("Citas") show near the top of the details.
    await page.getByRole("list", { name: "Citas del cliente" }).getByText("Revisión").waitFor();
    await shot("conversation-details");

    await page.goto(`${APP}/agenda?date=${day}`);
    await page.getByRole("listitem").filter({ hasText: "Revisión" }).first().waitFor();
    await shot("agenda");
    await context.close();
  }
  return written;
}

if (!ensureChromium()) process.exit(1);
const server = run("node", ["scripts/e2e-server.mjs", String(PORT), ".wrangler/screenshots-state"]);
try {
  await waitForApp(server);
  const { token, conversationId, day } = await seed();
  const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--disable-gpu", "--no-first-run"],
  });
  try {
    const written = await capture(browser, token, conversationId, day);
    console.log(`Capturas escritas:\n${written.map((p) => `  · ${p}`).join("\n")}`);
  } finally {
    await browser.close();
  }
} finally {
  server.kill("SIGTERM");
}
