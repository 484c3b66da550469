// The team inbox for people (contract section 14): a conversation assigned to a colleague is
// in their "Mis conversaciones", a note's @mention tells the colleague live (its toast's "Ver"
// marks it read) and an open Menciones catches up after the socket was down, and labels sort
// the inbox (the filter in the URL).
import { expect, test, type Page } from "@playwright/test";
import {
  countRequests,
  customerMessage,
  deliver,
  droppableSocket,
  signedInAgent,
  signedInOwner,
} from "./support";

/** The owner's number receives a customer's message; answers the customer's phone. */
async function customerWrites(page: Page, phoneNumberId: string, name: string) {
  const from = `346${Math.floor(10_000_000 + Math.random() * 89_999_999)}`;
  await deliver(page.request, customerMessage(phoneNumberId, from, "Hola, ¿tenéis cita?", name));
  return from;
}

const rows = (page: Page) =>
  page.getByRole("list", { name: "Conversaciones" }).getByRole("listitem");

/** The owner writes an internal note on the organization's (one) conversation; its id. */
async function ownerWritesNote(page: Page, headers: Record<string, string>, content: string) {
  const conversations = await page.request.get("/api/v1/conversations", { headers });
  const conversationId: string = (await conversations.json()).data.conversations[0].id;
  const note = await page.request.post(`/api/v1/conversations/${conversationId}/notes`, {
    headers,
    data: { content },
  });
  expect(note.status()).toBe(201);
  return conversationId;
}

const noMentions = (page: Page) => page.getByText("No tienes menciones sin leer.");

test("assigned to a colleague, the conversation is in their Mis conversaciones", async ({
  page,
  browser,
}) => {
  const owner = await signedInOwner(page, { connect: true });
  const pedro = await signedInAgent(page, browser, owner.headers);
  await customerWrites(page, owner.phoneNumberId, "Lucía Gómez");
  await customerWrites(page, owner.phoneNumberId, "Tomás Vidal");

  await page.goto("/conversations");
  await rows(page).filter({ hasText: "Lucía Gómez" }).getByRole("link").click();
  await page.getByLabel("Asignado a").selectOption({ label: "Pedro Sanz" });
  await expect(page.getByText("Conversación asignada")).toBeVisible();
  await expect(
    page.getByText("La IA no responde mientras una persona lleva la conversación."),
  ).toBeVisible();
  // The row shows who holds it.
  await expect(
    rows(page).filter({ hasText: "Lucía Gómez" }).getByTitle("Asignada a Pedro Sanz"),
  ).toBeVisible();

  await pedro.page.goto("/dashboard");
  await pedro.page
    .getByRole("navigation", { name: "Principal" })
    .getByRole("link", { name: "Mis conversaciones" })
    .click();
  await expect(pedro.page).toHaveURL(/assignee_id=me/);
  await expect(rows(pedro.page)).toHaveCount(1);
  await expect(rows(pedro.page).first()).toContainText("Lucía Gómez");
  await pedro.context.close();
});

test("a note's @mention tells the colleague live, and lists it under Menciones", async ({
  page,
  browser,
}) => {
  const owner = await signedInOwner(page, { connect: true });
  const pedro = await signedInAgent(page, browser, owner.headers);
  await customerWrites(page, owner.phoneNumberId, "Elena Martín");
  await pedro.page.goto("/dashboard");
  await expect(pedro.page.getByText("Tiempo Real").first()).toBeVisible();

  await page.goto("/conversations");
  await rows(page).filter({ hasText: "Elena Martín" }).getByRole("link").click();
  await page.getByRole("button", { name: "Nota interna" }).click();
  const note = page.getByLabel("Escribe una nota interna");
  await note.fill("Llama a la clienta, ");
  await note.pressSequentially("@Ped");
  await expect(
    page.getByRole("listbox", { name: "Mencionar a" }).getByRole("option", { name: "Pedro Sanz" }),
  ).toBeVisible();
  await note.press("Enter");
  await expect(note).toHaveValue("Llama a la clienta, @Pedro Sanz ");
  await note.pressSequentially("mañana a las 10");
  await note.press("Enter");
  // In the thread, in its own colour, never sent to WhatsApp.
  const written = page.getByRole("list", { name: "Mensajes" }).getByText(/Nota interna/);
  await expect(written).toBeVisible();
  await expect(
    page
      .getByRole("list", { name: "Mensajes" })
      .getByText("Llama a la clienta, @Pedro Sanz mañana a las 10"),
  ).toBeVisible();

  // Pedro, on another screen, is told at once.
  await expect(
    pedro.page
      .locator("[data-sonner-toast]")
      .filter({ hasText: "Marta Ruiz te mencionó en una nota" }),
  ).toBeVisible();
  await pedro.page
    .getByRole("navigation", { name: "Principal" })
    .getByRole("link", { name: "Menciones" })
    .click();
  const mentions = pedro.page.getByRole("list", { name: "Menciones sin leer" });
  await expect(mentions.getByText("Marta Ruiz te mencionó")).toBeVisible();
  await mentions.getByRole("button").first().click();
  await expect(pedro.page).toHaveURL(/\/conversations\/[\w-]+$/);
  await expect(
    pedro.page
      .getByRole("list", { name: "Mensajes" })
      .getByText("Llama a la clienta, @Pedro Sanz mañana a las 10"),
  ).toBeVisible();
  // Read: no longer listed.
  await pedro.page.goto("/mentions");
  await expect(pedro.page.getByText("No tienes menciones sin leer.")).toBeVisible();
  await pedro.context.close();
});

test("a mention that comes while Menciones is open joins the list, with no new read", async ({
  page,
  browser,
}) => {
  const owner = await signedInOwner(page, { connect: true });
  const pedro = await signedInAgent(page, browser, owner.headers);
  await customerWrites(page, owner.phoneNumberId, "Clara Ríos");
  const mentionReads = countRequests(pedro.page, "/api/v1/mentions");
  await pedro.page.goto("/mentions");
  await expect(noMentions(pedro.page)).toBeVisible();
  await expect(pedro.page.getByText("Tiempo Real").first()).toBeVisible();
  // The load's read, and the one when the socket first opened (what came before it is lost).
  await expect.poll(() => mentionReads.sent).toBe(2);
  await expect.poll(() => mentionReads.inFlight).toBe(0);
  const readsBefore = mentionReads.sent;

  await ownerWritesNote(page, owner.headers, "@Pedro Sanz ¿la llamas tú esta tarde?");

  const listed = pedro.page.getByRole("list", { name: "Menciones sin leer" });
  await expect(listed.getByText("Marta Ruiz te mencionó")).toBeVisible();
  await expect(listed.getByText("¿la llamas tú esta tarde?", { exact: false })).toBeVisible();
  await expect(listed.getByRole("listitem")).toHaveCount(1);
  // Laid over the list from the live store: the mentions were not read again.
  expect(mentionReads.sent).toBe(readsBefore);
  await pedro.context.close();
});

test("Ver on a mention's toast opens its conversation and marks the mention read", async ({
  page,
  browser,
}) => {
  const owner = await signedInOwner(page, { connect: true });
  const pedro = await signedInAgent(page, browser, owner.headers);
  await customerWrites(page, owner.phoneNumberId, "Rosa Prieto");
  await pedro.page.goto("/dashboard");
  await expect(pedro.page.getByText("Tiempo Real").first()).toBeVisible();

  const text = "@Pedro Sanz ¿confirmas tú la cita de Rosa?";
  const conversationId = await ownerWritesNote(page, owner.headers, text);
  const told = pedro.page
    .locator("[data-sonner-toast]")
    .filter({ hasText: "Marta Ruiz te mencionó en una nota" });
  await told.getByRole("button", { name: "Ver" }).click();
  await expect(pedro.page).toHaveURL(new RegExp(`/conversations/${conversationId}$`));
  await expect(pedro.page.getByRole("list", { name: "Mensajes" }).getByText(text)).toBeVisible();

  // Opened is read: Menciones no longer lists it.
  await pedro.page
    .getByRole("navigation", { name: "Principal" })
    .getByRole("link", { name: "Menciones" })
    .click();
  await expect(pedro.page).toHaveURL(/\/mentions$/);
  await expect(noMentions(pedro.page)).toBeVisible();
  await pedro.context.close();
});

test("a mention sent while the socket was down joins an open Menciones once it is back", async ({
  page,
  browser,
}) => {
  const owner = await signedInOwner(page, { connect: true });
  const pedro = await signedInAgent(page, browser, owner.headers);
  await customerWrites(page, owner.phoneNumberId, "Jorge Lara");
  const socket = await droppableSocket(pedro.page);
  await pedro.page.goto("/mentions");
  await expect(noMentions(pedro.page)).toBeVisible();
  await expect(pedro.page.getByText("Tiempo Real").first()).toBeVisible();

  // The hub restarts: the socket drops and, for a while, cannot be opened again.
  socket.open = false;
  await socket.drop();
  await expect(pedro.page.getByText("Desconectado", { exact: true }).first()).toBeVisible();
  await ownerWritesNote(page, owner.headers, "@Pedro Sanz ¿le mandas el presupuesto a Jorge?");
  // The console tried to come back meanwhile and could not: the mention reached no socket.
  await expect.poll(() => socket.refused).toBeGreaterThan(0);
  await expect(noMentions(pedro.page)).toBeVisible();

  socket.open = true;
  const listed = pedro.page.getByRole("list", { name: "Menciones sin leer" });
  await expect(
    listed.getByText("¿le mandas el presupuesto a Jorge?", { exact: false }),
  ).toBeVisible();
  await expect(listed.getByRole("listitem")).toHaveCount(1);
  expect(socket.opened).toBe(2);
  await pedro.context.close();
});

test("a label made in Configuración goes on a conversation and filters the inbox", async ({
  page,
}) => {
  const owner = await signedInOwner(page, { connect: true });
  await customerWrites(page, owner.phoneNumberId, "Sara Núñez");
  await customerWrites(page, owner.phoneNumberId, "Iván Ortega");

  await page.goto("/settings/organization");
  const section = page.getByRole("region", { name: "Etiquetas" });
  await section.getByLabel("Nueva etiqueta").fill("VIP");
  await section.getByRole("button", { name: "Crear etiqueta" }).click();
  await expect(section.getByRole("listitem").filter({ hasText: "VIP" })).toBeVisible();

  await page.goto("/conversations");
  await rows(page).filter({ hasText: "Sara Núñez" }).getByRole("link").click();
  await page.getByRole("button", { name: "Detalles" }).click();
  await page.getByRole("button", { name: "Etiquetas" }).click();
  await page.getByRole("option", { name: "VIP" }).click();
  await page.keyboard.press("Escape");
  await expect(rows(page).filter({ hasText: "Sara Núñez" }).getByText("VIP")).toBeVisible();

  await page.getByRole("button", { name: "Filtros", exact: true }).click();
  await page.getByLabel("Filtrar por etiqueta").selectOption({ label: "VIP" });
  await expect(page).toHaveURL(/label_id=/);
  await expect(rows(page)).toHaveCount(1);
  await expect(rows(page).first()).toContainText("Sara Núñez");
  // The filter is in the URL: a reload keeps it.
  await page.reload();
  await expect(rows(page)).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Quitar filtro Etiqueta: VIP" })).toBeVisible();
});

test("the header's Disponible / Ausente comes with the session and stays across a reload", async ({
  page,
}) => {
  await signedInOwner(page);
  const members = countRequests(page, "/api/v1/organizations/members");
  await page.goto("/dashboard");
  const availability = page.getByRole("switch", { name: "Disponible" });
  await expect(availability).toBeChecked();
  // Read with /auth/me: the dashboard asks for no list of members to show it.
  expect(members.sent).toBe(0);

  // The change is saved (its PATCH answered) before the reload reads it back.
  const saved = page.waitForResponse(
    (response) =>
      response.request().method() === "PATCH" &&
      new URL(response.url()).pathname.startsWith("/api/v1/organizations/members/"),
  );
  await availability.click();
  const away = page.getByRole("switch", { name: "Ausente" });
  await expect(away).not.toBeChecked();
  expect((await saved).status()).toBe(200);
  await page.reload();
  await expect(page.getByRole("switch", { name: "Ausente" })).not.toBeChecked();
  await page.goto("/settings/organization");
  const own = page.getByLabel("Disponibilidad de Marta Ruiz");
  await expect(own).toHaveValue("no");
  // Changed from the team's list, the header follows.
  await own.selectOption({ label: "Disponible" });
  await expect(page.getByRole("switch", { name: "Disponible" })).toBeChecked();
});

test("a refused change of Disponible / Ausente is said, and the switch goes back", async ({
  page,
}) => {
  await signedInOwner(page);
  await page.goto("/dashboard");
  await expect(page.getByRole("switch", { name: "Disponible" })).toBeChecked();
  await page.route("**/api/v1/organizations/members/*", (route) =>
    route.request().method() === "PATCH"
      ? route.fulfill({
          status: 503,
          json: { error: { code: "unavailable", message: "Servicio no disponible" } },
        })
      : route.fallback(),
  );

  await page.getByRole("switch", { name: "Disponible" }).click();
  await expect(
    page.locator("[data-sonner-toast]").filter({ hasText: "No se pudo cambiar tu disponibilidad" }),
  ).toBeVisible();
  await expect(page.getByRole("switch", { name: "Disponible" })).toBeChecked();
  await page.unroute("**/api/v1/organizations/members/*");
  await page.reload();
  await expect(page.getByRole("switch", { name: "Disponible" })).toBeChecked();
});
