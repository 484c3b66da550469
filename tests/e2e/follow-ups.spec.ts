// Seguimientos (contract section 17) in the console: a manager creates a text rule for a label,
// sees it in words, switches it off, turns it into a template rule of 2 days (the text-only
// limit said first) and deletes it; an agent reads the rules without changing them; a message
// Meta refused because the customer stopped marketing offers no "Reintentar".
import { expect, test, type Page } from "@playwright/test";
import { userPreferences } from "../fakes/whatsapp-payloads.mjs";
import { E2E_SETTINGS } from "./settings.mjs";
import {
  customerMessage,
  deliver,
  expectAccessible,
  ownerWithTemplates,
  productErrors,
  signedInAgent,
  signedInOwner,
} from "./support";

const rules = (page: Page) => page.getByRole("list", { name: "Seguimientos" });
const rule = (page: Page, name: string) =>
  rules(page)
    .getByRole("listitem")
    .filter({ has: page.getByRole("heading", { name }) });

async function createLabel(page: Page, headers: Record<string, string>, name: string) {
  const created = await page.request.post("/api/v1/labels", {
    headers,
    data: { name, color: "#dc2626" },
  });
  expect(created.status()).toBe(201);
  return (await created.json()).data.id as string;
}

test("a manager creates a follow-up, switches it off, turns it into a template rule and deletes it", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const errors = productErrors(page);
  const owner = await ownerWithTemplates(page);
  await createLabel(page, owner.headers, "VIP");
  const passing = await createLabel(page, owner.headers, "Temporal");

  // Seguimientos, from the sidebar, right after Difusiones: none yet, and how they work.
  await page.goto("/dashboard");
  const nav = page.getByRole("navigation", { name: "Principal" });
  await expect(nav.getByRole("link", { name: "Seguimientos" })).toBeVisible();
  const items = (await nav.getByRole("link").allTextContents()).map((t) => t.trim());
  expect(items.indexOf("Seguimientos")).toBe(items.indexOf("Difusiones") + 1);
  await nav.getByRole("link", { name: "Seguimientos" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Seguimientos" })).toBeVisible();
  await expect(page.getByText("Aún no hay seguimientos")).toBeVisible();
  const how = page.getByRole("region", { name: "Cómo funcionan" });
  await expect(
    how.getByText(
      "No se envían difusiones ni seguimientos entre las 21:00 y las 09:00 (Europe/Madrid).",
      { exact: false },
    ),
  ).toBeVisible();
  await expect(how.getByRole("link", { name: "Configuración > Organización" })).toHaveAttribute(
    "href",
    "/settings/organization#quiet-hours",
  );
  await expectAccessible(page, "Seguimientos vacío");
  await page.getByRole("link", { name: "Nuevo seguimiento" }).click();

  // The form: checked as the API checks it, the first field in error focused.
  await expect(page.getByRole("heading", { level: 1, name: "Nuevo seguimiento" })).toBeVisible();
  const form = page.getByRole("form", { name: "Nuevo seguimiento" });
  const save = form.getByRole("button", { name: "Guardar seguimiento" });
  const name = form.getByRole("textbox", { name: /^Nombre/ });
  const wait = form.getByRole("spinbutton", { name: /^Tiempo sin respuesta/ });
  const unit = form.getByRole("combobox", { name: "Unidad" });
  const text = form.getByRole("textbox", { name: "Texto" });
  const labels = form.getByRole("group", { name: "Etiquetas" });
  await save.click();
  await expect(form.getByText("El nombre es obligatorio")).toBeVisible();
  await expect(name).toBeFocused();
  await name.fill("Recordatorio 30 min");
  await wait.fill("30");
  await unit.selectOption("minutes");
  await save.click();
  await expect(form.getByText("Indica un texto, una plantilla o ambos")).toBeVisible();
  await expect(text).toBeFocused();
  const message = "¿Pudiste ver la propuesta? Si tienes dudas, te ayudamos.";
  await text.fill(message);
  await expect(form.getByText(`${message.length}/4096`)).toBeVisible();
  await labels.getByLabel("VIP").check();
  await labels.getByLabel("Temporal").check();
  await expectAccessible(page, "Nuevo seguimiento");

  // A label removed meanwhile: the server's refusal shows by the labels, where it can be
  // unchecked.
  const removed = await page.request.delete(`/api/v1/labels/${passing}`, {
    headers: owner.headers,
  });
  expect(removed.ok()).toBe(true);
  await save.click();
  await expect(page.getByText("Error al crear el seguimiento")).toBeVisible();
  await expect(labels).toContainText("no existe en tu organización");
  await labels.getByLabel("Etiqueta eliminada").click();
  await expect(labels.getByLabel("Etiqueta eliminada")).toHaveCount(0);
  await expect(labels).not.toContainText("no existe en tu organización");
  await save.click();
  await expect(page.getByText("Seguimiento creado")).toBeVisible();

  // Listed in words, with its switch and its figures.
  await expect(page).toHaveURL(/\/follow-ups$/);
  const card = rule(page, "Recordatorio 30 min");
  await expect(card).toContainText("Tras 30 min sin respuesta · Etiquetas: VIP");
  await expect(card).toContainText("Solo texto, dentro de las 24 h");
  await expect(card).toContainText("Hasta 1 vez por conversación");
  await expect(card.getByText("Enviados", { exact: true })).toBeVisible();
  const enabled = card.getByRole("switch", { name: "Activo" });
  await expect(enabled).toBeChecked();
  await expectAccessible(page, "lista de seguimientos");

  // Switched off by the list's action.
  await enabled.click();
  await expect(page.getByText("Seguimiento desactivado")).toBeVisible();
  await expect(enabled).not.toBeChecked();
  const listed = await page.request.get("/api/v1/follow-ups", { headers: owner.headers });
  expect((await listed.json()).data).toMatchObject([{ enabled: false }]);

  // Edited: 2 days with text alone is refused first; with a template it is saved.
  await card.getByRole("link", { name: /^Editar/ }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Editar seguimiento" })).toBeVisible();
  const edit = page.getByRole("form", { name: "Editar seguimiento" });
  await expect(edit.getByRole("spinbutton", { name: /^Tiempo sin respuesta/ })).toHaveValue("30");
  await expect(edit.getByRole("textbox", { name: "Texto" })).toHaveValue(message);
  await edit.getByRole("textbox", { name: /^Nombre/ }).fill("Recordatorio 2 días");
  await edit.getByRole("spinbutton", { name: /^Tiempo sin respuesta/ }).fill("2");
  await edit.getByRole("combobox", { name: "Unidad" }).selectOption("days");
  await edit.getByRole("button", { name: "Guardar seguimiento" }).click();
  await expect(
    edit.getByText("Un seguimiento solo con texto debe enviarse antes de 24 horas"),
  ).toBeVisible();
  await expect(edit.getByRole("spinbutton", { name: /^Tiempo sin respuesta/ })).toBeFocused();
  await edit
    .getByRole("combobox", { name: /^Plantilla/ })
    .selectOption({ label: "bienvenida (es) · Marketing" });
  await expect(edit.getByLabel("Texto de la plantilla")).toHaveText("¡Gracias por escribirnos!");
  await expect(edit.getByText(/se enviará la plantilla, no el texto/)).toBeVisible();
  await edit.getByRole("textbox", { name: "Texto" }).fill("");
  await expectAccessible(page, "Editar seguimiento");
  await edit.getByRole("button", { name: "Guardar seguimiento" }).click();
  await expect(page.getByText("Seguimiento guardado")).toBeVisible();
  const edited = rule(page, "Recordatorio 2 días");
  await expect(edited).toContainText("Tras 2 días sin respuesta · Etiquetas: VIP");
  await expect(edited).toContainText("Plantilla «bienvenida», dentro y fuera de las 24 h");
  await expect(edited.getByRole("switch", { name: "Activo" })).not.toBeChecked();

  // Deleted from its page, asked first.
  await edited.getByRole("link", { name: /^Editar/ }).click();
  await page.getByRole("button", { name: "Eliminar" }).click();
  const confirm = page.getByRole("dialog", { name: "Eliminar «Recordatorio 2 días»" });
  await expectAccessible(page, "Eliminar seguimiento");
  await confirm.getByRole("button", { name: "Eliminar" }).click();
  await expect(page.getByText("Seguimiento eliminado")).toBeVisible();
  await expect(page).toHaveURL(/\/follow-ups$/);
  await expect(page.getByText("Aún no hay seguimientos")).toBeVisible();
  expect(errors).toEqual([]);
});

test("an agent reads the follow-ups without the manager's actions", async ({ page, browser }) => {
  const owner = await signedInOwner(page);
  const created = await page.request.post("/api/v1/follow-ups", {
    headers: owner.headers,
    data: {
      name: "Recordatorio",
      trigger: { no_reply_minutes: 120, stages: ["lead"] },
      text: "¿Seguimos?",
    },
  });
  expect(created.status()).toBe(201);

  const agent = await signedInAgent(page, browser, owner.headers);
  const errors = productErrors(agent.page);
  await agent.page.goto("/follow-ups");
  const card = rule(agent.page, "Recordatorio");
  await expect(card).toContainText("Tras 2 h sin respuesta · Etapas: Interesado");
  await expect(card.getByText("Activo", { exact: true })).toBeVisible();
  await expect(card.getByRole("switch")).toHaveCount(0);
  await expect(card.getByRole("link", { name: /^Editar/ })).toHaveCount(0);
  await expect(agent.page.getByRole("link", { name: "Nuevo seguimiento" })).toHaveCount(0);
  await expectAccessible(agent.page, "Seguimientos de un agente");

  await agent.page.goto("/follow-ups/new");
  await expect(
    agent.page.getByText("Solo los propietarios y administradores crean y editan seguimientos."),
  ).toBeVisible();
  await expect(agent.page.getByRole("form")).toHaveCount(0);
  expect(errors).toEqual([]);
  await agent.context.close();
});

test("a message Meta refused because the customer stopped marketing offers no Reintentar", async ({
  page,
}) => {
  const owner = await signedInOwner(page, { connect: true });
  await deliver(
    page.request,
    customerMessage(owner.phoneNumberId, "34677000050", "Hola", "Nuria Gil"),
  );
  const list = await page.request.get("/api/v1/conversations", { headers: owner.headers });
  const [conversation] = (await list.json()).data.conversations;
  const text = `Tenemos una oferta ${Date.now()}`;
  const failing = await page.request.post(
    `http://127.0.0.1:${E2E_SETTINGS.graphPort}/__fake/fail`,
    {
      data: {
        path: `/v25.0/${owner.phoneNumberId}/messages`,
        contains: text,
        status: 400,
        error: { message: "Marketing messages opted out", code: 131050 },
      },
    },
  );
  expect(failing.ok()).toBe(true);

  await page.goto(`/conversations/${conversation.id}`);
  const composer = page.getByLabel("Escribe un mensaje");
  await composer.fill(text);
  await composer.press("Enter");
  const bubble = page
    .getByRole("list", { name: "Mensajes" })
    .getByRole("listitem")
    .filter({ hasText: text });
  await expect(
    bubble.getByText("El cliente pidió en WhatsApp no recibir mensajes de marketing"),
  ).toBeVisible();
  await expect(bubble.getByRole("button", { name: "Reintentar" })).toHaveCount(0);
});

test("a failed promotion offers Reintentar only while the customer may receive marketing", async ({
  page,
}) => {
  const owner = await ownerWithTemplates(page);
  // Whatever the hour the test runs at: no quiet hours.
  const me = await page.request.get("/api/v1/organizations/me", { headers: owner.headers });
  const quiet = await page.request.patch(`/api/v1/organizations/${(await me.json()).data.id}`, {
    headers: owner.headers,
    data: { quiet_hours_start: "00:00", quiet_hours_end: "00:00" },
  });
  expect(quiet.status()).toBe(200);
  const phone = "34677000051";
  await deliver(page.request, customerMessage(owner.phoneNumberId, phone, "Hola", "Pablo Ruiz"));
  const list = await page.request.get("/api/v1/conversations", { headers: owner.headers });
  const [conversation] = (await list.json()).data.conversations;
  const failing = await page.request.post(
    `http://127.0.0.1:${E2E_SETTINGS.graphPort}/__fake/fail`,
    {
      data: {
        path: `/v25.0/${owner.phoneNumberId}/messages`,
        contains: phone,
        status: 400,
        error: { message: "(#131000) Something went wrong", code: 131000 },
      },
    },
  );
  expect(failing.ok()).toBe(true);
  const sent = await page.request.post("/api/v1/conversations/messages", {
    headers: owner.headers,
    data: {
      conversation_id: conversation.id,
      template: { name: "bienvenida", language: "es", parameters: [] },
    },
  });
  expect((await sent.json()).data.status).toBe("failed");

  await page.goto(`/conversations/${conversation.id}`);
  const bubble = page
    .getByRole("list", { name: "Mensajes" })
    .getByRole("listitem")
    .filter({ hasText: "¡Gracias por escribirnos!" });
  await expect(bubble.getByRole("button", { name: "Reintentar" })).toBeVisible();
  // The customer stops marketing in WhatsApp: the console stops offering it, live.
  await deliver(
    page.request,
    userPreferences({ phoneNumberId: owner.phoneNumberId, from: phone, value: "stop" }),
  );
  await expect(bubble.getByRole("button", { name: "Reintentar" })).toHaveCount(0);
});

test("@mobile the Seguimientos list and a rule's form fit a phone", async ({ page }) => {
  const owner = await ownerWithTemplates(page);
  const created = await page.request.post("/api/v1/follow-ups", {
    headers: owner.headers,
    data: {
      name: "Cita sin confirmar",
      trigger: { no_reply_minutes: 90, stages: ["new", "lead"] },
      text: "¿Te confirmamos la cita?",
      template: { name: "seguimiento_cita", language: "es", parameters: ["Ana"] },
      max_per_conversation: 3,
    },
  });
  expect(created.status()).toBe(201);
  await page.goto("/follow-ups");
  const card = rule(page, "Cita sin confirmar");
  await expect(card).toContainText("Tras 1 h 30 min sin respuesta · Etapas: Nuevo o Interesado");
  await expect(card).toContainText("Texto dentro de las 24 h · Plantilla «seguimiento_cita» fuera");
  await expect(card).toContainText("Hasta 3 veces por conversación");
  const fits = async () => {
    const width = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(width).toBeLessThanOrEqual(page.viewportSize()!.width);
  };
  await fits();
  await card.getByRole("link", { name: /^Editar/ }).click();
  const form = page.getByRole("form", { name: "Editar seguimiento" });
  await expect(form.getByRole("spinbutton", { name: /^Tiempo sin respuesta/ })).toHaveValue("90");
  await expect(form.getByRole("combobox", { name: "Unidad" })).toHaveValue("minutes");
  await expect(form.getByRole("textbox", { name: /^Parámetro/ })).toHaveValue("Ana");
  await fits();
});
