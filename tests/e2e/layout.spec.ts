// The console at the two widths people use it at: a 1440 px desktop and a 390 px phone.
import { expect, test, type Page } from "@playwright/test";
import { CONSOLE_SCREENS, customerMessage, deliver, productErrors, signedInOwner } from "./support";

async function inboxWithCustomers(page: Page, count: number) {
  const { phoneNumberId } = await signedInOwner(page, { connect: true });
  await deliver(
    page.request,
    ...Array.from({ length: count }, (_, i) =>
      customerMessage(
        phoneNumberId,
        `3463400${String(i).padStart(4, "0")}`,
        `Hola ${i}`,
        `Cliente ${i}`,
      ),
    ),
  );
  await page.goto("/conversations");
  return page.getByRole("list", { name: "Conversaciones" });
}

test.describe("at 1440 px", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("'Detalles' opens beside the thread, narrows it, and stays as it was left", async ({
    page,
  }) => {
    const list = await inboxWithCustomers(page, 1);
    await list.getByRole("link", { name: /Cliente 0/ }).click();
    const panel = page.getByRole("complementary", { name: "Ventas y origen" });
    const composer = page.getByLabel("Escribe un mensaje");
    await expect(composer).toBeVisible();
    // Below 1600 px the thread has the width, and the details wait behind "Detalles".
    await expect(panel).toHaveCount(0);
    const wide = (await composer.boundingBox())!.width;

    await page.getByRole("button", { name: "Detalles" }).click();
    await expect(panel).toBeVisible();
    await expect.poll(async () => (await composer.boundingBox())!.width).toBeLessThan(wide - 200);
    // Remembered: the next conversation and the next visit open with it open.
    await page.reload();
    await expect(page.getByLabel("Escribe un mensaje")).toBeVisible();
    await expect(panel).toBeVisible();
    await page.getByRole("button", { name: "Detalles" }).click();
    await expect(panel).toHaveCount(0);
  });
});

test.describe("@mobile at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("@mobile the inbox's filters wait behind 'Filtros', and rows fit the screen", async ({
    page,
  }) => {
    const list = await inboxWithCustomers(page, 2);
    const first = list.getByRole("listitem").first();
    await expect(first).toBeVisible();
    // The list starts on the first screen; the filters wait behind one button.
    expect((await first.boundingBox())!.y).toBeLessThan(844);
    await expect(page.getByLabel("Filtrar por estado")).toBeHidden();
    const fold = page.getByRole("button", { name: "Filtros", exact: true });
    await fold.click();
    await expect(fold).toHaveAttribute("aria-expanded", "true");
    await page.getByLabel("Filtrar por etapa").selectOption("new");
    await expect(page).toHaveURL(/stage=new/);
    await expect(page.getByRole("button", { name: "Filtros (1)" })).toBeVisible();

    // The rows carry no selects: their status and assignment are behind "⋮".
    await expect(list.getByRole("combobox")).toHaveCount(0);
    const box = (await first.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(390);
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(390);
  });
});

test("a screen loaded from its address hydrates cleanly and leaves no loading state behind", async ({
  page,
}) => {
  test.slow(); // Nine screens, each loaded from scratch.
  const errors = productErrors(page);
  await signedInOwner(page, { connect: true });
  for (const [path, heading] of CONSOLE_SCREENS) {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: heading })).toBeVisible();
    // The server renders the fallback ("Cargando...") until the screen's data is read in the
    // browser: once the screen shows, nothing of it may stay on the page.
    await expect(page.getByRole("status").filter({ hasText: /^Cargando/ }), path).toHaveCount(0);
  }
  // A hydration mismatch makes React throw the server's HTML away and say so on the console.
  expect(errors).toEqual([]);
});
