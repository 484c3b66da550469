import { expect, test } from "@playwright/test";
import { customerMessage, deliver, signedInOwner } from "./support";

test("create, edit, deactivate, try and delete an agent", async ({ page }) => {
  await signedInOwner(page);
  await page.goto("/agents");
  await expect(page.getByRole("heading", { name: "Gestión de Agentes" })).toBeVisible();
  await expect(page.getByText("Aún no tienes agentes")).toBeVisible();

  await page.getByRole("button", { name: "Nuevo Agente" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Crear Nuevo Agente" })).toBeVisible();
  await dialog.getByRole("button", { name: "Crear agente" }).click();
  await expect(dialog.getByText("El nombre es obligatorio")).toBeVisible();
  await expect(dialog.getByText("El prompt del sistema es obligatorio")).toBeVisible();
  await dialog.getByLabel("Nombre").fill("Sofía");
  await dialog.getByLabel("Prompt del sistema").fill("Eres Sofía, la recepcionista de la clínica.");
  await dialog.getByRole("button", { name: "Crear agente" }).click();
  await expect(page.getByText("Agente creado correctamente")).toBeVisible();

  const card = page
    .getByRole("list", { name: "Agentes" })
    .getByRole("listitem")
    .filter({ hasText: "Sofía" });
  await expect(card.getByText("google/gemini-2.5-flash")).toBeVisible();
  await expect(card.getByText("0.7")).toBeVisible();
  await expect(card.getByText("Activo", { exact: true })).toBeVisible();

  await card.getByRole("button", { name: "Editar" }).click();
  await expect(dialog.getByRole("heading", { name: "Editar Agente" })).toBeVisible();
  await expect(dialog.getByLabel("Nombre")).toHaveValue("Sofía");
  await dialog.getByLabel("Activo").uncheck();
  await dialog.getByRole("button", { name: "Guardar Cambios" }).click();
  await expect(page.getByText("Agente actualizado correctamente")).toBeVisible();
  await expect(card.getByText("Inactivo")).toBeVisible();

  // The sandbox answers through the (fake) model, without WhatsApp.
  await card.getByRole("button", { name: "Probar agente" }).click();
  const sandbox = page.getByRole("dialog");
  await sandbox.getByLabel("Escribe un mensaje").fill("¿Cuánto cuesta una limpieza?");
  await sandbox.getByLabel("Escribe un mensaje").press("Enter");
  await expect(
    sandbox.getByText(
      "Respuesta de prueba (google/gemini-2.5-flash): ¿Cuánto cuesta una limpieza?",
    ),
  ).toBeVisible();
  await sandbox.getByLabel("Escribe un mensaje").fill("Quiero hablar con una persona");
  await sandbox.getByLabel("Escribe un mensaje").press("Enter");
  await expect(sandbox.getByText(/El agente pasaría la conversación a una persona/)).toBeVisible();
  await sandbox.getByRole("button", { name: "Cerrar" }).click();

  await card.getByRole("button", { name: "Eliminar agente Sofía" }).click();
  await expect(page.getByText("¿Estás seguro de eliminar este agente?")).toBeVisible();
  await page.getByRole("dialog").getByRole("button", { name: "Eliminar" }).click();
  await expect(page.getByText("Agente eliminado correctamente")).toBeVisible();
  await expect(page.getByText("Aún no tienes agentes")).toBeVisible();
});

test("the dashboard opens the new-agent dialog", async ({ page }) => {
  await signedInOwner(page);
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Crear primer agente" }).click();
  await expect(
    page.getByRole("dialog").getByRole("heading", { name: "Crear Nuevo Agente" }),
  ).toBeVisible();
});

test("an agent's chats list its conversations and the AI reply", async ({ page }) => {
  const { headers, phoneNumberId } = await signedInOwner(page, { connect: true });
  const created = await page.request.post("/api/v1/agents", {
    headers,
    data: { name: "Bot", system_prompt: "Eres útil." },
  });
  const agent = (await created.json()).data;
  await page.request.patch("/api/v1/whatsapp-config", {
    headers,
    data: { default_agent_id: agent.id },
  });
  await deliver(page.request, customerMessage(phoneNumberId, "34655000001", "¿Abrís hoy?", "Rosa"));
  await page.goto(`/chats/${agent.id}`);
  await page.getByRole("list", { name: "Contactos" }).getByText("Rosa").click();
  await expect(page.getByRole("list", { name: "Mensajes" }).getByText("¿Abrís hoy?")).toBeVisible();
  // The hub answers after a short pause: the bot's reply arrives live.
  await expect(
    page
      .getByRole("list", { name: "Mensajes" })
      .getByText("Respuesta de prueba (google/gemini-2.5-flash): ¿Abrís hoy?"),
  ).toBeVisible({ timeout: 15_000 });
});
