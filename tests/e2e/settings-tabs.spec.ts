// Configuración keeps its tab in the URL (reload and Back return to it), reads every tab's data
// at once (a tab switch asks the API for nothing), a tab that cannot load leaves the others, and
// the tabs that show the WhatsApp number follow its status live, and catch up on a change made
// while the socket was down.
import { expect, test, type Page } from "@playwright/test";
import { accountUpdate } from "../fakes/whatsapp-payloads.mjs";
import { countRequests, deliver, droppableSocket, signedInOwner } from "./support";

const tab = (page: Page, name: string) => page.getByRole("tab", { name });

/** A business account of the test's own, so that its webhooks reach only its organization. */
const uniqueWabaId = () => `waba-tabs-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;

/** The Tracking tab's WhatsApp status, once it shows "connected" and realtime is on. */
async function liveNumberStatus(page: Page) {
  const number = page
    .getByRole("region", { name: "Estado de Meta" })
    .getByRole("listitem")
    .filter({ hasText: "Número de WhatsApp" })
    .locator("[data-status]");
  await expect(number).toHaveAttribute("data-status", "connected");
  await expect(page.getByText("Tiempo Real", { exact: true })).toBeVisible();
  return number;
}

/** Every API request the page makes from now on. */
function apiRequests(page: Page) {
  const seen: string[] = [];
  page.on("request", (request) => {
    const { pathname } = new URL(request.url());
    if (pathname.startsWith("/api/v1/")) seen.push(pathname);
  });
  return seen;
}

test("the settings tab survives a reload and Back, and switching tabs loads nothing", async ({
  page,
}) => {
  await signedInOwner(page);
  await page.goto("/settings");
  await expect(tab(page, "Meta Business")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("heading", { name: "Conexión con Meta Business" })).toBeVisible();
  // The socket's first opening reads again what it may have missed since the page loaded (the
  // disconnection notice's check): that is the screen's load, not the tabs'.
  await expect(page.getByText("Tiempo Real", { exact: true })).toBeVisible();

  const requests = apiRequests(page);
  await tab(page, "Organización").click();
  await expect(page).toHaveURL(/\/settings\?tab=organizacion$/);
  await expect(page.getByRole("list", { name: "Miembros del equipo" })).toContainText(
    "Marta Ruiz (tú)",
  );
  await tab(page, "Tracking").click();
  await expect(page).toHaveURL(/\/settings\?tab=tracking$/);
  await expect(page.getByRole("heading", { name: "Estado de Meta" })).toBeVisible();
  expect(requests).toEqual([]);

  await page.goBack();
  await expect(page).toHaveURL(/\/settings\?tab=organizacion$/);
  await expect(tab(page, "Organización")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("heading", { name: "Respuestas rápidas" })).toBeVisible();

  await page.reload();
  await expect(tab(page, "Organización")).toHaveAttribute("aria-selected", "true");
  await expect(page.getByRole("list", { name: "Miembros del equipo" })).toContainText(
    "Marta Ruiz (tú)",
  );
});

test("a tab whose data fails shows why with Reintentar, and the other tabs still work", async ({
  page,
}) => {
  await signedInOwner(page);
  // The Meta app's configuration cannot be read once; the retry reads it again.
  let failures = 1;
  await page.route("**/api/v1/whatsapp/oauth/app-config", (route) =>
    failures-- > 0
      ? route.fulfill({
          status: 503,
          contentType: "application/json",
          body: JSON.stringify({ error: "unavailable", message: "Servicio no disponible" }),
        })
      : route.continue(),
  );
  await page.goto("/settings");
  const alert = page.getByRole("alert").filter({ hasText: "Error al cargar las configuraciones" });
  await expect(alert).toContainText("Servicio no disponible");

  await tab(page, "Organización").click();
  await expect(page.getByRole("list", { name: "Miembros del equipo" })).toContainText(
    "Marta Ruiz (tú)",
  );

  await tab(page, "Meta Business").click();
  await alert.getByRole("button", { name: "Reintentar" }).click();
  await expect(page.getByRole("heading", { name: "Conexión con Meta Business" })).toBeVisible();
  await expect(alert).toHaveCount(0);
});

test("Tracking and Agenda y cobros follow the number Meta disconnects and reconnects, with no new read", async ({
  page,
}) => {
  const wabaId = uniqueWabaId();
  await signedInOwner(page, { connect: true, businessAccountId: wabaId });
  // Only the tabs' loader reads this (for Tracking): it says whether the tabs were read again.
  const tabReads = countRequests(page, "/api/v1/whatsapp/oauth/status");
  await page.goto("/settings?tab=tracking");
  const number = await liveNumberStatus(page);
  await expect.poll(() => tabReads.inFlight).toBe(0);
  const readsBefore = tabReads.sent;

  // Meta removed the account from the partner: the open Tracking tab shows it at once...
  await deliver(page.request, accountUpdate({ wabaId, phoneNumber: null }));
  await expect(number).toHaveAttribute("data-status", "disconnected");
  // ...and so does Agenda y cobros: no Flow to publish without a connected number.
  await tab(page, "Agenda y cobros").click();
  const flow = page.getByRole("region", { name: "Formulario de reservas de WhatsApp" });
  await expect(
    flow.getByText("Conecta un número de WhatsApp para publicar el formulario."),
  ).toBeVisible();
  await expect(flow.getByRole("button", { name: /publicar/ })).toHaveCount(0);

  // Meta gives the number back: the open tab offers the Flow again, and Tracking says so.
  await deliver(page.request, accountUpdate({ wabaId, event: "ACCOUNT_RECONNECTED" }));
  await expect(flow.getByRole("button", { name: /publicar/ })).toBeVisible();
  await expect(flow.getByText("Conecta un número de WhatsApp", { exact: false })).toHaveCount(0);
  await tab(page, "Tracking").click();
  await expect(number).toHaveAttribute("data-status", "connected");
  expect(tabReads.sent).toBe(readsBefore);
});

test("a number Meta disconnects while the socket is down shows on the open tab once the console is back", async ({
  page,
}) => {
  const wabaId = uniqueWabaId();
  const socket = await droppableSocket(page);
  await signedInOwner(page, { connect: true, businessAccountId: wabaId });
  await page.goto("/settings?tab=tracking");
  const number = await liveNumberStatus(page);

  // The hub restarts, and Meta removes the account while the console cannot hear it.
  socket.open = false;
  await socket.drop();
  await expect(page.getByText("Desconectado", { exact: true })).toBeVisible();
  await deliver(page.request, accountUpdate({ wabaId, phoneNumber: null }));
  await expect.poll(() => socket.refused).toBeGreaterThan(0);
  await expect(number).toHaveAttribute("data-status", "connected");

  // Back: the tab says what happened meanwhile, without a reload.
  socket.open = true;
  await expect(page.getByText("Tiempo Real", { exact: true })).toBeVisible();
  await expect(number).toHaveAttribute("data-status", "disconnected");
});
