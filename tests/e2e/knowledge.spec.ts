// Issue 18, knowledge: the business teaches its agents (write, import a PDF) and the answer
// shows what it was based on ("Fuentes").
import { expect, test } from "@playwright/test";
import { textPdf } from "../fixtures/pdf";
import { signedInOwner } from "./support";

test("import a PDF of prices, ask in the sandbox, see the answer with its source", async ({
  page,
}) => {
  const { headers } = await signedInOwner(page);
  const agent = await page.request.post("/api/v1/agents", {
    headers,
    data: { name: "Sofía", system_prompt: "Eres Sofía, la recepcionista de la clínica." },
  });
  expect(agent.status()).toBe(201);

  await page.goto("/agents");
  await page.getByRole("link", { name: "Conocimiento" }).click();
  await expect(page).toHaveURL(/\/agents\/knowledge$/);
  await expect(page.getByRole("heading", { name: "Conocimiento", level: 1 })).toBeVisible();
  await expect(page.getByText("Aún no hay conocimiento")).toBeVisible();
  await expect(page.getByText(/hasta 5 MB y 100\.000 caracteres/)).toBeVisible();

  await page.getByLabel("Importar archivo").setInputFiles({
    name: "Precios clínica.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from(
      textPdf(["Tarifas 2026", "Limpieza dental: 50 euros", "Empaste: 80 euros"]),
    ),
  });
  const entries = page.getByRole("list", { name: "Entradas de conocimiento" });
  await expect(entries.getByRole("heading", { name: "Precios clínica" })).toBeVisible();
  await expect(entries.getByText(/Limpieza dental: 50 euros/)).toBeVisible();
  await expect(
    entries.getByText("Importado de Precios clínica.pdf", { exact: false }),
  ).toBeVisible();

  // A scanned PDF is refused, and says why.
  await page.getByLabel("Importar archivo").setInputFiles({
    name: "escaneo.pdf",
    mimeType: "application/pdf",
    buffer: Buffer.from("%PDF-1.4\n%%EOF\n"),
  });
  await expect(page.getByText("No se pudo importar el archivo")).toBeVisible();
  await expect(entries.getByRole("listitem")).toHaveCount(1);

  await page.getByRole("link", { name: "← Agentes" }).click();
  await page
    .getByRole("list", { name: "Agentes" })
    .getByRole("listitem")
    .filter({ hasText: "Sofía" })
    .getByRole("button", { name: "Probar agente" })
    .click();
  const sandbox = page.getByRole("dialog");
  const box = sandbox.getByLabel("Escribe un mensaje");
  await box.fill("¿Cuánto cuesta una limpieza dental?");
  await box.press("Enter");
  const log = sandbox.getByRole("log", { name: "Conversación de prueba" });
  await expect(
    log.getByText(/¿Cuánto cuesta una limpieza dental\? \(según «Precios clínica»\)/),
  ).toBeVisible();
  await expect(
    log.getByRole("list", { name: "Fuentes" }).getByText("Precios clínica"),
  ).toBeVisible();
});

test("write, edit and delete an entry; limit an agent to some entries", async ({ page }) => {
  const { headers } = await signedInOwner(page);
  await page.goto("/agents/knowledge");
  await page.getByRole("button", { name: "Nueva entrada" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Crear entrada" }).click();
  await expect(dialog.getByText("El título es obligatorio")).toBeVisible();
  await expect(dialog.getByLabel("Título")).toBeFocused();
  await dialog.getByLabel("Título").fill("Horario de verano");
  await dialog.getByLabel("Contenido").fill("En agosto abrimos de 8 a 15.");
  await dialog.getByRole("button", { name: "Crear entrada" }).click();
  await expect(dialog).toHaveCount(0);
  const entries = page.getByRole("list", { name: "Entradas de conocimiento" });
  await expect(entries.getByText("En agosto abrimos de 8 a 15.")).toBeVisible();

  await entries.getByRole("button", { name: "Editar «Horario de verano»" }).click();
  await expect(dialog.getByLabel("Contenido")).toHaveValue("En agosto abrimos de 8 a 15.");
  await dialog.getByLabel("Contenido").fill("En agosto abrimos de 9 a 14.");
  await dialog.getByRole("button", { name: "Guardar cambios" }).click();
  await expect(entries.getByText("En agosto abrimos de 9 a 14.")).toBeVisible();

  // An agent limited to that entry.
  await page.goto("/agents");
  await page.getByRole("button", { name: "Nuevo Agente" }).click();
  const agentDialog = page.getByRole("dialog");
  await agentDialog.getByLabel("Nombre").fill("Verano");
  await agentDialog.getByLabel("Prompt del sistema").fill("Respondes sobre el horario.");
  await agentDialog.getByLabel("Solo estas entradas").check();
  await agentDialog.getByLabel("Horario de verano").check();
  await agentDialog.getByRole("button", { name: "Crear agente" }).click();
  await expect(agentDialog).toHaveCount(0);
  const agents = await (await page.request.get("/api/v1/agents", { headers })).json();
  const created = agents.data.find((a: { name: string }) => a.name === "Verano");
  expect(created.knowledge_ids).toHaveLength(1);

  await page.goto("/agents/knowledge");
  await entries.getByRole("button", { name: "Eliminar «Horario de verano»" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Eliminar" }).click();
  await expect(page.getByText("Aún no hay conocimiento")).toBeVisible();
});

test("the list shows 50 entries and the organization's usage, and 'Cargar más' shows the rest", async ({
  page,
}) => {
  const { headers } = await signedInOwner(page);
  for (let i = 1; i <= 51; i++) {
    const res = await page.request.post("/api/v1/knowledge", {
      headers,
      data: { title: `Pregunta ${i}`, content: `Respuesta ${i}` },
    });
    expect(res.status()).toBe(201);
  }
  await page.goto("/agents/knowledge");
  const entries = page
    .getByRole("list", { name: "Entradas de conocimiento" })
    .getByRole("listitem");
  await expect(entries).toHaveCount(50);
  await expect(
    page.getByText(/^51 de 500 entradas · \d+ de 2\.000\.000 caracteres$/),
  ).toBeVisible();
  // The oldest is the one left out; asking for more brings it, and the URL says how many.
  await expect(page.getByRole("heading", { name: "Pregunta 1", exact: true })).toHaveCount(0);
  await page.getByRole("link", { name: "Cargar más" }).click();
  await expect(entries).toHaveCount(51);
  await expect(page.getByRole("heading", { name: "Pregunta 1", exact: true })).toBeVisible();
  await expect(page).toHaveURL(/\?limit=100$/);
  await expect(page.getByRole("link", { name: "Cargar más" })).toHaveCount(0);
});
