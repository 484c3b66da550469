import { expect, type APIRequestContext, type Page, type Request } from "@playwright/test";
import { delivery, inboundMessage, signPayload, type Change } from "../fakes/whatsapp-payloads.mjs";
import { E2E_SETTINGS, ORGANIZATION } from "./settings.mjs";

export const uniqueEmail = (prefix = "e2e") =>
  `${prefix}-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

export { ORGANIZATION };

/** A signed-in owner (token in localStorage) with an organization and, optionally, a connected number. */
export async function signedInOwner(page: Page, options: { connect?: boolean } = {}) {
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
        business_account_id: "waba-e2e",
        access_token: "sandbox-access-token",
      },
    });
    expect(connected.status()).toBe(201);
  }
  await page.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  return { token, headers, phoneNumberId };
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

/** Counts the page's requests whose path is `path`, and how many are still on their way. */
export function countRequests(page: Page, path: string) {
  const matches = (url: string) => new URL(url).pathname === path;
  const counter = { sent: 0, inFlight: 0 };
  page.on("request", (request) => {
    if (!matches(request.url())) return;
    counter.sent += 1;
    counter.inFlight += 1;
  });
  const settled = (request: Request) => {
    if (matches(request.url())) counter.inFlight -= 1;
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
] as const;
