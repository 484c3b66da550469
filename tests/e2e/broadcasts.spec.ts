// Difusiones (contract section 17) in the console: the quiet hours set in Configuración, a
// broadcast for a label created, previewed (who is left out and what it costs), sent through
// the sandbox's Meta, followed live to Completada, and the reply and the sale of a recipient
// counted on its page; the conversation shows the message as "Difusión". A broadcast for the
// customers of a click-to-WhatsApp ad, chosen among the ads their conversations came from.
import { expect, test, type Page } from "@playwright/test";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { ctwaReferral, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { deliver, expectAccessible, ownerWithTemplates, productErrors } from "./support";

/** The fake's own account: its templates (`bienvenida`, marketing) are the ones listed. */
const WABA = GRAPH_FIXTURES.wabaId;
const phone = () => `346${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;

/**
 * A customer writes to the owner's number (from a click-to-WhatsApp ad: its `referral`);
 * answers their conversation's id.
 */
async function customerWrites(
  page: Page,
  owner: { phoneNumberId: string; headers: Record<string, string> },
  from: string,
  name: string,
  text: string,
  referral?: Record<string, unknown>,
) {
  await deliver(
    page.request,
    inboundMessage({
      phoneNumberId: owner.phoneNumberId,
      wabaId: WABA,
      from,
      name,
      text,
      referral,
    }),
  );
  const list = await page.request.get("/api/v1/conversations?limit=50", {
    headers: owner.headers,
  });
  const conversations: { id: string; contact_name: string | null }[] = (await list.json()).data
    .conversations;
  const conversation = conversations.find((c) => c.contact_name === name);
  expect(conversation, `la conversación de ${name}`).toBeDefined();
  return conversation!.id;
}

/** Quiet hours that do not hold now in Madrid: the send goes at once whatever the hour. */
function quietHoursAwayFromNow() {
  const hour = Number(
    new Intl.DateTimeFormat("en-GB", {
      timeZone: "Europe/Madrid",
      hour: "2-digit",
      hourCycle: "h23",
    }).format(new Date()),
  );
  const at = (h: number) => `${String(h % 24).padStart(2, "0")}:00`;
  return { start: at(hour + 3), end: at(hour + 4) };
}

test("a broadcast for a label is previewed, sent, followed to Completada, and counts its reply and sale", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = productErrors(page);
  const owner = await ownerWithTemplates(page);
  const label = await page.request.post("/api/v1/labels", {
    headers: owner.headers,
    data: { name: "VIP", color: "#dc2626" },
  });
  expect(label.status()).toBe(201);
  const labelId: string = (await label.json()).data.id;

  // Ana and Luis are VIP; Luis asked to stop promotions (BAJA); Marta is not VIP.
  const ana = phone();
  const anaConversation = await customerWrites(page, owner, ana, "Ana Ruiz", "Hola, ¿precios?");
  const luisConversation = await customerWrites(page, owner, phone(), "Luis Gómez", "BAJA");
  await customerWrites(page, owner, phone(), "Marta Vidal", "Hola");
  for (const id of [anaConversation, luisConversation]) {
    const labelled = await page.request.put(`/api/v1/conversations/${id}/labels`, {
      headers: owner.headers,
      data: { label_ids: [labelId] },
    });
    expect(labelled.status()).toBe(200);
  }

  // Configuración > Organización: the quiet hours, in Madrid's time.
  const quiet = quietHoursAwayFromNow();
  await page.goto("/settings/organization");
  const section = page.getByRole("region", {
    name: "Difusiones y seguimientos: horario de descanso",
  });
  await section.getByLabel("Zona horaria").selectOption("Europe/Madrid");
  await section.getByLabel("Desde las").fill(quiet.start);
  await section.getByLabel("Hasta las").fill(quiet.end);
  await section.getByRole("button", { name: "Guardar horario" }).click();
  await expect(page.getByText("Horario de descanso actualizado")).toBeVisible();
  await expect(
    section.getByText(
      `No se envían difusiones ni seguimientos entre las ${quiet.start} y las ${quiet.end} (Europe/Madrid).`,
    ),
  ).toBeVisible();

  // Difusiones, from the sidebar: none yet.
  await page
    .getByRole("navigation", { name: "Principal" })
    .getByRole("link", { name: "Difusiones" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Difusiones" })).toBeVisible();
  await expect(page.getByText("Aún no hay difusiones")).toBeVisible();
  await page.getByRole("link", { name: "Nueva difusión" }).click();

  // The form: name, an approved marketing template, the VIP label; saved as a draft.
  await expect(page.getByRole("heading", { level: 1, name: "Nueva difusión" })).toBeVisible();
  const form = page.getByRole("form", { name: "Nueva difusión" });
  const name = form.getByRole("textbox", { name: /^Nombre/ });
  const template = form.getByRole("combobox", { name: /^Plantilla/ });
  await form.getByRole("button", { name: "Guardar y ver vista previa" }).click();
  await expect(form.getByText("El nombre es obligatorio")).toBeVisible();
  await expect(template).toHaveAttribute("aria-invalid", "true");
  await expect(name).toBeFocused();
  await name.fill("Promo VIP");
  await template.selectOption({ label: "bienvenida (es) · Marketing" });
  await expect(form.getByLabel("Texto de la plantilla")).toHaveText("¡Gracias por escribirnos!");
  await form.getByRole("group", { name: "Etiquetas" }).getByLabel("VIP").check();
  await expectAccessible(page, "Nueva difusión");
  await form.getByRole("button", { name: "Guardar y ver vista previa" }).click();
  await expect(page.getByText("Difusión guardada como borrador")).toBeVisible();
  await expect(page).toHaveURL(/\/broadcasts\/[0-9a-f-]{36}$/);
  await expect(page.getByRole("heading", { level: 1, name: "Promo VIP" })).toBeVisible();
  await expect(page.getByText("Borrador", { exact: true })).toBeVisible();

  // The preview: Ana receives it, Luis is left out (no promotions), the cost is an estimate.
  const preview = page.getByRole("region", { name: "Vista previa" });
  await expect(preview).toContainText(/La recibirán\s*1 cliente/);
  await expect(preview.getByText("No quieren promociones: 1")).toBeVisible();
  await expect(preview.getByText(/Es una estimación/)).toBeVisible();
  await expect(
    preview.getByRole("table", { name: "Coste estimado por país" }).getByRole("rowheader"),
  ).toHaveText(["España"]);
  await expectAccessible(page, "borrador con vista previa");

  // Sent: it asks first, then goes; the page follows it live to Completada.
  await page
    .getByRole("group", { name: "Acciones de la difusión" })
    .getByRole("button", { name: "Enviar ahora" })
    .click();
  const confirm = page.getByRole("dialog", { name: "Enviar «Promo VIP»" });
  await confirm.getByRole("button", { name: "Enviar ahora" }).click();
  await expect(page.getByText("La difusión se está enviando")).toBeVisible();
  await expect(page.getByText("Completada", { exact: true })).toBeVisible({ timeout: 30_000 });
  const funnel = page.getByRole("list", { name: "Embudo" });
  const step = (name: string) => funnel.getByRole("listitem").filter({ hasText: name });
  await expect(step("Destinatarios")).toContainText("1");
  await expect(step("Leídos")).toContainText("1", { timeout: 15_000 });
  await expect(step("Respondieron")).toContainText("0");
  const recipients = page.getByRole("table", { name: "Destinatarios" });
  const anaRow = recipients.getByRole("row").filter({ hasText: "Ana Ruiz" });
  await expect(anaRow).toContainText("Leído");

  // Ana answers and a sale is recorded in her conversation: both counted here, live.
  await deliver(
    page.request,
    inboundMessage({
      phoneNumberId: owner.phoneNumberId,
      wabaId: WABA,
      from: ana,
      name: "Ana Ruiz",
      text: "¡Me interesa!",
    }),
  );
  await expect(step("Respondieron")).toContainText("1", { timeout: 15_000 });
  await expect(anaRow).toContainText("Respondió");
  const sale = await page.request.post(`/api/v1/conversations/${anaConversation}/sales`, {
    headers: { ...owner.headers, "Idempotency-Key": `venta-${anaConversation}` },
    data: { value: 120 },
  });
  expect(sale.status()).toBe(201);
  const results = page.getByRole("region", { name: "Resultados" });
  await expect(results.getByText("120,00 €")).toBeVisible({ timeout: 15_000 });
  await expectAccessible(page, "difusión completada");

  // The recipients' filter lives in the URL.
  await page.getByLabel("Estado").selectOption("failed");
  await expect(page).toHaveURL(/state=failed/);
  await expect(page.getByText("Ningún destinatario en ese estado.")).toBeVisible();
  await page.getByLabel("Estado").selectOption("");
  await expect(anaRow).toBeVisible();

  // The list shows it with its figures.
  await page.getByRole("link", { name: "← Difusiones" }).click();
  const row = page
    .getByRole("table", { name: "Difusiones" })
    .getByRole("row", { name: /Promo VIP/ });
  await expect(row).toContainText("Completada");
  await expect(row).toContainText("120,00 €");
  await expectAccessible(page, "lista de difusiones");

  // In Ana's conversation the template shows as the business's, labelled "Difusión".
  await row.getByRole("link", { name: "Promo VIP" }).click();
  await page
    .getByRole("table", { name: "Destinatarios" })
    .getByRole("link", { name: "Ana Ruiz" })
    .click();
  await expect(page.getByRole("heading", { name: "Ana Ruiz" })).toBeVisible();
  const bubble = page.getByRole("listitem").filter({ hasText: "¡Gracias por escribirnos!" });
  await expect(bubble.getByText("Difusión", { exact: true })).toBeVisible();
  expect(errors).toEqual([]);
});

test("a broadcast for an ad's customers offers the ad and previews only them", async ({ page }) => {
  const errors = productErrors(page);
  const owner = await ownerWithTemplates(page);

  // No ad yet: the form says where they will appear.
  await page.goto("/broadcasts/new");
  const form = page.getByRole("form", { name: "Nueva difusión" });
  const ads = form.getByRole("group", { name: "Anuncio de origen" });
  await expect(ads).toContainText("Aquí aparecerán los anuncios de clic a WhatsApp");

  // Eva came from the ad; Raúl wrote on his own.
  const adId = `1202${Date.now()}`;
  const referral = ctwaReferral({ adId, headline: "Oferta de verano" });
  await customerWrites(page, owner, phone(), "Eva Torres", "Hola, vi el anuncio", referral);
  await customerWrites(page, owner, phone(), "Raúl Sanz", "Hola");

  await page.reload();
  await form.getByRole("textbox", { name: /^Nombre/ }).fill("Promo del anuncio");
  await form
    .getByRole("combobox", { name: /^Plantilla/ })
    .selectOption({ label: "bienvenida (es) · Marketing" });
  await ads.getByRole("checkbox", { name: "Oferta de verano · 1 conversación" }).check();
  await expectAccessible(page, "Nueva difusión con anuncios");
  await form.getByRole("button", { name: "Guardar y ver vista previa" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Promo del anuncio" })).toBeVisible();
  await expect(page.getByRole("region", { name: "Vista previa" })).toContainText(
    /La recibirán\s*1 cliente/,
  );
  await expect(page.getByText("Llegaron por el anuncio «Oferta de verano»")).toBeVisible();

  // An ad the draft names that is no longer listed stays in the form, to uncheck.
  const id = page.url().split("/").pop()!;
  const changed = await page.request.patch(`/api/v1/broadcasts/${id}`, {
    headers: owner.headers,
    data: { audience: { ad_ids: [adId, "120999"] } },
  });
  expect(changed.status()).toBe(200);
  await page.goto(`/broadcasts/${id}/edit`);
  const gone = page
    .getByRole("group", { name: "Anuncio de origen" })
    .getByRole("checkbox", { name: "Anuncio 120999" });
  await expect(gone).toBeChecked();
  await gone.uncheck();
  await expect(gone).not.toBeChecked();
  await expect(gone).toBeFocused();
  expect(errors).toEqual([]);
});

test("@mobile the Difusiones list and a draft's page fit a phone", async ({ page }) => {
  const owner = await ownerWithTemplates(page);
  const created = await page.request.post("/api/v1/broadcasts", {
    headers: owner.headers,
    data: {
      name: "Recordatorio",
      template: { name: "seguimiento_cita", language: "es", parameters: ["Ana"] },
      audience: { has_phone: true },
    },
  });
  expect(created.status()).toBe(201);
  await page.goto("/broadcasts");
  await expect(page.getByRole("link", { name: "Recordatorio" })).toBeVisible();
  await page.getByRole("link", { name: "Recordatorio" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Recordatorio" })).toBeVisible();
  await expect(page.getByText("Solo con teléfono")).toBeVisible();
  await expect(page.getByRole("region", { name: "Vista previa" })).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(page.viewportSize()!.width);
});

test("the owner's marketing limits are set in Configuración, shown where a broadcast is prepared, and its sending confirms the preview's figures", async ({
  page,
}) => {
  test.setTimeout(60_000);
  const errors = productErrors(page);
  const owner = await ownerWithTemplates(page);
  const label = await page.request.post("/api/v1/labels", {
    headers: owner.headers,
    data: { name: "Newsletter", color: "#2563eb" },
  });
  const labelId: string = (await label.json()).data.id;
  const conversation = await customerWrites(page, owner, phone(), "Eva Soler", "Hola");
  await page.request.put(`/api/v1/conversations/${conversation}/labels`, {
    headers: owner.headers,
    data: { label_ids: [labelId] },
  });

  // Configuración > Organización: the owner's budget and frequency cap.
  await page.goto("/settings/organization");
  const limits = page.getByRole("region", {
    name: "Difusiones y seguimientos: presupuesto de marketing",
  });
  await limits.getByLabel("Envíos al mes").fill("100");
  await limits.getByLabel("Gasto estimado al mes (EUR)").fill("20");
  await limits.getByLabel("Promociones por cliente").fill("3");
  await limits.getByLabel("Cada (días)").fill("10");
  await limits.getByRole("button", { name: "Guardar límites" }).click();
  await expect(page.getByText("Límites de marketing actualizados")).toBeVisible();
  await expectAccessible(page, "límites de marketing");

  // Where a broadcast is prepared: the budget left this month and the cap.
  await page.goto("/broadcasts/new");
  const note = page.getByLabel("Límites de marketing");
  await expect(note).toContainText(
    "Presupuesto de marketing de este mes: quedan 100 envíos de 100 y quedan 20,00 € de 20,00 €.",
  );
  await expect(note).toContainText("Cada cliente recibe como máximo 3 promociones cada 10 días");
  const form = page.getByRole("form", { name: "Nueva difusión" });
  await form.getByRole("textbox", { name: /^Nombre/ }).fill("Boletín");
  await form
    .getByRole("combobox", { name: /^Plantilla/ })
    .selectOption({ label: "bienvenida (es) · Marketing" });
  await form.getByRole("group", { name: "Etiquetas" }).getByLabel("Newsletter").check();
  await form.getByRole("button", { name: "Guardar y ver vista previa" }).click();
  await expect(page.getByRole("heading", { level: 1, name: "Boletín" })).toBeVisible();
  await expect(
    page.getByRole("region", { name: "Vista previa" }).getByLabel("Límites de marketing"),
  ).toContainText("quedan 100 envíos de 100");

  // The send's question says the preview's recipients and cost, and sends them confirmed.
  await page
    .getByRole("group", { name: "Acciones de la difusión" })
    .getByRole("button", { name: "Enviar ahora" })
    .click();
  const confirm = page.getByRole("dialog", { name: "Enviar «Boletín»" });
  await expect(confirm).toContainText(
    /Según la vista previa llega a 1 cliente y cuesta unos 0,\d\d\s€ \(estimación\)/,
  );
  const sent = page.waitForRequest((request) => request.url().endsWith("/send"));
  await confirm.getByRole("button", { name: "Enviar ahora" }).click();
  expect((await sent).postDataJSON()).toMatchObject({ confirm_recipients: 1 });
  await expect(page.getByText("La difusión se está enviando")).toBeVisible();
  expect(errors).toEqual([]);
});
