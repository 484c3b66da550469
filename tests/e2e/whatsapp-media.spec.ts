import { expect, test, type Page } from "@playwright/test";
import { inboundMessage, wamid } from "../fakes/whatsapp-payloads.mjs";
import { deliver, ownerWithTemplates } from "./support";

/** Opens the only conversation of the organization. */
async function openConversation(page: Page, headers: Record<string, string>) {
  const list = await page.request.get("/api/v1/conversations", { headers });
  const [conversation] = (await list.json()).data.conversations;
  await page.goto(`/conversations/${conversation.id}`);
  await expect(page.getByRole("list", { name: "Mensajes" })).toBeVisible();
  return conversation.id as string;
}

const secondsAgo = (s: number) => String(Math.floor(Date.now() / 1000) - s);
const messages = (page: Page) => page.getByRole("list", { name: "Mensajes" });

test("an image from a customer appears in the conversation", async ({ page }) => {
  const { headers, phoneNumberId } = await ownerWithTemplates(page);
  await deliver(
    page.request,
    inboundMessage({
      phoneNumberId,
      from: "34655000001",
      name: "Ana",
      type: "image",
      part: { id: "1234567890", mime_type: "image/png", sha256: "0", caption: "Mi sonrisa" },
    }),
    inboundMessage({
      phoneNumberId,
      from: "34655000001",
      name: "Ana",
      type: "image",
      part: { id: "1234567891", mime_type: "image/png", sha256: "0" },
    }),
  );
  await openConversation(page, headers);

  const captioned = messages(page).getByRole("img", { name: "Mi sonrisa" });
  await expect(captioned).toBeVisible();
  await expect
    .poll(() => captioned.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  // The file comes through the console's authenticated route, as an object URL.
  expect(await captioned.getAttribute("src")).toMatch(/^blob:/);
  await expect(messages(page).getByText("Mi sonrisa")).toBeVisible();

  const plain = messages(page).getByRole("img", { name: "Imagen del cliente" });
  await expect
    .poll(() => plain.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  // The placeholder text is not repeated under a picture without caption.
  await expect(messages(page).getByText("📷 Imagen")).toHaveCount(0);
});

test("after 24 hours the window is closed and a template is sent with its parameter", async ({
  page,
}) => {
  const { headers, phoneNumberId } = await ownerWithTemplates(page);
  await deliver(
    page.request,
    inboundMessage({
      phoneNumberId,
      from: "34655000002",
      name: "Ana",
      text: "¿Tenéis hueco el jueves?",
      timestamp: secondsAgo(25 * 3600),
    }),
  );
  await openConversation(page, headers);

  await expect(page.getByRole("status", { name: "Ventana de 24 horas" })).toContainText(
    "La ventana de 24 horas se cerró",
  );
  // No free text once the window is closed: the composer says why and offers templates.
  await expect(page.getByLabel("Escribe un mensaje")).toHaveCount(0);
  await expect(page.getByText(/No puedes escribir texto libre/)).toBeVisible();
  await expect(page.getByRole("button", { name: "Adjuntar archivo" })).toHaveCount(0);

  const picker = page.getByLabel("Plantilla", { exact: true });
  await expect(picker.locator("option")).toHaveText([
    "seguimiento_cita (es)",
    "bienvenida (es)",
    "codigo_acceso (es)",
  ]);
  await picker.selectOption({ label: "seguimiento_cita (es)" });
  const send = page.getByRole("button", { name: "Enviar plantilla" });
  await expect(send).toBeDisabled();
  await page.getByLabel("Parámetro {{1}}").fill("Ana");
  await expect(page.getByLabel("Vista previa de la plantilla")).toHaveText(
    "Hola Ana, ¿te confirmamos la cita?",
  );
  await send.click();
  await expect(page.getByText("Plantilla enviada")).toBeVisible();
  await expect(messages(page).getByText("Hola Ana, ¿te confirmamos la cita?")).toHaveCount(1);
  await expect(messages(page).getByText("Hola Ana, ¿te confirmamos la cita?")).toBeVisible();
});

test("a template can also be sent while the window is open", async ({ page }) => {
  const { headers, phoneNumberId } = await ownerWithTemplates(page);
  await deliver(
    page.request,
    inboundMessage({ phoneNumberId, from: "34655000003", name: "Luis", text: "Hola" }),
  );
  await openConversation(page, headers);
  await expect(page.getByRole("status", { name: "Ventana de 24 horas" })).toContainText(
    "Ventana de 24 h abierta: queda 1 día",
  );
  await page.getByRole("button", { name: "Plantilla", exact: true }).click();
  await page.getByLabel("Plantilla", { exact: true }).selectOption({ label: "bienvenida (es)" });
  await expect(page.getByLabel("Vista previa de la plantilla")).toHaveText(
    "¡Gracias por escribirnos!",
  );
  await page.getByRole("button", { name: "Enviar plantilla" }).click();
  await expect(messages(page).getByText("¡Gracias por escribirnos!")).toBeVisible();
  await expect(page.getByLabel("Escribe un mensaje")).toBeVisible();
});

test("a file WhatsApp would refuse is reported and never uploaded; a good one is sent", async ({
  page,
}) => {
  const { headers, phoneNumberId } = await ownerWithTemplates(page);
  await deliver(
    page.request,
    inboundMessage({ phoneNumberId, from: "34655000004", name: "Eva", text: "¿Me mandas foto?" }),
  );
  await openConversation(page, headers);
  const uploads: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && /\/media$/.test(new URL(request.url()).pathname))
      uploads.push(request.url());
  });

  async function attach(file: { name: string; mimeType: string; buffer: Buffer }) {
    const chooser = page.waitForEvent("filechooser");
    await page.getByRole("button", { name: "Adjuntar archivo" }).click();
    await (await chooser).setFiles(file);
  }

  await attach({
    name: "enorme.png",
    mimeType: "image/png",
    buffer: Buffer.alloc(6 * 1024 * 1024, 1),
  });
  await expect(
    page.getByText("El archivo supera el máximo de WhatsApp para este tipo (5 MB)."),
  ).toBeVisible();

  await attach({ name: "fotos.zip", mimeType: "application/zip", buffer: Buffer.from("PK") });
  await expect(page.getByText(/WhatsApp no admite este tipo de archivo/)).toBeVisible();
  expect(uploads).toEqual([]);

  // A small PNG with the text box as its caption is uploaded and shown.
  const png = Buffer.from(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
    "base64",
  );
  await page.getByLabel("Escribe un mensaje").fill("Aquí la tienes");
  await attach({ name: "foto.png", mimeType: "image/png", buffer: png });
  await expect(page.getByText("Archivo enviado")).toBeVisible();
  expect(uploads).toHaveLength(1);
  const sent = messages(page).getByRole("img", { name: "Aquí la tienes" });
  await expect(sent).toHaveCount(1);
  await expect
    .poll(() => sent.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  await expect(page.getByLabel("Escribe un mensaje")).toHaveValue("");
});

test("a customer's reaction appears on the message and the team can react", async ({ page }) => {
  const { headers, phoneNumberId } = await ownerWithTemplates(page);
  const id = wamid();
  const from = "34655000005";
  await deliver(
    page.request,
    inboundMessage({ phoneNumberId, from, name: "Íñigo", id, text: "Mañana a las 10" }),
  );
  await openConversation(page, headers);
  await expect(page.getByText("Tiempo Real", { exact: true })).toBeVisible();
  const bubble = messages(page).getByRole("listitem").filter({ hasText: "Mañana a las 10" });
  await expect(bubble).toBeVisible();

  await deliver(
    page.request,
    inboundMessage({
      phoneNumberId,
      from,
      type: "reaction",
      part: { message_id: id, emoji: "❤️" },
    }),
  );
  await expect(bubble.getByLabel("❤️ (Cliente)")).toBeVisible();

  await bubble.getByRole("button", { name: "Reaccionar", exact: true }).click();
  await bubble.getByRole("button", { name: "Reaccionar con 👍" }).click();
  await expect(bubble.getByLabel("👍 (Tú/Equipo)")).toBeVisible();
  await expect(bubble.getByLabel("❤️ (Cliente)")).toBeVisible();

  // Choosing the same emoji again removes the team's reaction.
  await bubble.getByRole("button", { name: "Reaccionar", exact: true }).click();
  await bubble.getByRole("button", { name: "Quitar reacción 👍" }).click();
  await expect(bubble.getByLabel("👍 (Tú/Equipo)")).toHaveCount(0);
  await expect(bubble.getByLabel("❤️ (Cliente)")).toBeVisible();
});

test("a draft survives the window closing and reopening", async ({ page }) => {
  await page.clock.install();
  const { headers, phoneNumberId } = await ownerWithTemplates(page);
  const from = "34655000009";
  // The customer wrote almost 24 hours ago: the window closes in a minute.
  await deliver(
    page.request,
    inboundMessage({ phoneNumberId, from, text: "¿Me llamáis?", timestamp: secondsAgo(86_340) }),
  );
  await openConversation(page, headers);
  const box = page.getByLabel("Escribe un mensaje");
  await box.fill("Te llamamos mañana a las 10");

  await page.clock.fastForward("02:00");
  await expect(page.getByText(/No puedes escribir texto libre/)).toBeVisible();
  await expect(box).toHaveCount(0);

  // The customer writes again: the window reopens with the draft where it was.
  await deliver(page.request, inboundMessage({ phoneNumberId, from, text: "Hola otra vez" }));
  await expect(box).toHaveValue("Te llamamos mañana a las 10");
});
