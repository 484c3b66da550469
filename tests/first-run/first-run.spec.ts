// A newcomer's first run: `npm run dev` from a cold cache (scripts/first-run-server.mjs), tried
// as a new user would. Vite must know the console's dependencies before the first page: a
// dependency found later reloads the page ("optimized dependencies changed"), and a form
// reloaded before hydration used to be sent natively as a GET with the password in the URL.
import { expect, test, type Page } from "@playwright/test";
import { CONSOLE_SCREENS, countRequests, productErrors } from "../e2e/support";

const email = `nuevo-${Date.now()}@example.com`;
const password = "secreto-de-prueba-1";

/**
 * What must not happen on a first run: the product's errors (a hydration mismatch among them),
 * reloads, 504s, a secret in a URL.
 */
function watch(page: Page) {
  const problems = productErrors(page);
  let loads = 0;
  page.on("console", (message) => {
    if (/optimized dependencies changed|Failed to fetch dynamically imported/i.test(message.text()))
      problems.push(`console: ${message.text()}`);
  });
  page.on("response", (response) => {
    if (response.status() === 504) problems.push(`504 ${response.url()}`);
  });
  page.on("load", () => (loads += 1));
  const api = countRequests(page, (pathname) => pathname.startsWith("/api/"));
  page.on("framenavigated", (frame) => {
    if (frame === page.mainFrame() && /password|secreto/i.test(frame.url()))
      problems.push(`secret in the address: ${frame.url()}`);
  });
  return {
    problems,
    loads: () => loads,
    /** How long no API request has been in flight (0 while one is). */
    apiQuietFor: () => (api.inFlight > 0 ? 0 : Date.now() - api.movedAt),
  };
}

test("register, onboard, log out, log in and open every screen with no reload or page error", async ({
  page,
}) => {
  const seen = watch(page);
  await page.goto("/auth");
  await page.getByRole("button", { name: "Regístrate" }).click();
  await page.getByLabel("Nombre completo").fill("Nuria Nueva");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Contraseña").fill(password);
  await page.getByRole("button", { name: "Crear cuenta" }).click();

  await expect(page.getByRole("heading", { name: "Configura tu organización" })).toBeVisible();
  await page.getByLabel("Nombre de la organización").fill("Primera Tienda");
  await page.getByLabel("Sector").fill("Moda");
  await page.getByRole("button", { name: "Siguiente" }).click();
  await page.getByLabel("Ciudad").fill("Sevilla");
  await page.getByLabel("País").fill("España");
  await page.getByLabel("Número de empleados").selectOption("1-10");
  await page.getByRole("button", { name: "Siguiente" }).click();
  await page.getByLabel("Servicios que ofreces").fill("Ropa y complementos");
  await page.getByLabel("Horario de atención").fill("L-S 10:00-20:00");
  await page.getByLabel("¿Para qué usarás la IA?").fill("Responder dudas de tallas");
  await page.getByRole("button", { name: "Crear organización" }).click();
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();

  await page.getByRole("button", { name: "Cerrar sesión" }).click();
  await expect(page.getByRole("heading", { name: "Iniciar Sesión" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Contraseña").fill(password);
  await page.getByRole("button", { name: "Iniciar Sesión" }).click();
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();

  const nav = page.getByRole("navigation", { name: "Principal" });
  for (const [link, heading] of [
    ["Conversaciones", "Conversaciones"],
    ["Agentes", "Gestión de Agentes"],
    ["Analytics", "Tracking & Analytics"],
    ["Configuración", "Configuración"],
    ["Dashboard", "Dashboard"],
  ] as const) {
    await nav.getByRole("link", { name: link, exact: true }).click();
    await expect(page.getByRole("heading", { name: heading, exact: true })).toBeVisible();
    await expect(page.getByRole("alert")).toHaveCount(0);
  }
  // Still the same session on the same page load: never sent back to the login screen.
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(seen.problems).toEqual([]);
  expect(seen.loads()).toBe(1);

  // A reload, a link or a bookmark: every screen loaded by its address hydrates cleanly.
  for (const [path, heading] of CONSOLE_SCREENS) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
  }
  expect(seen.problems).toEqual([]);

  // The session ended elsewhere: under the dev server too the console signs out (the hub's
  // `session_ended` notice passes the dev proxy, which drops close frames: docs/security.md).
  // The screen reads its data again once its socket opens; a request still in flight when the
  // session ends would be refused first (a 401, said as "ha expirado"), so the session ends
  // once the page is quiet and the socket is what tells.
  await expect(page.getByText("Tiempo Real").first()).toBeVisible();
  await expect.poll(seen.apiQuietFor).toBeGreaterThan(500);
  const token = await page.evaluate(() => localStorage.getItem("auth_token"));
  await page.request.post("/api/v1/auth/logout", { headers: { Authorization: `Bearer ${token}` } });
  await expect(
    page.getByText("Tu sesión se ha cerrado. Por favor, inicia sesión nuevamente."),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
});
