import { expect, test } from "@playwright/test";
import { customerMessage, deliver, signedInOwner } from "./support";

test("work the inbox: filter, search, open, reply, change status and agent", async ({ page }) => {
  const { headers, phoneNumberId } = await signedInOwner(page, { connect: true });
  await page.request.post("/api/v1/agents", {
    headers,
    data: { name: "Sofía", system_prompt: "Eres Sofía.", is_active: false },
  });
  await deliver(
    page.request,
    customerMessage(phoneNumberId, "34611000001", "Quiero una limpieza", "Lucía Pérez"),
    customerMessage(phoneNumberId, "34611000002", "¿Precio de ortodoncia?", "Pedro Gil"),
  );

  await page.goto("/conversations");
  const list = page.getByRole("list", { name: "Conversaciones" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(list.getByText("Lucía Pérez")).toBeVisible();

  await page.getByLabel("Buscar").fill("ortodoncia");
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await expect(list.getByText("Pedro Gil")).toBeVisible();
  await page.getByLabel("Buscar").fill("");
  await expect(list.getByRole("listitem")).toHaveCount(2);

  await page.getByRole("button", { name: "Opciones de Pedro Gil" }).click();
  await page.getByLabel("Estado de Pedro Gil").selectOption("closed");
  await expect(page.getByText("Conversación actualizada")).toBeVisible();
  await page.getByRole("button", { name: "Filtros", exact: true }).click();
  await page.getByLabel("Filtrar por estado").selectOption("closed");
  await expect(list.getByRole("listitem")).toHaveCount(1);
  await page.getByRole("button", { name: "Filtros (1)" }).click();
  await page.getByLabel("Filtrar por estado").selectOption("");

  await list.getByText("Lucía Pérez").click();
  await expect(page.getByRole("heading", { name: "Lucía Pérez" })).toBeVisible();
  await expect(
    page.getByRole("list", { name: "Mensajes" }).getByText("Quiero una limpieza"),
  ).toBeVisible();

  const composer = page.getByLabel("Escribe un mensaje");
  await composer.fill("   ");
  await composer.press("Enter");
  await expect(page.getByText("Mensaje enviado")).toHaveCount(0);
  await composer.fill("Hola Lucía,");
  await composer.press("Shift+Enter");
  await composer.pressSequentially("¿te va bien el lunes?");
  await composer.press("Enter");
  await expect(page.getByText("Mensaje enviado")).toBeVisible();
  await expect(
    page.getByRole("list", { name: "Mensajes" }).getByText("¿te va bien el lunes?"),
  ).toBeVisible();
  await expect(composer).toHaveValue("");
  // The fake WhatsApp reports delivery and reading: the mark turns into a double check.
  await expect(page.getByLabel("Leído")).toBeVisible();

  // The AI agent is among the details; who holds it and its status are in the header.
  await page.getByRole("button", { name: "Detalles" }).click();
  await page.getByLabel("Agente de IA").selectOption({ label: "Sofía" });
  await expect(page.getByText("Agente asignado", { exact: true }).last()).toBeVisible();
  await page.getByLabel("Estado", { exact: true }).selectOption("pending");
  await expect(
    page.locator("header").getByText("Pendiente", { exact: true }).first(),
  ).toBeVisible();
});

test("pages through more than 20 conversations", async ({ page }) => {
  const { phoneNumberId } = await signedInOwner(page, { connect: true });
  const changes = Array.from({ length: 21 }, (_, i) =>
    customerMessage(phoneNumberId, `3462200${String(i).padStart(4, "0")}`, `Mensaje ${i}`),
  );
  await deliver(page.request, ...changes);
  await page.goto("/conversations");
  await expect(page.getByText("Página 1 de 2")).toBeVisible();
  await expect(
    page.getByRole("list", { name: "Conversaciones" }).getByRole("listitem"),
  ).toHaveCount(20);
  await page.getByRole("button", { name: "Siguiente" }).click();
  await expect(page.getByText("Página 2 de 2")).toBeVisible();
  await expect(
    page.getByRole("list", { name: "Conversaciones" }).getByRole("listitem"),
  ).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Siguiente" })).toBeDisabled();
  await page.getByRole("button", { name: "Anterior" }).click();
  await expect(page.getByText("Página 1 de 2")).toBeVisible();
});

test("new messages and replies from a teammate appear live, without reload", async ({
  page,
  browser,
}) => {
  const { token, phoneNumberId } = await signedInOwner(page, { connect: true });
  await deliver(page.request, customerMessage(phoneNumberId, "34633000001", "Hola", "Ana"));
  await page.goto("/conversations");
  await page.getByRole("list", { name: "Conversaciones" }).getByText("Ana").click();
  await expect(page.getByText("Tiempo Real", { exact: true })).toBeVisible();

  // The customer writes again: the message appears, with a toast.
  await deliver(
    page.request,
    customerMessage(phoneNumberId, "34633000001", "¿Seguís abiertos?", "Ana"),
  );
  await expect(
    page.getByRole("list", { name: "Mensajes" }).getByText("¿Seguís abiertos?"),
  ).toBeVisible();
  await expect(page.getByText("Nuevo mensaje de WhatsApp")).toBeVisible();

  // A teammate (a second browser) answers: the reply appears here too.
  const other = await browser.newContext();
  const teammate = await other.newPage();
  await teammate.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  await teammate.goto(page.url());
  await teammate.getByLabel("Escribe un mensaje").fill("Sí, hasta las 19 h");
  await teammate.getByLabel("Escribe un mensaje").press("Enter");
  await expect(teammate.getByText("Mensaje enviado")).toBeVisible();
  await expect(
    page.getByRole("list", { name: "Mensajes" }).getByText("Sí, hasta las 19 h"),
  ).toBeVisible();
  await other.close();
});

test("an unknown conversation says so and leads back", async ({ page }) => {
  await signedInOwner(page);
  await page.goto("/conversations/no-existe");
  await expect(page.getByRole("heading", { name: "Conversación no encontrada" })).toBeVisible();
  await page.getByRole("link", { name: "Volver a conversaciones" }).click();
  await expect(page).toHaveURL(/\/conversations$/);
});

test("customer text with markup arrives as text and never runs", async ({ page }) => {
  const { phoneNumberId } = await signedInOwner(page, { connect: true });
  const markup = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script>`;
  await deliver(page.request, customerMessage(phoneNumberId, "34644000001", markup, "<b>Eva</b>"));
  await page.goto("/conversations");
  await page.getByRole("list", { name: "Conversaciones" }).getByText("<b>Eva</b>").click();
  await expect(page.getByRole("list", { name: "Mensajes" }).getByText(markup)).toBeVisible();
  expect(
    await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
  ).toBeUndefined();
});

test("quick replies are saved in settings and inserted with '/' in the composer", async ({
  page,
}) => {
  const { phoneNumberId } = await signedInOwner(page, { connect: true });
  await page.goto("/settings/organization");
  await page.getByLabel("Atajo").fill("horario");
  await page.getByLabel("Texto").fill("Abrimos de lunes a viernes de 9 a 19 h.");
  await page.getByRole("button", { name: "Añadir respuesta rápida" }).click();
  await expect(
    page.getByRole("list", { name: "Respuestas rápidas guardadas" }).getByText("/horario"),
  ).toBeVisible();

  await deliver(
    page.request,
    customerMessage(phoneNumberId, "34666000001", "¿Qué horario tenéis?", "Leo"),
  );
  await page.goto("/conversations");
  await page.getByRole("list", { name: "Conversaciones" }).getByText("Leo").click();
  const composer = page.getByLabel("Escribe un mensaje");
  await composer.fill("/hor");
  await expect(page.getByRole("listbox", { name: "Respuestas rápidas" })).toBeVisible();
  await composer.press("Enter");
  await expect(composer).toHaveValue("Abrimos de lunes a viernes de 9 a 19 h.");
  await composer.press("Enter");
  await expect(
    page
      .getByRole("list", { name: "Mensajes" })
      .getByText("Abrimos de lunes a viernes de 9 a 19 h."),
  ).toBeVisible();
});
