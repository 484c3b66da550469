import { expect, test } from "@playwright/test";
import { customerMessage, deliver, signedInOwner } from "./support";

test("an agent in Borrador prepares a suggestion that a person edits and sends", async ({
  page,
}) => {
  const { headers, phoneNumberId } = await signedInOwner(page, { connect: true });

  // The agent is created in Borrador from the dialog; its card says so.
  await page.goto("/agents");
  await expect(page.getByText(/Uso de IA este mes: 0 de 5\.000\.000 tokens/)).toBeVisible();
  await page.getByRole("button", { name: "Nuevo Agente" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByLabel("Nombre").fill("Sofía");
  await dialog.getByLabel("Prompt del sistema").fill("Eres Sofía, la recepcionista.");
  await expect(dialog.getByRole("radio", { name: /Automático/ })).toBeChecked();
  await dialog.getByRole("radio", { name: /Borrador/ }).check();
  await dialog.getByRole("button", { name: "Crear agente" }).click();
  await expect(page.getByText("Agente creado correctamente")).toBeVisible();
  const card = page.getByRole("list", { name: "Agentes" }).getByRole("listitem");
  await expect(card.getByText("Modo: Borrador")).toBeVisible();

  const agents = await (await page.request.get("/api/v1/agents", { headers })).json();
  await page.request.patch("/api/v1/whatsapp-config", {
    headers,
    data: { default_agent_id: agents.data[0].id },
  });

  // The customer writes; the suggestion arrives in the composer, and nothing was sent.
  await deliver(
    page.request,
    customerMessage(phoneNumberId, "34655000077", "¿Abrís los sábados?", "Rosa"),
  );
  const list = await (await page.request.get("/api/v1/conversations", { headers })).json();
  await page.goto(`/conversations/${list.data.conversations[0].id}`);
  const suggestion = page.getByRole("region", { name: "Sugerencia de IA" });
  await expect(suggestion).toBeVisible({ timeout: 15_000 });
  const box = page.getByLabel("Escribe un mensaje");
  await expect(box).toHaveValue(
    "Respuesta de prueba (google/gemini-2.5-flash): ¿Abrís los sábados?",
  );
  const messages = page.getByRole("list", { name: "Mensajes" });
  await expect(messages.getByText("Agente IA")).toHaveCount(0);

  // A person edits it and sends it: a message of theirs, noted as suggested.
  await box.fill("Sí, los sábados de 10:00 a 14:00.");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  const sent = messages
    .getByRole("listitem")
    .filter({ hasText: "Sí, los sábados de 10:00 a 14:00." });
  await expect(sent.getByText("Sugerido por IA")).toBeVisible();
  await expect(suggestion).toHaveCount(0);
  await expect(box).toHaveValue("");

  // "Sugerir respuesta" asks for one on demand; "Descartar" throws it away.
  await page.getByRole("button", { name: "Sugerir respuesta" }).click();
  await expect(suggestion).toBeVisible();
  await expect(box).toHaveValue(/Respuesta de prueba/);
  await suggestion.getByRole("button", { name: "Descartar" }).click();
  await expect(suggestion).toHaveCount(0);
  await expect(box).toHaveValue("");
  await expect(page.getByRole("button", { name: "Sugerir respuesta" })).toBeVisible();
});

test("the owner sets the monthly AI budget; past it the team is told once and the customer gets nothing", async ({
  page,
}) => {
  const { headers, phoneNumberId } = await signedInOwner(page, { connect: true });
  const agent = await page.request.post("/api/v1/agents", {
    headers,
    data: { name: "Sofía", system_prompt: "Eres Sofía." },
  });
  await page.request.patch("/api/v1/whatsapp-config", {
    headers,
    data: { default_agent_id: (await agent.json()).data.id },
  });

  await page.goto("/settings/organization");
  const budget = page.getByLabel("Tokens al mes");
  await expect(budget).toHaveValue("5000000");
  await budget.fill("0");
  await page.getByRole("button", { name: "Guardar presupuesto" }).click();
  await expect(page.getByText("Presupuesto de IA actualizado")).toBeVisible();

  await page.goto("/agents");
  await expect(page.getByText(/Uso de IA este mes: 0 de 0 tokens/)).toBeVisible();
  await expect(page.getByText(/Presupuesto agotado/)).toBeVisible();

  // A refused reply shows one banner (not a toast per refusal); closed, it stays closed.
  const from = "34655000088";
  await deliver(page.request, customerMessage(phoneNumberId, from, "¿Abrís hoy?", "Rosa"));
  const notice = page
    .getByRole("alert")
    .filter({ hasText: "Se agotó el presupuesto mensual de IA" });
  await expect(notice).toBeVisible({ timeout: 15_000 });
  await deliver(page.request, customerMessage(phoneNumberId, from, "¿Hola?", "Rosa"));
  await expect(notice).toHaveCount(1);
  await notice.getByRole("button", { name: "Cerrar" }).click();
  await expect(notice).toHaveCount(0);

  const list = await (await page.request.get("/api/v1/conversations", { headers })).json();
  const conversationId = list.data.conversations[0].id;
  const messages = await (
    await page.request.get(`/api/v1/conversations/${conversationId}/messages`, { headers })
  ).json();
  expect(messages.data.messages.map((m: { direction: string }) => m.direction)).toEqual([
    "inbound",
    "inbound",
  ]);
});

test("an agent's chats show its suggestion too, and a person sends it from there", async ({
  page,
}) => {
  const { headers, phoneNumberId } = await signedInOwner(page, { connect: true });
  const created = await page.request.post("/api/v1/agents", {
    headers,
    data: { name: "Sofía", system_prompt: "Eres Sofía.", mode: "draft" },
  });
  expect(created.status()).toBe(201);
  const agent = (await created.json()).data as { id: string };
  await page.request.patch("/api/v1/whatsapp-config", {
    headers,
    data: { default_agent_id: agent.id },
  });
  await deliver(
    page.request,
    customerMessage(phoneNumberId, "34655000078", "¿Tenéis cita mañana?", "Marta"),
  );

  await page.goto(`/chats/${agent.id}`);
  await page.getByRole("list", { name: "Contactos" }).getByText("Marta").click();
  const suggestion = page.getByRole("region", { name: "Sugerencia de IA" });
  await expect(suggestion).toBeVisible({ timeout: 15_000 });
  const box = page.getByLabel("Escribe un mensaje");
  await expect(box).toHaveValue(
    "Respuesta de prueba (google/gemini-2.5-flash): ¿Tenéis cita mañana?",
  );
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  const sent = page
    .getByRole("list", { name: "Mensajes" })
    .getByRole("listitem")
    .filter({ hasText: "Respuesta de prueba" });
  await expect(sent.getByText("Sugerido por IA")).toBeVisible();
  await expect(suggestion).toHaveCount(0);
});
