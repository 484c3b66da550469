import { expect, test, type APIRequestContext, type Page } from "@playwright/test";
import { inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import {
  ORGANIZATION,
  countRequests,
  customerMessage,
  deliver,
  signedInOwner,
  uniqueEmail,
} from "./support";

const agentCards = (page: Page) =>
  page.getByRole("list", { name: "Agentes" }).getByRole("listitem");

async function register(request: APIRequestContext, fullName: string) {
  const response = await request.post("/api/v1/auth/register", {
    data: { email: uniqueEmail("agents"), password: "secreto123", full_name: fullName },
  });
  expect(response.status()).toBe(201);
  const { token, user } = (await response.json()).data;
  return { token: token as string, email: user.email as string };
}

const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

async function createAgent(
  request: APIRequestContext,
  headers: Record<string, string>,
  data: Record<string, unknown>,
) {
  const response = await request.post("/api/v1/agents", { headers, data });
  expect(response.status()).toBe(201);
  return (await response.json()).data as { id: string; name: string };
}

test("create, edit, deactivate, try and delete an agent", async ({ page }) => {
  await signedInOwner(page);
  await page.goto("/agents");
  await expect(page.getByRole("heading", { name: "Gestión de Agentes" })).toBeVisible();
  await expect(page.getByText("Aún no tienes agentes")).toBeVisible();

  // Blank name and prompt are refused in Spanish, next to their fields.
  await page.getByRole("button", { name: "Nuevo Agente" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByRole("heading", { name: "Crear Nuevo Agente" })).toBeVisible();
  await expect(dialog.getByLabel("Modelo")).toHaveValue("google/gemini-2.5-flash");
  await expect(dialog.getByRole("option", { name: /\(recomendado\)/ })).toHaveText(
    "google/gemini-2.5-flash (recomendado)",
  );
  await expect(dialog.getByLabel("Temperatura")).toHaveValue("0.7");
  await expect(dialog.getByLabel("Prompt del sistema")).toHaveAttribute("rows", "6");
  await expect(dialog.getByLabel("Activo")).toHaveCount(0);
  await dialog.getByRole("button", { name: "Crear agente" }).click();
  await expect(dialog.getByText("El nombre es obligatorio")).toBeVisible();
  await expect(dialog.getByText("El prompt del sistema es obligatorio")).toBeVisible();
  await expect(dialog.getByLabel("Nombre")).toBeFocused();

  await dialog.getByLabel("Nombre").fill("Sofía");
  await dialog.getByLabel("Prompt del sistema").fill("Eres Sofía, la recepcionista de la clínica.");
  await dialog.getByRole("button", { name: "Crear agente" }).click();
  await expect(page.getByText("Agente creado correctamente")).toBeVisible();
  await expect(dialog).toHaveCount(0);

  const card = agentCards(page).filter({ hasText: "Sofía" });
  await expect(card.getByText("google/gemini-2.5-flash")).toBeVisible();
  await expect(card.getByText("0.7")).toBeVisible();
  await expect(card.getByText("Activo", { exact: true })).toBeVisible();
  await expect(card.getByText("WhatsApp desconectado")).toBeVisible();

  // Editing opens the dialog filled in; switching 'Activo' off deactivates the agent.
  await card.getByRole("button", { name: "Editar" }).click();
  await expect(dialog.getByRole("heading", { name: "Editar Agente" })).toBeVisible();
  await expect(dialog.getByLabel("Nombre")).toHaveValue("Sofía");
  await expect(dialog.getByLabel("Prompt del sistema")).toHaveValue(
    "Eres Sofía, la recepcionista de la clínica.",
  );
  await expect(dialog.getByLabel("Activo")).toBeChecked();
  // The slider works from the keyboard, and shows its value.
  await dialog.getByLabel("Temperatura").focus();
  for (let i = 0; i < 4; i++) await page.keyboard.press("ArrowLeft");
  await expect(dialog.getByLabel("Temperatura")).toHaveValue("0.3");
  await expect(dialog.getByText("0.3")).toBeVisible();
  await dialog.getByLabel("Activo").uncheck();
  await dialog.getByRole("button", { name: "Guardar Cambios" }).click();
  await expect(page.getByText("Agente actualizado correctamente")).toBeVisible();
  await expect(card.getByText("Inactivo")).toBeVisible();
  await expect(card.getByText("0.3")).toBeVisible();

  // Cancelling the confirmation keeps the agent; accepting it deletes it.
  await card.getByRole("button", { name: "Eliminar agente Sofía" }).click();
  const confirm = page.getByRole("dialog");
  await expect(confirm.getByText("¿Estás seguro de eliminar este agente?")).toBeVisible();
  await confirm.getByRole("button", { name: "Cancelar" }).click();
  await expect(confirm).toHaveCount(0);
  await expect(card).toBeVisible();

  await card.getByRole("button", { name: "Eliminar agente Sofía" }).click();
  await expect(confirm.getByText("¿Estás seguro de eliminar este agente?")).toBeVisible();
  await confirm.getByRole("button", { name: "Eliminar" }).click();
  await expect(page.getByText("Agente eliminado correctamente")).toBeVisible();
  await expect(page.getByText("Aún no tienes agentes")).toBeVisible();
});

test("the create dialog starts blank every time it opens", async ({ page }) => {
  await signedInOwner(page);
  await page.goto("/agents");
  await page.getByRole("button", { name: "Nuevo Agente" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nombre").fill("Borrador");
  await dialog.getByRole("button", { name: "Crear agente" }).click();
  await expect(dialog.getByText("El prompt del sistema es obligatorio")).toBeVisible();
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  await expect(dialog).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Nuevo Agente" })).toBeFocused();

  await page.getByRole("button", { name: "Nuevo Agente" }).click();
  await expect(dialog.getByLabel("Nombre")).toHaveValue("");
  await expect(dialog.getByText("El prompt del sistema es obligatorio")).toHaveCount(0);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);
});

test("/agents?new=1 opens the create dialog and drops the parameter", async ({ page }) => {
  await signedInOwner(page);
  const listRequests: string[] = [];
  page.on("request", (request) => {
    if (new URL(request.url()).pathname === "/api/v1/agents") listRequests.push(request.url());
  });
  await page.goto("/agents?new=1");
  await expect(
    page.getByRole("dialog").getByRole("heading", { name: "Crear Nuevo Agente" }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/agents$/);
  // Dropping the parameter changes nothing shown: the list is not read again.
  await expect(page.getByText("Aún no tienes agentes")).toBeVisible();
  expect(listRequests).toHaveLength(1);
});

test("the dashboard opens the new-agent dialog", async ({ page }) => {
  await signedInOwner(page);
  await page.goto("/dashboard");
  await page.getByRole("link", { name: "Crear primer agente" }).click();
  await expect(
    page.getByRole("dialog").getByRole("heading", { name: "Crear Nuevo Agente" }),
  ).toBeVisible();
});

test("'Probar agente' answers through the model, notices a handoff and restarts", async ({
  page,
}) => {
  const { headers } = await signedInOwner(page);
  await createAgent(page.request, headers, {
    name: "Sofía",
    model: "google/gemini-2.5-pro",
    system_prompt: "Eres Sofía, la recepcionista de la clínica.",
  });
  await page.goto("/agents");
  await agentCards(page)
    .filter({ hasText: "Sofía" })
    .getByRole("button", { name: "Probar agente" })
    .click();

  const sandbox = page.getByRole("dialog");
  await expect(sandbox.getByRole("heading", { name: "Probar agente: Sofía" })).toBeVisible();
  const box = sandbox.getByLabel("Escribe un mensaje");
  await expect(box).toBeFocused();
  await box.fill("¿Cuánto cuesta una limpieza?");
  await box.press("Enter");
  await expect(box).toHaveValue("");
  const log = sandbox.getByRole("log", { name: "Conversación de prueba" });
  await expect(log.getByText("¿Cuánto cuesta una limpieza?", { exact: true })).toBeVisible();
  await expect(
    log.getByText("Respuesta de prueba (google/gemini-2.5-pro): ¿Cuánto cuesta una limpieza?"),
  ).toBeVisible();

  // Shift+Enter is a new line; the send button sends too.
  await box.fill("Una pregunta más");
  await box.press("Shift+Enter");
  await box.pressSequentially("sobre el precio");
  await expect(box).toHaveValue("Una pregunta más\nsobre el precio");
  await sandbox.getByRole("button", { name: "Enviar" }).click();
  // The whole answer: a looser pattern also matches the log itself (an answer, then the
  // question) before the answer arrives, and the next Enter would meet a busy composer.
  await expect(
    log.getByText("Respuesta de prueba (google/gemini-2.5-pro): Una pregunta más sobre el precio"),
  ).toBeVisible();

  await box.fill("Quiero hablar con una persona");
  await box.press("Enter");
  await expect(log.getByText(/El agente pasaría la conversación a una persona: /)).toBeVisible();

  await sandbox.getByRole("button", { name: "Reiniciar" }).click();
  await expect(log.getByText("¿Cuánto cuesta una limpieza?")).toHaveCount(0);
  await expect(log.getByText(/El agente pasaría la conversación/)).toHaveCount(0);

  await sandbox.getByRole("button", { name: "Cerrar" }).click();
  await expect(sandbox).toHaveCount(0);
});

test("a team member with the agent role sees the agents without changing them", async ({
  page,
}) => {
  const request = page.request;
  const owner = await register(request, "Marta Ruiz");
  expect(
    (
      await request.post("/api/v1/organizations", {
        headers: bearer(owner.token),
        data: ORGANIZATION,
      })
    ).status(),
  ).toBe(201);
  await createAgent(request, bearer(owner.token), {
    name: "Recepción",
    system_prompt: "Eres la recepción de la clínica.",
  });
  const member = await register(request, "Luis Gil");
  const invitation = await request.post("/api/v1/organizations/invitations", {
    headers: bearer(owner.token),
    data: { email: member.email, role: "agent" },
  });
  expect(invitation.status()).toBe(201);
  const link = new URL((await invitation.json()).data.url);
  const accepted = await request.post("/api/v1/organizations/invitations/accept", {
    headers: bearer(member.token),
    data: { token: link.searchParams.get("invitation") },
  });
  expect(accepted.status()).toBe(200);
  await page.addInitScript((t) => localStorage.setItem("auth_token", t), member.token);

  await page.goto("/agents?new=1");
  const card = agentCards(page).filter({ hasText: "Recepción" });
  await expect(card).toBeVisible();
  await expect(page).toHaveURL(/\/agents$/);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Nuevo Agente" })).toHaveCount(0);
  await expect(card.getByRole("button", { name: "Editar" })).toHaveCount(0);
  await expect(card.getByRole("button", { name: /Eliminar agente/ })).toHaveCount(0);
  await expect(card.getByRole("button", { name: /Marcar como/ })).toHaveCount(0);
  await expect(card.getByRole("button", { name: "Probar agente" })).toBeVisible();
  await expect(card.getByRole("link", { name: "Chats" })).toBeVisible();
});

test("an agent without conversations offers to try it", async ({ page }) => {
  const { headers } = await signedInOwner(page);
  const agent = await createAgent(page.request, headers, {
    name: "Bot",
    system_prompt: "Eres útil.",
  });
  await page.goto("/agents");
  await agentCards(page).filter({ hasText: "Bot" }).getByRole("link", { name: "Chats" }).click();
  await expect(page).toHaveURL(new RegExp(`/chats/${agent.id}$`));
  await expect(page.getByRole("heading", { name: "Bot", level: 1 })).toBeVisible();
  await expect(page.getByText("Este agente aún no tiene conversaciones")).toBeVisible();
  await page.getByRole("button", { name: "Probar agente" }).click();
  await expect(
    page.getByRole("dialog").getByRole("heading", { name: "Probar agente: Bot" }),
  ).toBeVisible();
});

test("an unknown agent's chats say so", async ({ page }) => {
  await signedInOwner(page);
  await page.goto("/chats/no-such-agent");
  await expect(page.getByRole("heading", { name: "Agente no encontrado" })).toBeVisible();
  await page.getByRole("link", { name: "Volver a agentes" }).click();
  await expect(page).toHaveURL(/\/agents$/);
});

/** A connected number whose default agent is "Bot", and one customer message to it. */
async function agentWithCustomer(page: Page, text: string) {
  const { headers, phoneNumberId } = await signedInOwner(page, { connect: true });
  const agent = await createAgent(page.request, headers, {
    name: "Bot",
    system_prompt: "Eres útil.",
  });
  await page.request.patch("/api/v1/whatsapp-config", {
    headers,
    data: { default_agent_id: agent.id },
  });
  await deliver(page.request, customerMessage(phoneNumberId, "34655000001", text, "Rosa"));
  return { ...agent, phoneNumberId };
}

test("an agent's chats list its conversations and the AI reply", async ({ page }) => {
  const agent = await agentWithCustomer(page, "¿Abrís hoy?");
  await page.goto(`/chats/${agent.id}`);
  await expect(page.getByRole("heading", { name: "Bot", level: 1 })).toBeVisible();
  const contacts = page.getByRole("list", { name: "Contactos" });
  await expect(contacts.getByText("¿Abrís hoy?")).toBeVisible();
  await contacts.getByText("Rosa").click();
  const messages = page.getByRole("list", { name: "Mensajes" });
  // Exact: the bot's reply, which may already be there, quotes the customer.
  await expect(messages.getByText("¿Abrís hoy?", { exact: true })).toBeVisible();
  // The hub answers after a short pause: the bot's reply arrives live.
  await expect(
    messages.getByText("Respuesta de prueba (google/gemini-2.5-flash): ¿Abrís hoy?"),
  ).toBeVisible({ timeout: 15_000 });

  // The team answers from the same pane; blank text is not sent.
  const box = page.getByLabel("Escribe un mensaje");
  await box.fill("   ");
  await box.press("Enter");
  await expect(page.getByText("Mensaje enviado")).toHaveCount(0);
  await box.fill("Sí, hasta las 19:00");
  await box.press("Enter");
  await expect(messages.getByText("Sí, hasta las 19:00")).toBeVisible();
  await expect(box).toHaveValue("");
});

test("@mobile an agent's contacts and messages stack on a phone", async ({ page }) => {
  const agent = await agentWithCustomer(page, "¿Tenéis cita mañana?");
  await page.goto(`/chats/${agent.id}`);
  const contacts = page.getByRole("list", { name: "Contactos" });
  await contacts.getByText("Rosa").click();
  const messages = page.getByRole("list", { name: "Mensajes" });
  await expect(messages.getByText("¿Tenéis cita mañana?", { exact: true })).toBeInViewport();
  const listBox = await contacts.boundingBox();
  const paneBox = await messages.boundingBox();
  expect(listBox && paneBox && paneBox.y > listBox.y).toBe(true);
});

test("'Marcar interesados automáticamente' is on for a new agent and is saved", async ({
  page,
}) => {
  await signedInOwner(page);
  await page.goto("/agents");
  await page.getByRole("button", { name: "Nuevo Agente" }).click();
  const dialog = page.getByRole("dialog");
  const markLeads = dialog.getByRole("switch", { name: "Marcar interesados automáticamente" });
  await expect(markLeads).toBeChecked();
  await expect(markLeads).toHaveAccessibleDescription(
    "El agente marca la conversación como Interesado cuando el cliente muestra intención de compra.",
  );
  await dialog.getByLabel("Nombre").fill("Ventas");
  await dialog.getByLabel("Prompt del sistema").fill("Vendes tratamientos.");
  await markLeads.uncheck();
  await dialog.getByRole("button", { name: "Crear agente" }).click();
  await expect(page.getByText("Agente creado correctamente")).toBeVisible();

  // Stored: the editor opens with it off after a reload, and turning it on is saved too.
  await page.reload();
  const card = agentCards(page).filter({ hasText: "Ventas" });
  await card.getByRole("button", { name: "Editar" }).click();
  await expect(markLeads).not.toBeChecked();
  await markLeads.check();
  await dialog.getByRole("button", { name: "Guardar Cambios" }).click();
  await expect(page.getByText("Agente actualizado correctamente")).toBeVisible();
  await card.getByRole("button", { name: "Editar" }).click();
  await expect(markLeads).toBeChecked();
});

test("the WhatsApp badge is on the agent that answers the connected number", async ({ page }) => {
  const { headers } = await signedInOwner(page, { connect: true });
  const reception = await createAgent(page.request, headers, {
    name: "Recepción",
    system_prompt: "Eres la recepción.",
  });
  await createAgent(page.request, headers, { name: "Ventas", system_prompt: "Vendes." });
  await page.goto("/agents");
  const receptionCard = agentCards(page).filter({ hasText: "Recepción" });
  const salesCard = agentCards(page).filter({ hasText: "Ventas" });
  // A connected number without a default agent: nobody answers it.
  await expect(receptionCard.getByText("WhatsApp desconectado")).toBeVisible();
  await expect(salesCard.getByText("WhatsApp desconectado")).toBeVisible();

  const chosen = await page.request.patch("/api/v1/whatsapp-config", {
    headers,
    data: { default_agent_id: reception.id },
  });
  expect(chosen.status()).toBe(200);
  await page.reload();
  await expect(receptionCard.getByText("WhatsApp conectado")).toBeVisible();
  await expect(salesCard.getByText("WhatsApp desconectado")).toBeVisible();

  expect((await page.request.delete("/api/v1/whatsapp-config", { headers })).status()).toBe(200);
  await page.reload();
  await expect(receptionCard.getByText("WhatsApp desconectado")).toBeVisible();
});

test("a reload of /agents shows the list and the month's usage again", async ({ page }) => {
  const { headers } = await signedInOwner(page);
  await createAgent(page.request, headers, {
    name: "Recepción",
    system_prompt: "Eres la recepción.",
  });
  await page.goto("/agents");
  const card = agentCards(page).filter({ hasText: "Recepción" });
  const usage = page.getByRole("region", { name: "Uso de IA" });
  await expect(card).toBeVisible();
  await expect(usage).toContainText("Uso de IA este mes");

  await page.reload();
  await expect(card).toBeVisible();
  await expect(usage).toContainText("Uso de IA este mes");
  await expect(page.getByRole("alert")).toHaveCount(0);

  // Leaving and coming back by the sidebar reads the list again (an agent added meanwhile).
  await createAgent(page.request, headers, { name: "Ventas", system_prompt: "Vendes." });
  const nav = page.getByRole("navigation", { name: "Principal" });
  await nav.getByRole("link", { name: "Dashboard" }).click();
  await nav.getByRole("link", { name: "Agentes" }).click();
  await expect(agentCards(page).filter({ hasText: "Ventas" })).toBeVisible();
});

test("a realtime message moves its contact to the top without a list request", async ({ page }) => {
  const agent = await agentWithCustomer(page, "Primero");
  await deliver(
    page.request,
    customerMessage(agent.phoneNumberId, "34655000002", "Segundo", "Beñat"),
  );
  const lists = countRequests(page, `/api/v1/agents/${agent.id}/conversations`);

  await page.goto(`/chats/${agent.id}`);
  const contacts = page.getByRole("list", { name: "Contactos" }).getByRole("listitem");
  // The bot answers both (live too): once it has, nothing else moves the list.
  await expect(contacts.filter({ hasText: "Respuesta de prueba" })).toHaveCount(2, {
    timeout: 15_000,
  });
  await expect(contacts.first()).toContainText("Beñat");
  // The socket's opening reloads the list once (what a gap may have missed): let it finish.
  await expect(page.getByText("Tiempo Real", { exact: true })).toBeVisible();
  await expect.poll(() => lists.inFlight).toBe(0);
  const before = lists.sent;

  // WhatsApp stamps messages to the second: Rosa's says it came a second after the bot's last
  // reply (which may share this very second), so it sorts above it for the server too.
  await deliver(
    page.request,
    inboundMessage({
      phoneNumberId: agent.phoneNumberId,
      from: "34655000001",
      text: "¿Tenéis hueco hoy?",
      name: "Rosa",
      timestamp: String(Math.floor(Date.now() / 1000) + 1),
    }),
  );
  await expect(contacts.first()).toContainText("Rosa");
  await expect(contacts.first()).toContainText("¿Tenéis hueco hoy?");
  await expect(contacts).toHaveCount(2);
  expect(lists.sent - before).toBe(0);
});

test("a failed load says so on the page and 'Reintentar' loads it again", async ({ page }) => {
  const { headers } = await signedInOwner(page);
  await createAgent(page.request, headers, { name: "Recepción", system_prompt: "Eres útil." });
  const failing = "**/api/v1/agents";
  await page.route(failing, (route) =>
    route.fulfill({
      status: 503,
      contentType: "application/json",
      body: JSON.stringify({ error: "unavailable", message: "Servicio no disponible" }),
    }),
  );
  await page.goto("/agents");
  const alert = page.getByRole("alert");
  await expect(alert.getByRole("heading", { name: "Error al cargar los agentes" })).toBeVisible();
  await expect(alert).toContainText("Servicio no disponible");

  await page.unroute(failing);
  await alert.getByRole("link", { name: "Reintentar" }).click();
  await expect(agentCards(page).filter({ hasText: "Recepción" })).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
});
