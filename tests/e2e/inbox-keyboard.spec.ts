// The inbox's keyboard shortcuts (issue 48, decision 0073): j/k next and previous
// conversation, r the composer, a assign to me, e close, / search, ? the list of them; never
// while typing or with Ctrl, Meta or Alt; each said to screen readers.
import { expect, test, type Page } from "@playwright/test";
import { inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { deliver, expectAccessible, signedInOwner } from "./support";

const CUSTOMERS = ["Lucía Pérez", "Pedro Gil", "Irene Sanz"];

/** Three customers who wrote a minute apart: the list shows Irene, Pedro, Lucía. */
async function threeCustomers(page: Page) {
  const owner = await signedInOwner(page, { connect: true });
  const start = Math.floor(Date.now() / 1000) - 600;
  await deliver(
    page.request,
    ...CUSTOMERS.map((name, i) =>
      inboundMessage({
        phoneNumberId: owner.phoneNumberId,
        from: `3466610${String(i).padStart(4, "0")}`,
        name,
        text: `Hola, soy ${name}`,
        timestamp: String(start + i * 60),
      }),
    ),
  );
  const list = await page.request.get("/api/v1/conversations", { headers: owner.headers });
  const conversations: { id: string; contact_name: string }[] = (await list.json()).data
    .conversations;
  const id = (name: string) => conversations.find((c) => c.contact_name === name)!.id;
  return { ...owner, id };
}

const rows = (page: Page) =>
  page.getByRole("list", { name: "Conversaciones" }).getByRole("listitem");
const said = (page: Page) => page.getByRole("status", { name: "Atajos de teclado" });
const composer = (page: Page) => page.getByLabel("Escribe un mensaje");
const heading = (page: Page, name: string) => page.getByRole("heading", { name, level: 2 });
const help = (page: Page) => page.getByRole("dialog", { name: "Atajos de teclado" });
/** The help's title: what shows of it (its dialog element itself has no box). */
const helpTitle = (page: Page) => help(page).getByRole("heading", { name: "Atajos de teclado" });

/** Moves the focus off any field, to the page itself. */
const leaveFields = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());

test("each shortcut does its thing, and says so", async ({ page }) => {
  const { id } = await threeCustomers(page);
  await page.goto("/conversations");
  await expect(rows(page)).toHaveCount(3);
  await expect(rows(page).first()).toContainText("Irene Sanz");

  // j and k: down and up the list, opening each conversation.
  await page.keyboard.press("j");
  await expect(page).toHaveURL(new RegExp(`/conversations/${id("Irene Sanz")}$`));
  await expect(heading(page, "Irene Sanz")).toBeVisible();
  await expect(said(page)).toHaveText("Conversación siguiente: Irene Sanz");
  await page.keyboard.press("j");
  await expect(heading(page, "Pedro Gil")).toBeVisible();
  await expect(said(page)).toHaveText("Conversación siguiente: Pedro Gil");
  await page.keyboard.press("k");
  await expect(heading(page, "Irene Sanz")).toBeVisible();
  await expect(said(page)).toHaveText("Conversación anterior: Irene Sanz");
  await page.keyboard.press("k");
  await expect(said(page)).toHaveText("Es la primera conversación de la página");
  await expect(page).toHaveURL(new RegExp(`/conversations/${id("Irene Sanz")}$`));

  // r: the composer.
  await page.keyboard.press("r");
  await expect(composer(page)).toBeFocused();
  await expect(said(page)).toHaveText("Escribe tu respuesta");
  await leaveFields(page);

  // a: assigned to the person at the keyboard.
  await page.keyboard.press("a");
  await expect(page.getByLabel("Asignado a")).toHaveValue(/.+/);
  await expect(page.getByLabel("Asignado a").locator("option:checked")).toHaveText("Marta Ruiz");
  await expect(said(page)).toHaveText("Conversación asignada a ti");
  await page.keyboard.press("a");
  await expect(said(page)).toHaveText("Ya llevas esta conversación");

  // e: closed.
  await page.keyboard.press("e");
  await expect(page.getByLabel("Estado", { exact: true })).toHaveValue("closed");
  await expect(said(page)).toHaveText("Conversación cerrada");
  const closed = await page.request.get(`/api/v1/conversations/${id("Irene Sanz")}`, {
    headers: { Authorization: `Bearer ${await page.evaluate(() => localStorage.auth_token)}` },
  });
  expect((await closed.json()).data.status).toBe("closed");

  // /: the search box.
  await page.keyboard.press("/");
  await expect(page.getByRole("searchbox", { name: "Buscar" })).toBeFocused();
  await expect(said(page)).toHaveText("Buscar conversaciones");
  await expect(page.getByRole("searchbox", { name: "Buscar" })).toHaveValue("");
});

test("nothing fires while typing, or with Ctrl, Meta or Alt held", async ({ page }) => {
  const { id } = await threeCustomers(page);
  const url = new RegExp(`/conversations/${id("Pedro Gil")}$`);
  await page.goto(`/conversations/${id("Pedro Gil")}`);
  await expect(heading(page, "Pedro Gil")).toBeVisible();
  const status = page.getByLabel("Estado", { exact: true });
  const assignee = page.getByLabel("Asignado a");
  await expect(status).toHaveValue("open");
  await expect(assignee).toHaveValue("");

  // Every shortcut's key, typed into the composer, is text.
  await composer(page).click();
  await page.keyboard.type("jkrae/?");
  await expect(composer(page)).toHaveValue("jkrae/?");
  await expect(composer(page)).toBeFocused();
  await expect(page).toHaveURL(url);
  await expect(help(page)).toHaveCount(0);
  await expect(status).toHaveValue("open");
  await expect(assignee).toHaveValue("");
  await expect(said(page)).toHaveText("");
  // And into the search box.
  await page.getByRole("searchbox", { name: "Buscar" }).click();
  await page.keyboard.type("jk");
  await expect(page.getByRole("searchbox", { name: "Buscar" })).toHaveValue("jk");
  await expect(heading(page, "Pedro Gil")).toBeVisible();
  await page.getByRole("searchbox", { name: "Buscar" }).fill("");

  // With a modifier held, the browser's or the system's: not the inbox's.
  await leaveFields(page);
  for (const key of ["Control+j", "Alt+k", "Meta+e", "Control+a", "Alt+r"]) {
    await page.keyboard.press(key);
  }
  await page.waitForTimeout(500);
  await expect(page).toHaveURL(new RegExp(`/conversations/${id("Pedro Gil")}`));
  await expect(heading(page, "Pedro Gil")).toBeVisible();
  await expect(status).toHaveValue("open");
  await expect(assignee).toHaveValue("");
  await expect(composer(page)).not.toBeFocused();
  await expect(said(page)).toHaveText("");
  const stored = await page.request.get(`/api/v1/conversations/${id("Pedro Gil")}`, {
    headers: { Authorization: `Bearer ${await page.evaluate(() => localStorage.auth_token)}` },
  });
  expect((await stored.json()).data).toMatchObject({ status: "open", assignee_id: null });
});

test("? lists the shortcuts in a dialog that meets WCAG 2.1 AA; keys wait while it is open", async ({
  page,
}) => {
  const { id } = await threeCustomers(page);
  await page.goto(`/conversations/${id("Pedro Gil")}`);
  await expect(heading(page, "Pedro Gil")).toBeVisible();

  await page.keyboard.press("?");
  await expect(helpTitle(page)).toBeVisible();
  for (const [key, label] of [
    ["j", "Conversación siguiente"],
    ["k", "Conversación anterior"],
    ["r", "Escribir una respuesta"],
    ["a", "Asignarme la conversación"],
    ["e", "Cerrar la conversación"],
    ["/", "Buscar conversaciones"],
    ["?", "Ver los atajos de teclado"],
  ] as const) {
    const entry = help(page)
      .locator("dl > div")
      .filter({ has: page.getByText(label, { exact: true }) });
    await expect(entry.locator("kbd")).toHaveText(key);
  }
  await expectAccessible(page, "atajos de teclado");

  // While it is open, the keys are the dialog's.
  await page.keyboard.press("j");
  await expect(page).toHaveURL(new RegExp(`/conversations/${id("Pedro Gil")}$`));
  await page.keyboard.press("Escape");
  await expect(help(page)).toHaveCount(0);
  // Closed, the keys work again; "Cerrar" closes it too.
  await page.keyboard.press("?");
  await expect(helpTitle(page)).toBeVisible();
  await help(page).getByRole("button", { name: "Cerrar" }).click();
  await expect(help(page)).toHaveCount(0);
  await page.keyboard.press("j");
  await expect(heading(page, "Lucía Pérez")).toBeVisible();
});

test.describe("@mobile on a phone", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("@mobile / goes back to the list and into its search", async ({ page }) => {
    const { id } = await threeCustomers(page);
    await page.goto(`/conversations/${id("Pedro Gil")}`);
    await expect(heading(page, "Pedro Gil")).toBeVisible();
    await page.keyboard.press("j");
    await expect(heading(page, "Lucía Pérez")).toBeVisible();
    await page.keyboard.press("/");
    await expect(page.getByRole("searchbox", { name: "Buscar" })).toBeFocused();
    await expect(rows(page)).toHaveCount(3);
  });
});
