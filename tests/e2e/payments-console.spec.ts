// "Agenda y cobra" in the console (contract section 18): a manager connects Stripe in
// Configuración, sends a payment link from a conversation and sees it in its details; an AI
// agent's booking and charging switches are kept; a member without the role only reads.
import { expect, test, type Page } from "@playwright/test";
import { REFUSED_STRIPE_KEY } from "../fakes/stripe-server.mjs";
import {
  customerMessage,
  deliver,
  expectAccessible,
  signedInAgent,
  signedInOwner,
} from "./support";

const section = (page: Page) => page.getByRole("region", { name: "Enlaces de pago" });
const connectForm = (page: Page) => page.getByRole("form", { name: "Conectar proveedor de pagos" });

/** Configuración → Agenda y cobros. */
async function openPaymentsTab(page: Page) {
  await page.goto("/settings?tab=cobros");
  await expect(section(page)).toBeVisible();
}

test("a manager connects Stripe in Configuración and sees the booking Flow's state", async ({
  page,
}) => {
  await signedInOwner(page, { connect: true });
  await openPaymentsTab(page);
  await expect(
    section(page).getByText("No hay ningún proveedor de pagos conectado."),
  ).toBeVisible();
  // The URL to give Stripe is there before connecting: its signing secret comes from it.
  await expect(connectForm(page).getByLabel("URL del webhook", { exact: true })).toHaveValue(
    /\/webhooks\/payments\/stripe\?organization=/,
  );
  await expectAccessible(page, "Agenda y cobros", "#payments-tab");

  // A key Stripe refuses: the server's Spanish message beside the field, nothing kept.
  const form = connectForm(page);
  await form.getByLabel("Clave secreta").fill(REFUSED_STRIPE_KEY);
  await form.getByLabel("Clave de los webhooks").fill("whsec_e2e");
  await form.getByRole("button", { name: "Conectar" }).click();
  await expect(form.getByText("Stripe no aceptó esta clave")).toBeVisible();
  await expect(
    section(page).getByText("No hay ningún proveedor de pagos conectado."),
  ).toBeVisible();

  await form.getByLabel("Clave secreta").fill("sk_test_e2e_valid");
  await form.getByRole("button", { name: "Conectar" }).click();
  await expect(page.getByText("Proveedor de pagos conectado", { exact: true })).toBeVisible();
  await expect(section(page).locator('[data-status="connected"]')).toHaveText(/Conectado/);
  await expect(section(page).getByLabel("URL del webhook de pagos", { exact: true })).toHaveValue(
    /\/webhooks\/payments\/stripe\?organization=/,
  );
  // The secrets are never shown back: the fields are empty password fields.
  await expect(form.getByLabel("Clave secreta")).toHaveAttribute("type", "password");
  await expect(form.getByLabel("Clave secreta")).toHaveValue("");

  // The booking Flow's state and "Registrar y publicar" (or "Volver a publicar" once the
  // connection registered it): the key goes to the number and the Flow is published on the
  // account (the Graph fake).
  const flow = page.getByRole("region", { name: "Formulario de reservas de WhatsApp" });
  await flow.getByRole("button", { name: /publicar/ }).click();
  await expect(flow.getByText(/^Publicado: «Enviar reserva» abre en WhatsApp/)).toBeVisible();
});

test("a person sends a payment link from a conversation and sees it in its details", async ({
  page,
}) => {
  // Several screens and a reload on a shared machine.
  test.setTimeout(60_000);
  const owner = await signedInOwner(page, { connect: true });
  const connected = await page.request.put("/api/v1/integrations/payments", {
    headers: owner.headers,
    data: { provider: "stripe", secret: "sk_test_e2e_link", webhook_secret: "whsec_e2e" },
  });
  expect(connected.status()).toBe(200);
  const from = String(34_622_000_000 + Math.floor(Math.random() * 1e6));
  await deliver(
    page.request,
    customerMessage(owner.phoneNumberId, from, "¿Puedo pagar la señal?", "Lucía Gil"),
  );
  await page.goto("/conversations");
  await page.getByRole("list", { name: "Conversaciones" }).getByText("Lucía Gil").click();
  await expect(page.getByRole("heading", { name: "Lucía Gil" })).toBeVisible();
  const details = page.getByRole("button", { name: "Detalles" });
  if ((await details.getAttribute("aria-expanded")) !== "true") await details.click();
  const payments = page.getByRole("region", { name: "Pagos" });
  await expect(payments.getByText("Sin enlaces de pago.")).toBeVisible();

  await payments.getByRole("button", { name: "Enviar enlace de pago" }).click();
  const dialog = page.getByRole("dialog", { name: "Enviar enlace de pago" });
  await dialog.getByLabel(/^Importe/).fill("35,5");
  await dialog.getByLabel("Concepto").fill("Señal de la limpieza");
  await dialog.getByRole("button", { name: "Enviar enlace" }).click();
  await expect(page.getByText("Enlace de pago enviado", { exact: true })).toBeVisible();
  await expect(dialog).toHaveCount(0);

  const listed = payments.getByRole("list", { name: "Pagos del cliente" }).getByRole("listitem");
  await expect(listed).toHaveCount(1);
  await expect(listed).toContainText("35,50");
  await expect(listed).toContainText("Señal de la limpieza");
  await expect(listed).toContainText("Pendiente");
  await expect(listed.getByRole("link", { name: "Abrir enlace" })).toHaveAttribute("href", /^http/);
  // Read again from the server, it is still there.
  await page.reload();
  if ((await details.getAttribute("aria-expanded")) !== "true") await details.click();
  await expect(
    page.getByRole("region", { name: "Pagos" }).getByRole("list", { name: "Pagos del cliente" }),
  ).toContainText("Señal de la limpieza");
});

test("an agent's booking and charging switches are saved and shown again after a reload", async ({
  page,
}) => {
  const owner = await signedInOwner(page);
  const created = await page.request.post("/api/v1/agents", {
    headers: owner.headers,
    data: { name: "Recepción", system_prompt: "Eres la recepcionista." },
  });
  expect(created.status()).toBe(201);
  await page.goto("/agents");
  const card = page
    .getByRole("list", { name: "Agentes" })
    .getByRole("listitem")
    .filter({ hasText: "Recepción" });
  await card.getByRole("button", { name: "Editar" }).click();
  const dialog = page.getByRole("dialog");
  const book = dialog.getByRole("switch", { name: "Reservar citas" });
  const charge = dialog.getByRole("switch", { name: "Cobrar por adelantado" });
  // Off by default; charging needs booking first.
  await expect(book).not.toBeChecked();
  await expect(charge).not.toBeChecked();
  await expect(charge).toBeDisabled();
  await book.check();
  await charge.check();
  await dialog.getByRole("button", { name: "Guardar Cambios" }).click();
  await expect(page.getByText("Agente actualizado correctamente")).toBeVisible();

  await page.reload();
  await card.getByRole("button", { name: "Editar" }).click();
  await expect(dialog.getByRole("switch", { name: "Reservar citas" })).toBeChecked();
  await expect(dialog.getByRole("switch", { name: "Cobrar por adelantado" })).toBeChecked();
  const saved = await page.request.get("/api/v1/agents", { headers: owner.headers });
  expect((await saved.json()).data).toEqual([
    expect.objectContaining({ name: "Recepción", can_book: true, can_charge: true }),
  ]);
});

test("a member without the role sees which provider is connected but not the connect form", async ({
  page,
  browser,
}) => {
  const owner = await signedInOwner(page);
  const connected = await page.request.put("/api/v1/integrations/payments", {
    headers: owner.headers,
    data: { provider: "stripe", secret: "sk_test_e2e_member", webhook_secret: "whsec_e2e" },
  });
  expect(connected.status()).toBe(200);
  const member = await signedInAgent(page, browser, owner.headers);
  await openPaymentsTab(member.page);
  await expect(section(member.page).getByText("Stripe", { exact: true })).toBeVisible();
  await expect(
    section(member.page).getByText(
      "Solo los propietarios y administradores pueden conectar o desconectar el proveedor de pagos.",
    ),
  ).toBeVisible();
  await expect(connectForm(member.page)).toHaveCount(0);
  await expect(member.page.getByLabel("Clave secreta")).toHaveCount(0);
  await expect(section(member.page).getByRole("button", { name: "Desconectar" })).toHaveCount(0);
  await member.context.close();
});
