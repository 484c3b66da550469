import { expect, test, type Locator, type Page } from "@playwright/test";
import {
  customerMessage,
  deliver,
  droppableSocket,
  expectAccessible,
  signedInOwner,
  TOASTS,
} from "./support";

/**
 * Accessibility as a test: every screen is checked with axe-core against WCAG 2.1 A and AA,
 * and a serious or critical violation fails the run (issue 19). Toasts come and go while a
 * screen settles, and a fading one is paler than it stays: they are checked on their own, at
 * rest (below).
 */

test("public pages meet WCAG 2.1 AA", async ({ page }) => {
  for (const [path, ready] of [
    ["/", page.getByRole("heading", { level: 1 })],
    ["/auth", page.getByRole("button", { name: "Iniciar Sesión" }).last()],
    ["/terms-of-service", page.getByRole("heading", { level: 1 })],
    ["/privacy-policy", page.getByRole("heading", { level: 1 })],
    ["/no-existe", page.getByRole("heading", { level: 1 })],
  ] as const) {
    await page.goto(path);
    await expect(ready).toBeVisible();
    await expectAccessible(page, path);
  }
});

/** A signed-in owner with a connected number, an agent and one customer's conversation. */
async function consoleWithData(page: Page) {
  const { headers, phoneNumberId } = await signedInOwner(page, { connect: true });
  const agent = await page.request.post("/api/v1/agents", {
    headers,
    data: { name: "Sofía", system_prompt: "Atiende a los pacientes con amabilidad." },
  });
  const agentId: string = (await agent.json()).data.id;
  await deliver(page.request, customerMessage(phoneNumberId, "34611222333", "Hola, ¿tenéis cita?"));
  const list = await page.request.get("/api/v1/conversations", { headers });
  const conversationId: string = (await list.json()).data.conversations[0].id;
  return { agentId, conversationId };
}

/** WCAG's contrast ratio of two `rgb(r, g, b)` colours, as the browser computes them. */
function contrastRatio(foreground: string, background: string) {
  const luminance = (colour: string) => {
    const [r, g, b] = colour
      .match(/[\d.]+/g)!
      .slice(0, 3)
      .map((n) => Number(n) / 255);
    const linear = (c: number) => (c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * linear(r!) + 0.7152 * linear(g!) + 0.0722 * linear(b!);
  };
  const [light, dark] = [luminance(foreground), luminance(background)].sort((a, b) => b - a);
  return (light! + 0.05) / (dark! + 0.05);
}

/**
 * A toast at rest passes axe, and its text is measured too, not only left to axe (which may
 * call a toast's contrast "incomplete" and pass it).
 */
async function expectReadableToast(page: Page, toast: Locator, screen: string) {
  await expect(toast).toHaveCSS("opacity", "1");
  await expectAccessible(page, screen, TOASTS);
  const { color, backgroundColor } = await toast.evaluate((node) => getComputedStyle(node));
  expect(contrastRatio(color, backgroundColor), screen).toBeGreaterThanOrEqual(4.5);
}

test("a success toast meets WCAG 2.1 AA once it has appeared", async ({ page }) => {
  // "Conectado en tiempo real" shows when a lost connection comes back (not on a first load).
  const socket = await droppableSocket(page);
  await signedInOwner(page);
  await page.goto("/dashboard");
  await expect(page.getByText("Tiempo Real", { exact: true })).toBeVisible();
  await socket.drop();
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Conectado en tiempo real" });
  await expect(toast).toHaveAttribute("data-type", "success");
  // It shows for 3 s: held by the pointer (as a person reading it would) while axe reads it.
  await toast.hover();
  await expectReadableToast(page, toast, "toast de éxito");
});

test("an error toast meets WCAG 2.1 AA once it has appeared", async ({ page }) => {
  await page.goto("/auth");
  await page.getByLabel("Email").fill("nadie@example.com");
  await page.getByLabel("Contraseña").fill("incorrecta");
  await page.getByRole("button", { name: "Iniciar Sesión" }).last().click();
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: "Credenciales incorrectas" });
  await expect(toast).toHaveAttribute("data-type", "error");
  await expectReadableToast(page, toast, "toast de error");
});

// One test per screen: each has its own time, and a failure names its screen.
const CONSOLE_SCREENS: [
  string,
  (ids: { agentId: string; conversationId: string }) => string,
  (page: Page) => Locator,
][] = [
  ["dashboard", () => "/dashboard", (page) => page.getByRole("heading", { name: "Dashboard" })],
  ["inbox", () => "/conversations", (page) => page.getByText("Hola, ¿tenéis cita?").first()],
  [
    "conversation",
    ({ conversationId }) => `/conversations/${conversationId}`,
    (page) => page.getByText("Hola, ¿tenéis cita?").first(),
  ],
  ["agents", () => "/agents", (page) => page.getByText("Sofía").first()],
  [
    "knowledge",
    () => "/agents/knowledge",
    (page) => page.getByRole("heading", { name: "Conocimiento", level: 1 }),
  ],
  ["agent chats", ({ agentId }) => `/chats/${agentId}`, (page) => page.getByText("Sofía").first()],
  ["tracking", () => "/tracking", (page) => page.getByRole("tab").first()],
  ["settings", () => "/settings", (page) => page.getByRole("heading").first()],
  ["user settings", () => "/settings/user", (page) => page.getByRole("heading").first()],
  [
    "organization settings",
    () => "/settings/organization",
    (page) => page.getByRole("heading").first(),
  ],
  ["agenda", () => "/agenda", (page) => page.getByRole("heading", { name: "Agenda", level: 1 })],
];

for (const [name, path, ready] of CONSOLE_SCREENS) {
  test(`the ${name} screen meets WCAG 2.1 AA`, async ({ page }) => {
    const url = path(await consoleWithData(page));
    await page.goto(url);
    await expect(ready(page)).toBeVisible();
    await expectAccessible(page, url);
  });
}

// The conversation screen's parts that open on demand, at the two sizes people work it at.
test.describe("at 1440 px", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("the inbox's filters and a row's options meet WCAG 2.1 AA", async ({ page }) => {
    await consoleWithData(page);
    await page.goto("/conversations");
    await expect(page.getByText("Hola, ¿tenéis cita?").first()).toBeVisible();
    await page.getByRole("button", { name: "Filtros", exact: true }).click();
    await expect(page.getByLabel("Filtrar por estado")).toBeVisible();
    await expectAccessible(page, "filtros del inbox");
    await page.keyboard.press("Escape");
    await page.getByRole("button", { name: /^Opciones de / }).click();
    await expect(page.getByLabel(/^Estado de /)).toBeVisible();
    await expectAccessible(page, "opciones de una conversación");
  });

  test("the conversation with its details panel meets WCAG 2.1 AA", async ({ page }) => {
    const { conversationId } = await consoleWithData(page);
    await page.goto(`/conversations/${conversationId}`);
    await expect(page.getByText("Hola, ¿tenéis cita?").first()).toBeVisible();
    await page.getByRole("button", { name: "Detalles" }).click();
    await expect(page.getByRole("complementary", { name: "Ventas y origen" })).toBeVisible();
    await expectAccessible(page, "detalles de la conversación");
  });
});

test.describe("@mobile at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("@mobile the inbox meets WCAG 2.1 AA on a phone", async ({ page }) => {
    await consoleWithData(page);
    await page.goto("/conversations");
    await expect(page.getByText("Hola, ¿tenéis cita?").first()).toBeVisible();
    await expectAccessible(page, "/conversations (390 px)");
  });

  test("@mobile the conversation and its details sheet meet WCAG 2.1 AA on a phone", async ({
    page,
  }) => {
    const { conversationId } = await consoleWithData(page);
    await page.goto(`/conversations/${conversationId}`);
    const messages = page.getByRole("list", { name: "Mensajes" });
    await expect(messages.getByText("Hola, ¿tenéis cita?")).toBeVisible();
    await expectAccessible(page, "/conversations/:id (390 px)");
    await page.getByRole("button", { name: "Detalles" }).click();
    const sheet = page.getByRole("dialog", { name: "Detalles" });
    await expect(sheet.getByRole("complementary", { name: "Ventas y origen" })).toBeVisible();
    await expectAccessible(page, "detalles de la conversación (390 px)");
  });
});
