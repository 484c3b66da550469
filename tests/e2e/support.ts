import AxeBuilder from "@axe-core/playwright";
import {
  expect,
  type APIRequestContext,
  type Browser,
  type Page,
  type Request,
  type WebSocketRoute,
} from "@playwright/test";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { delivery, inboundMessage, signPayload, type Change } from "../fakes/whatsapp-payloads.mjs";
import { E2E_SETTINGS, ORGANIZATION } from "./settings.mjs";

export const uniqueEmail = (prefix = "e2e") =>
  `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

export { ORGANIZATION };

/** A signed-in owner (token in localStorage) with an organization and, optionally, a connected number. */
export async function signedInOwner(
  page: Page,
  options: { connect?: boolean; businessAccountId?: string } = {},
) {
  const request = page.request;
  const register = await request.post("/api/v1/auth/register", {
    data: { email: uniqueEmail(), password: "secreto123", full_name: "Marta Ruiz" },
  });
  const token: string = (await register.json()).data.token;
  const headers = { Authorization: `Bearer ${token}` };
  expect(
    (await request.post("/api/v1/organizations", { headers, data: ORGANIZATION })).status(),
  ).toBe(201);
  const phoneNumberId = `${Date.now()}${Math.floor(Math.random() * 1000)}`;
  if (options.connect) {
    const connected = await request.post("/api/v1/whatsapp-config", {
      headers,
      data: {
        phone_number_id: phoneNumberId,
        business_account_id: options.businessAccountId ?? "waba-e2e",
        access_token: "sandbox-access-token",
      },
    });
    expect(connected.status()).toBe(201);
  }
  await page.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  return { token, headers, phoneNumberId };
}

/**
 * A member with the agent role in the owner's organization, signed in on a browser context of
 * their own (close it at the end).
 */
export async function signedInAgent(
  page: Page,
  browser: Browser,
  ownerHeaders: Record<string, string>,
) {
  const email = uniqueEmail("agente");
  const invited = await page.request.post("/api/v1/organizations/invitations", {
    headers: ownerHeaders,
    data: { email, role: "agent" },
  });
  expect(invited.status()).toBe(201);
  const invitation = new URL((await invited.json()).data.url).searchParams.get("invitation");
  const registered = await page.request.post("/api/v1/auth/register", {
    data: { email, password: "secreto123", full_name: "Pedro Sanz" },
  });
  const token: string = (await registered.json()).data.token;
  const accepted = await page.request.post("/api/v1/organizations/invitations/accept", {
    headers: { Authorization: `Bearer ${token}` },
    data: { token: invitation },
  });
  expect(accepted.status()).toBe(200);
  const context = await browser.newContext();
  await context.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  return { context, page: await context.newPage() };
}

/**
 * An owner whose number is the fake Meta's own account, so its templates (`bienvenida`,
 * marketing; `seguimiento_cita`, utility) can be chosen (Difusiones, Seguimientos).
 */
export async function ownerWithTemplates(page: Page) {
  const owner = await signedInOwner(page);
  const connected = await page.request.post("/api/v1/whatsapp-config", {
    headers: owner.headers,
    data: {
      phone_number_id: owner.phoneNumberId,
      business_account_id: GRAPH_FIXTURES.wabaId,
      access_token: "sandbox-access-token",
    },
  });
  expect(connected.status()).toBe(201);
  // The account's templates are read from Meta (and kept) when listed.
  const templates = await page.request.get("/api/v1/whatsapp-config/templates", {
    headers: owner.headers,
  });
  expect(templates.status()).toBe(200);
  return owner;
}

/** Where the toasts are: they come and go while a screen settles, so they are checked apart. */
export const TOASTS = "[data-sonner-toaster]";

/**
 * No serious or critical WCAG 2.1 A and AA violation (axe-core) on the screen, toasts left out,
 * or only inside `only` (a selector).
 */
export async function expectAccessible(page: Page, screen: string, only?: string) {
  // Colours are measured at rest: a button enabled at hydration fades from its disabled
  // colour (transition-colors), and axe reading it halfway saw a contrast it never keeps.
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => !(a instanceof CSSTransition) || a.playState !== "running"),
  );
  const builder = new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]);
  const { violations } = await (only ? builder.include(only) : builder.exclude(TOASTS)).analyze();
  const serious = violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      rule: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.slice(0, 3).map((n) => `${n.target.join(" ")}: ${n.failureSummary ?? ""}`),
    }));
  expect(serious, `${screen}: ${JSON.stringify(serious, null, 2)}`).toEqual([]);
}

/** Posts a signed delivery to the webhook, as Meta does. */
export async function deliver(request: APIRequestContext, ...changes: Change[]) {
  const raw = JSON.stringify(delivery(...changes));
  const response = await request.post("/webhooks/whatsapp", {
    headers: {
      "Content-Type": "application/json",
      "X-Hub-Signature-256": await signPayload(raw, E2E_SETTINGS.appSecret),
    },
    data: raw,
  });
  expect(response.status()).toBe(200);
}

export function customerMessage(phoneNumberId: string, from: string, text: string, name?: string) {
  return inboundMessage({ phoneNumberId, from, text, name });
}

/**
 * Counts the page's requests whose path is `path` (or passes it, a test of the path), how many
 * are still on their way, and when the last one began or ended (`movedAt`, ms since the epoch).
 */
export function countRequests(page: Page, path: string | ((pathname: string) => boolean)) {
  const matches = (url: string) => {
    const { pathname } = new URL(url);
    return typeof path === "string" ? pathname === path : path(pathname);
  };
  const counter = { sent: 0, inFlight: 0, movedAt: Date.now() };
  page.on("request", (request) => {
    if (!matches(request.url())) return;
    counter.sent += 1;
    counter.inFlight += 1;
    counter.movedAt = Date.now();
  });
  const settled = (request: Request) => {
    if (!matches(request.url())) return;
    counter.inFlight -= 1;
    counter.movedAt = Date.now();
  };
  page.on("requestfinished", settled);
  page.on("requestfailed", settled);
  return counter;
}

/**
 * The product's own errors on a page: uncaught exceptions, hydration mismatches and anything the
 * console logs as an error, with the address that logged it. Left out: Facebook's SDK, a
 * third-party script these machines cannot reach, and the browser's network log of the API's
 * 4xx answers the contract defines and the console handles (`GET /meta-config` is 404 before a
 * pixel is connected); a 5xx still counts.
 */
export function productErrors(page: Page) {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(`${page.url()}: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() !== "error") return;
    const source = message.location().url;
    if (source.startsWith("https://connect.facebook.net/")) return;
    if (source.includes("/api/v1/") && /status of 4\d\d /.test(message.text())) return;
    errors.push(`${page.url()} (${source}): ${message.text()}`);
  });
  return errors;
}

/** Every console screen a signed-in member can load by its address, and its heading. */
export const CONSOLE_SCREENS = [
  ["/dashboard", "Dashboard"],
  ["/conversations", "Conversaciones"],
  ["/agents", "Gestión de Agentes"],
  ["/agents/knowledge", "Conocimiento"],
  ["/tracking", "Tracking & Analytics"],
  ["/settings", "Configuración"],
  ["/settings/organization", "Configuración de Organización"],
  ["/settings/user", "Configuración de Usuario"],
  ["/mentions", "Menciones"],
  ["/broadcasts", "Difusiones"],
  ["/follow-ups", "Seguimientos"],
  ["/agenda", "Agenda"],
] as const;

/**
 * Routes the console's realtime socket through the test (call before the page loads): `drop`
 * closes the open one on both sides, as a restarting hub does (1011), or with the server's own
 * code (4001, a revoked session), and the console then opens a new one if it should. `opened`
 * counts the sockets the console opened. While `open` is false each new one is refused (closed
 * at once, never opened, counted in `refused`), as a hub still restarting.
 */
export async function droppableSocket(page: Page) {
  let current: { page: WebSocketRoute; server: WebSocketRoute } | null = null;
  const control = {
    opened: 0,
    open: true,
    refused: 0,
    async drop(code = 1011, reason = "Hub reiniciado") {
      await current!.server.close();
      await current!.page.close({ code, reason });
    },
  };
  await page.routeWebSocket(/\/ws/, (socket) => {
    if (!control.open) {
      control.refused += 1;
      return socket.close({ code: 1011, reason: "Hub reiniciándose" });
    }
    control.opened += 1;
    current = { page: socket, server: socket.connectToServer() };
  });
  return control;
}
