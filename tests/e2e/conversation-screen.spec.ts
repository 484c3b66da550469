// The conversation screen as people work it (issue #35): the chat first, at a laptop's
// 1440×900 and a phone's 390×844, measured with the boxes the browser lays out.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { deliver, signedInOwner } from "./support";

const LAPTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

const CUSTOMERS = [
  "Lucía Pérez",
  "Pedro Gil",
  "Irene Sanz",
  "Jon Ugarte",
  "Ane Etxeberria",
  "Beñat Arana",
  "Elena Martín",
  "Tomás Vidal",
  "Sara Núñez",
  "Iván Ortega",
  "Rosa Flores",
  "Ana Ruiz",
];

/**
 * An owner whose number a dozen customers wrote to, a minute apart (Ana Ruiz last, with a
 * longer thread); one of them, Sara Núñez, held by the owner and labelled VIP.
 */
async function dozenCustomers(page: Page) {
  const owner = await signedInOwner(page, { connect: true });
  const { phoneNumberId, headers } = owner;
  const start = Math.floor(Date.now() / 1000) - 3600;
  const at = (minute: number) => String(start + minute * 60);
  await deliver(
    page.request,
    ...CUSTOMERS.slice(0, -1).map((name, i) =>
      inboundMessage({
        phoneNumberId,
        from: `3465510${String(i).padStart(4, "0")}`,
        name,
        text: `Hola, soy ${name}: quería pedir cita para esta semana`,
        timestamp: at(i),
      }),
    ),
  );
  // Ana writes a thread longer than a phone's screen.
  for (let i = 0; i < 10; i += 1) {
    await deliver(
      page.request,
      inboundMessage({
        phoneNumberId,
        from: "34655109999",
        name: "Ana Ruiz",
        text: `Mensaje ${i + 1} de Ana: ¿tenéis hueco el martes por la tarde?`,
        timestamp: at(20 + i),
      }),
    );
  }
  const list = await page.request.get("/api/v1/conversations", { headers });
  const conversations: { id: string; contact_name: string }[] = (await list.json()).data
    .conversations;
  const id = (name: string) => conversations.find((c) => c.contact_name === name)!.id;
  const me = (await (await page.request.get("/api/v1/auth/me", { headers })).json()).data.user.id;
  const label = await page.request.post("/api/v1/labels", {
    headers,
    data: { name: "VIP", color: "#7c3aed" },
  });
  const sara = id("Sara Núñez");
  await page.request.patch(`/api/v1/conversations/${sara}`, {
    headers,
    data: { assignee_id: me },
  });
  await page.request.put(`/api/v1/conversations/${sara}/labels`, {
    headers,
    data: { label_ids: [(await label.json()).data.id] },
  });
  return { ...owner, id };
}

const inbox = (page: Page) => page.getByRole("list", { name: "Conversaciones" });
const rows = (page: Page) => inbox(page).getByRole("listitem");
const composer = (page: Page) => page.getByLabel("Escribe un mensaje");
const messages = (page: Page) => page.getByRole("list", { name: "Mensajes" });
const detailsButton = (page: Page) => page.getByRole("button", { name: "Detalles" });
const salesPanel = (page: Page) => page.getByRole("complementary", { name: "Ventas y origen" });
const conversationHeader = (page: Page) =>
  page.locator("header").filter({ has: detailsButton(page) });

type Box = { x: number; y: number; width: number; height: number };
const inside = (inner: Box, outer: Box) =>
  inner.x >= outer.x - 0.5 &&
  inner.y >= outer.y - 0.5 &&
  inner.x + inner.width <= outer.x + outer.width + 0.5 &&
  inner.y + inner.height <= outer.y + outer.height + 0.5;

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, `${locator} has no box`).not.toBeNull();
  return found!;
}

/** The list's rows wholly on the first screen: inside the window and the list's own box. */
async function rowsOnFirstScreen(page: Page) {
  const viewport = { x: 0, y: 0, ...page.viewportSize()! };
  const list = await box(inbox(page));
  let count = 0;
  for (const row of await rows(page).all()) {
    const found = await row.boundingBox();
    if (found && inside(found, viewport) && inside(found, list)) count += 1;
  }
  return count;
}

/** Records a measurement in the report (test-results/e2e.json). */
function measured(name: string, value: number) {
  test.info().annotations.push({ type: name, description: String(Math.round(value)) });
}

/** Waits until no transition runs: a toast measured while it slides in is not where it stays. */
async function atRest(page: Page) {
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => !(a instanceof CSSTransition) || a.playState !== "running"),
  );
}

/** Every toast on screen, and its close button, lies below the conversation's header. */
async function expectToastsBelowHeader(page: Page, text: string) {
  const toast = page.locator("[data-sonner-toast]").filter({ hasText: text });
  await expect(toast).toBeVisible();
  await expect(toast).toHaveCSS("opacity", "1");
  await atRest(page);
  const header = await box(conversationHeader(page));
  measured(`header height (${text})`, header.height);
  for (const shown of await page.locator("[data-sonner-toast]").all()) {
    const found = await shown.boundingBox();
    if (!found) continue;
    expect(found.y, `toast "${text}" below the header`).toBeGreaterThanOrEqual(
      header.y + header.height,
    );
  }
  const close = await toast.locator("[data-close-button]").boundingBox();
  if (close) expect(close.y).toBeGreaterThanOrEqual(header.y + header.height);
}

/** Whether an element's text fits its box, and a text box's placeholder fits it. */
const fitsWidth = (locator: Locator) =>
  locator.evaluate((element) => element.scrollWidth <= element.clientWidth);
const placeholderFits = (locator: Locator) =>
  locator.evaluate((element) => {
    const field = element as HTMLTextAreaElement;
    const style = getComputedStyle(field);
    const context = document.createElement("canvas").getContext("2d")!;
    context.font = style.font;
    const room = field.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    return context.measureText(field.placeholder).width <= room;
  });

test.describe("at 1440×900", () => {
  test.use({ viewport: LAPTOP });

  test("the list shows at least eight conversations; its filters are one line and chips", async ({
    page,
  }) => {
    await dozenCustomers(page);
    await page.goto("/conversations");
    await expect(rows(page)).toHaveCount(12);
    const alone = await rowsOnFirstScreen(page);
    measured("rows on the first screen, list alone", alone);
    expect(alone).toBeGreaterThanOrEqual(8);

    // Search and "Filtros" share one line; the filters wait in its panel.
    const search = await box(page.getByRole("searchbox", { name: "Buscar" }));
    const filters = page.getByRole("button", { name: "Filtros", exact: true });
    expect(Math.abs((await box(filters)).y - search.y)).toBeLessThan(4);
    await expect(page.getByLabel("Filtrar por estado")).toHaveCount(0);

    // A filter chosen there is in the URL and shows as a chip that removes it.
    await filters.click();
    await page.getByLabel("Filtrar por estado").selectOption("open");
    await expect(page).toHaveURL(/\/conversations\?status=open$/);
    await expect(page.getByLabel("Filtrar por estado")).toHaveCount(0);
    const chips = page.getByRole("list", { name: "Filtros activos" });
    await expect(page.getByRole("button", { name: "Filtros (1)" })).toBeVisible();
    await page.getByRole("button", { name: "Filtros (1)" }).click();
    await page.getByLabel("Filtrar por prioridad").selectOption("medium");
    await expect(page).toHaveURL(/status=open&priority=medium$/);
    await expect(chips.getByRole("button")).toHaveText([
      /Estado: Abierta/,
      /Prioridad: Media/,
      "Quitar todos",
    ]);
    await chips.getByRole("button", { name: "Quitar filtro Estado: Abierta" }).click();
    await expect(page).toHaveURL(/\/conversations\?priority=medium$/);
    await chips.getByRole("button", { name: "Quitar filtro Prioridad: Media" }).click();
    await expect(page).toHaveURL(/\/conversations$/);
    await expect(chips).toHaveCount(0);
    // Back brings the filter, and its chip, again.
    await page.goBack();
    await expect(
      chips.getByRole("button", { name: "Quitar filtro Prioridad: Media" }),
    ).toBeVisible();

    // Beside an open conversation, still eight or more.
    await page.goto("/conversations");
    await inbox(page)
      .getByRole("link", { name: /Ana Ruiz/ })
      .click();
    await expect(composer(page)).toBeVisible();
    const beside = await rowsOnFirstScreen(page);
    measured("rows on the first screen, beside a conversation", beside);
    expect(beside).toBeGreaterThanOrEqual(8);
  });

  test("the thread and the composer take the width; the details are a panel, closed by default and remembered", async ({
    page,
  }) => {
    await dozenCustomers(page);
    await page.goto("/conversations");
    await inbox(page)
      .getByRole("link", { name: /Ana Ruiz/ })
      .click();
    const box1 = composer(page);
    await expect(box1).toBeVisible();
    await expect(messages(page).getByText("Mensaje 10 de Ana")).toBeInViewport();

    // The header: the customer, who holds it, its status, and "Detalles"; nothing else.
    const header = conversationHeader(page);
    await expect(header.getByRole("heading", { name: "Ana Ruiz", level: 2 })).toBeVisible();
    await expect(header.getByRole("combobox")).toHaveCount(2);
    await expect(header.getByLabel("Asignado a")).toBeVisible();
    await expect(header.getByLabel("Estado", { exact: true })).toBeVisible();
    for (const label of ["Etapa", "Prioridad", "Agente de IA"])
      await expect(page.getByLabel(label, { exact: true })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Etiquetas" })).toHaveCount(0);

    // Below 1600 px the details start closed: the composer has the thread's width.
    await expect(detailsButton(page)).toHaveAttribute("aria-expanded", "false");
    await expect(salesPanel(page)).toHaveCount(0);
    const wide = await box(box1);
    measured("composer width, details closed", wide.width);
    expect(wide.width).toBeGreaterThanOrEqual(480);
    // The thread has the conversation's whole width: nothing squeezes it.
    const thread = await box(messages(page));
    const pane = await box(page.locator("section").filter({ has: detailsButton(page) }));
    expect(thread.width / pane.width).toBeGreaterThan(0.9);

    // Its hint is read whole, the placeholder too.
    const hint = page.getByText("Enter envía · Mayús+Enter nueva línea");
    await expect(hint).toBeVisible();
    expect(await fitsWidth(hint)).toBe(true);
    expect(await placeholderFits(box1)).toBe(true);

    // It grows with its text, and back.
    const oneLine = wide.height;
    await box1.fill("Hola Ana,\nel martes a las 17:30\nte esperamos\nen la clínica");
    await expect.poll(async () => (await box(box1)).height).toBeGreaterThan(oneLine + 40);
    measured("composer height with four lines", (await box(box1)).height);
    await box1.fill("");
    await expect.poll(async () => (await box(box1)).height).toBeLessThanOrEqual(oneLine + 1);

    // "Detalles" opens the panel beside the thread: the rest is there.
    await detailsButton(page).click();
    await expect(detailsButton(page)).toHaveAttribute("aria-expanded", "true");
    const panel = page.locator("#conversation-details");
    await expect(salesPanel(page)).toBeVisible();
    for (const label of ["Etapa", "Prioridad", "Agente de IA"])
      await expect(panel.getByLabel(label, { exact: true })).toBeVisible();
    await expect(panel.getByRole("button", { name: "Etiquetas" })).toBeVisible();
    expect((await box(panel)).x).toBeGreaterThan((await box(messages(page))).x);
    measured("composer width, details open", (await box(box1)).width);

    // Remembered: open after a reload, closed after closing it.
    await page.reload();
    await expect(salesPanel(page)).toBeVisible();
    await detailsButton(page).click();
    await expect(salesPanel(page)).toHaveCount(0);
    await page.reload();
    await expect(composer(page)).toBeVisible();
    await expect(salesPanel(page)).toHaveCount(0);
    expect((await box(composer(page))).width).toBeGreaterThanOrEqual(480);
  });

  test("toasts never cover the header's actions", async ({ page }) => {
    const { phoneNumberId } = await dozenCustomers(page);
    // A customer known by username: "Pedir teléfono" is in the header.
    const userId = `ES.${Date.now()}${Math.floor(Math.random() * 1000)}`;
    await deliver(
      page.request,
      inboundMessage({ phoneNumberId, userId, username: "rosa.flores", name: "", text: "Hola" }),
    );
    await page.goto("/conversations");
    await inbox(page)
      .getByRole("link", { name: /@rosa\.flores/ })
      .click();
    await expect(page.getByRole("button", { name: "Pedir teléfono" })).toBeVisible();
    await expect(page.getByText("Tiempo Real", { exact: true })).toBeVisible();

    // A change's toast, then the realtime toast of another customer's message.
    await page.getByLabel("Estado", { exact: true }).selectOption("pending");
    await expectToastsBelowHeader(page, "Conversación actualizada");
    await deliver(
      page.request,
      inboundMessage({
        phoneNumberId,
        from: "34655100001",
        name: "Pedro Gil",
        text: "¿Seguís abiertos?",
      }),
    );
    await expectToastsBelowHeader(page, "Nuevo mensaje de WhatsApp");
    // The header's actions are free to use meanwhile.
    await page.getByRole("button", { name: "Pedir teléfono" }).click();
    await expect(page.getByText("Teléfono solicitado al cliente")).toBeVisible();
  });
});

test.describe("at 1280×800", () => {
  test.use({ viewport: { width: 1280, height: 800 } });

  test("with 'Detalles' open the composer keeps 480 px and its hint one line: the details are a panel over the thread", async ({
    page,
  }) => {
    const { id } = await dozenCustomers(page);
    await page.goto(`/conversations/${id("Ana Ruiz")}`);
    const box1 = composer(page);
    await expect(box1).toBeVisible();
    await expect(detailsButton(page)).toHaveAttribute("aria-expanded", "false");

    // Opened, the details come over the thread, and take the focus.
    await detailsButton(page).click();
    const overlay = page.getByRole("dialog", { name: "Detalles" });
    await expect(overlay).toBeVisible();
    await expect(overlay).toBeFocused();
    await expect(overlay.getByRole("complementary", { name: "Ventas y origen" })).toBeVisible();
    for (const label of ["Etapa", "Prioridad", "Agente de IA"])
      await expect(overlay.getByLabel(label, { exact: true })).toBeVisible();
    await expect(detailsButton(page)).toHaveAttribute("aria-expanded", "true");

    // The composer keeps its width, below the panel, and its hint stays on one line.
    const width = (await box(box1)).width;
    measured("composer width at 1280 px, details open", width);
    expect(width).toBeGreaterThanOrEqual(480);
    const panel = await box(overlay);
    expect(panel.y + panel.height).toBeLessThanOrEqual((await box(box1)).y);
    const hint = page.getByText("Enter envía · Mayús+Enter nueva línea");
    await expect(hint).toBeVisible();
    expect(await fitsWidth(hint)).toBe(true);
    const lineHeight = await hint.evaluate((p) => parseFloat(getComputedStyle(p).lineHeight));
    measured("composer hint height at 1280 px, details open", (await box(hint)).height);
    expect((await box(hint)).height).toBeLessThanOrEqual(lineHeight + 1);
    expect(await placeholderFits(box1)).toBe(true);
    // The composer is free to use meanwhile.
    await box1.fill("Hola Ana");
    await expect(box1).toHaveValue("Hola Ana");
    await expect(overlay).toBeVisible();

    // Escape inside it closes it, and the focus goes back to "Detalles".
    await overlay.getByLabel("Prioridad", { exact: true }).focus();
    await page.keyboard.press("Escape");
    await expect(overlay).toHaveCount(0);
    await expect(detailsButton(page)).toBeFocused();
    await expect(detailsButton(page)).toHaveAttribute("aria-expanded", "false");

    // "Cerrar" closes it too; "Detalles" again as well.
    await detailsButton(page).click();
    await expect(overlay).toBeVisible();
    await overlay.getByRole("button", { name: "Cerrar" }).click();
    await expect(overlay).toHaveCount(0);
    await expect(detailsButton(page)).toBeFocused();
    await detailsButton(page).click();
    await expect(overlay).toBeVisible();
    await detailsButton(page).click();
    await expect(overlay).toHaveCount(0);
  });
});

test.describe("at 1700×900", () => {
  test.use({ viewport: { width: 1700, height: 900 } });

  test("from 1600 px the details start open, and the composer keeps its width", async ({
    page,
  }) => {
    const { id } = await dozenCustomers(page);
    await page.goto(`/conversations/${id("Ana Ruiz")}`);
    await expect(salesPanel(page)).toBeVisible();
    await expect(detailsButton(page)).toHaveAttribute("aria-expanded", "true");
    const width = (await box(composer(page))).width;
    measured("composer width at 1700 px, details open", width);
    expect(width).toBeGreaterThanOrEqual(480);
  });
});

test.describe("@mobile at 390×844", () => {
  test.use({ viewport: PHONE });

  test("@mobile rows say who, what, when, unread, labels and initials, with no selects", async ({
    page,
  }) => {
    await dozenCustomers(page);
    await page.goto("/conversations");
    await expect(rows(page)).toHaveCount(12);
    await expect(inbox(page).getByRole("combobox")).toHaveCount(0);
    const onScreen = await rowsOnFirstScreen(page);
    measured("rows on a phone's first screen", onScreen);
    expect(onScreen).toBeGreaterThanOrEqual(8);

    const sara = rows(page).filter({ hasText: "Sara Núñez" });
    await expect(sara).toContainText("quería pedir cita");
    await expect(sara.locator("time")).toHaveText(/^\d{2}:\d{2}$|^ayer$/);
    await expect(sara.getByLabel("1 sin leer")).toBeVisible();
    await expect(sara.getByText("VIP")).toBeVisible();
    await expect(sara.getByTitle("Asignada a Marta Ruiz")).toHaveText(/MR/);
    // Status and assignment are one tap away, in the row's options.
    await sara.getByRole("button", { name: "Opciones de Sara Núñez" }).click();
    await page.getByLabel("Estado de Sara Núñez").selectOption("pending");
    await expect(page.getByText("Conversación actualizada")).toBeVisible();
    await expect(page.getByLabel("Estado de Sara Núñez")).toHaveCount(0);

    for (const row of await rows(page).all()) {
      const found = await box(row);
      expect(found.x + found.width).toBeLessThanOrEqual(PHONE.width);
    }
    const scrollWidth = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scrollWidth).toBeLessThanOrEqual(PHONE.width);
  });

  test("@mobile a conversation opens on its newest messages and the composer; details are a sheet; back returns to the list where it was", async ({
    page,
  }) => {
    await dozenCustomers(page);
    await page.goto("/conversations");
    // Down the list, to its oldest conversation.
    const last = rows(page).last();
    await last.scrollIntoViewIfNeeded();
    const name = (await last.getByRole("link").locator("span.truncate").first().textContent())!;
    const scrolled = await page.evaluate(() => window.scrollY);
    expect(scrolled).toBeGreaterThan(0);
    await last.getByRole("link").click();
    await expect(page.getByRole("heading", { name, level: 2 })).toBeVisible();

    // Ana's thread is longer than the screen: open hers from the top of the list instead.
    await page.getByRole("link", { name: "Volver a conversaciones" }).click();
    await expect(inbox(page)).toBeVisible();
    await expect(rows(page).filter({ hasText: name })).toBeInViewport({ ratio: 1 });
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    await page.evaluate(() => window.scrollTo(0, 0));
    await inbox(page)
      .getByRole("link", { name: /Ana Ruiz/ })
      .click();

    const screen = { x: 0, y: 0, ...PHONE };
    const newest = messages(page).getByRole("listitem").filter({ hasText: "Mensaje 10 de Ana" });
    await expect(newest).toBeVisible();
    await expect(composer(page)).toBeVisible();
    await atRest(page);
    await expect.poll(async () => inside(await box(newest), screen)).toBe(true);
    const box1 = await box(composer(page));
    expect(inside(box1, screen)).toBe(true);
    const thread = await box(messages(page).locator(".."));
    measured("thread height on a phone", thread.height);
    measured("composer width on a phone", box1.width);
    expect(thread.height).toBeGreaterThan(PHONE.height / 2);
    expect(await placeholderFits(composer(page))).toBe(true);

    // Details and actions: one tap, a sheet.
    await expect(page.getByLabel("Estado", { exact: true })).toHaveCount(0);
    await detailsButton(page).click();
    const sheet = page.getByRole("dialog", { name: "Detalles" });
    await expect(sheet).toBeVisible();
    for (const label of ["Estado", "Asignado a", "Etapa", "Prioridad", "Agente de IA"])
      await expect(sheet.getByLabel(label, { exact: true })).toBeVisible();
    await expect(sheet.getByRole("complementary", { name: "Ventas y origen" })).toBeVisible();
    await sheet.getByLabel("Estado", { exact: true }).selectOption("pending");
    await expect(page.getByText("Conversación actualizada")).toBeVisible();
    await sheet.getByRole("button", { name: "Cerrar" }).click();
    await expect(sheet).toHaveCount(0);
    await expect(detailsButton(page)).toBeFocused();
    await expect(conversationHeader(page).getByText("Pendiente", { exact: true })).toBeVisible();

    // Back: the list, at the top where it was left this time.
    await page.getByRole("link", { name: "Volver a conversaciones" }).click();
    await expect(rows(page).filter({ hasText: "Ana Ruiz" })).toBeInViewport({ ratio: 1 });
  });

  test("@mobile toasts stay below the conversation's header", async ({ page }) => {
    const { id, phoneNumberId } = await dozenCustomers(page);
    await page.goto(`/conversations/${id("Ana Ruiz")}`);
    await expect(composer(page)).toBeVisible();
    await expect(page.getByRole("button", { name: "Abrir menú" })).toBeVisible();
    // The socket is up (the sidebar's "Tiempo Real" is behind the menu on a phone): a message
    // delivered before it would reach the console by a reload, without its toast.
    await page.getByRole("button", { name: "Abrir menú" }).click();
    await expect(page.getByRole("dialog").getByText("Tiempo Real", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Cerrar menú" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await deliver(
      page.request,
      inboundMessage({ phoneNumberId, from: "34655100001", name: "Pedro Gil", text: "¿Y hoy?" }),
    );
    await expectToastsBelowHeader(page, "Nuevo mensaje de WhatsApp");
  });
});
