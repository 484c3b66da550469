// Faults survived in the console: Meta failing a send ("Reintentar"), the realtime socket
// dropping while a customer writes, a session the server revokes, and refused requests beside good ones.
import { expect, test, type Page } from "@playwright/test";
import { customerMessage, deliver, droppableSocket, signedInOwner } from "./support";
import { E2E_SETTINGS } from "./settings.mjs";

const messages = (page: Page) => page.getByRole("list", { name: "Mensajes" });

/** A signed-in owner on the conversation of a customer who has just written. */
async function openConversation(page: Page, from: string) {
  const owner = await signedInOwner(page, { connect: true });
  await deliver(page.request, customerMessage(owner.phoneNumberId, from, "Hola", "Lucía Pérez"));
  const list = await page.request.get("/api/v1/conversations", { headers: owner.headers });
  const [conversation] = (await list.json()).data.conversations;
  return { ...owner, conversationId: conversation.id as string };
}

test("a send Meta refuses shows its reason and Reintentar, and goes once when retried", async ({
  page,
}) => {
  const { conversationId, phoneNumberId } = await openConversation(page, "34677000001");
  const text = `Le confirmo la cita ${Date.now()}`;
  const failed = await page.request.post(`http://127.0.0.1:${E2E_SETTINGS.graphPort}/__fake/fail`, {
    data: {
      path: `/v25.0/${phoneNumberId}/messages`,
      contains: text,
      status: 503,
      error: { message: "Service temporarily unavailable", code: 131000 },
    },
  });
  expect(failed.ok()).toBe(true);

  await page.goto(`/conversations/${conversationId}`);
  const composer = page.getByLabel("Escribe un mensaje");
  await composer.fill(text);
  await composer.press("Enter");
  await expect(page.getByText("Error al enviar el mensaje")).toBeVisible();
  const bubble = messages(page).getByRole("listitem").filter({ hasText: text });
  await expect(
    bubble.getByText("WhatsApp no pudo enviar el mensaje por un error desconocido."),
  ).toBeVisible();

  await bubble.getByRole("button", { name: "Reintentar" }).click();
  await expect(page.getByText("Mensaje enviado")).toBeVisible();
  await expect(bubble.getByRole("button", { name: "Reintentar" })).toHaveCount(0);
  await expect(bubble.getByText("WhatsApp no pudo enviar")).toHaveCount(0);
  await expect(messages(page).getByText(text)).toHaveCount(1);
  // The fake phone reads it: the same bubble goes on to the double check.
  await expect(bubble.getByLabel("Leído")).toBeVisible();
});

test("after the socket drops, what arrived meanwhile shows once the console is back", async ({
  page,
}) => {
  const socket = await droppableSocket(page);
  const { conversationId, phoneNumberId } = await openConversation(page, "34677000002");
  await page.goto(`/conversations/${conversationId}`);
  await expect(messages(page).getByText("Hola", { exact: true })).toBeVisible();
  await expect(page.getByText("Tiempo Real", { exact: true })).toBeVisible();

  // The hub restarts: the socket drops and, for a while, cannot be opened again.
  socket.open = false;
  await socket.drop();
  await expect(page.getByText("Desconectado")).toBeVisible();
  const offline = "¿Me oís? Escribí sin conexión";
  await deliver(page.request, customerMessage(phoneNumberId, "34677000002", offline));
  // The console tried to come back while the customer wrote, and could not.
  await expect.poll(() => socket.refused).toBeGreaterThan(0);
  await expect(messages(page).getByText(offline)).toHaveCount(0);

  socket.open = true;
  await expect(messages(page).getByText(offline)).toBeVisible();
  // Live again: a new message arrives once, and nothing already shown is repeated.
  await deliver(page.request, customerMessage(phoneNumberId, "34677000002", "Y ahora en vivo"));
  await expect(messages(page).getByText("Y ahora en vivo")).toBeVisible();
  await expect(messages(page).getByRole("listitem")).toHaveCount(3);
  await expect(messages(page).getByText(offline)).toHaveCount(1);
  await expect(messages(page).getByText("Hola", { exact: true })).toHaveCount(1);
});

test("a session the server revokes (close code 4001) is signed out, not reconnected", async ({
  page,
}) => {
  const socket = await droppableSocket(page);
  const { conversationId } = await openConversation(page, "34677000003");
  await page.goto(`/conversations/${conversationId}`);
  await expect(page.getByText("Tiempo Real", { exact: true })).toBeVisible();
  const opened = socket.opened;

  await socket.drop(4001, "Sesión revocada");
  await expect(page).toHaveURL(/\/auth$/);
  await expect(page.getByText("Tu sesión se ha cerrado")).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();
  // No new socket was opened with the revoked session.
  expect(socket.opened).toBe(opened);
  expect(socket.refused).toBe(0);
});

test("a session read the server fails to answer keeps the session and is tried again", async ({
  page,
}) => {
  await signedInOwner(page);
  // The first two reads of the session fail as a busy or restarting server does.
  let refused = 0;
  await page.route("**/api/v1/auth/me", async (route) => {
    if (refused < 2) {
      refused += 1;
      return route.fulfill({
        status: 503,
        json: { error: "unavailable", message: "Servicio no disponible" },
      });
    }
    return route.fallback();
  });
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { level: 1, name: "Dashboard" })).toBeVisible();
  expect(refused).toBe(2);
  expect(await page.evaluate(() => localStorage.getItem("auth_token"))).not.toBeNull();
});

test("refused writes, and bodies the store never reads, leave the requests after them unharmed", async ({
  page,
  baseURL,
}) => {
  const { headers } = await signedInOwner(page);
  const json = { ...headers, "Content-Type": "application/json" };
  // Node's fetch, one request after another over a kept-alive connection, as a console's are.
  const status = async (path: string, init: RequestInit = {}) =>
    (await fetch(`${baseURL}/api/v1${path}`, { headers: json, ...init })).status;
  const answers: number[] = [];
  for (let round = 0; round < 10; round += 1) {
    answers.push(await status("/agents", { method: "POST", body: "{sin cerrar" }));
    answers.push(await status("/labels", { method: "POST", body: "{}" }));
    answers.push(await status("/conversations/sin-ruta/nada", { method: "POST", body: "{}" }));
    answers.push(await status("/conversations"));
  }
  // Each answer is its own route's: none is a 500 left by a body the store was sent.
  expect(answers).toEqual(Array.from({ length: 10 }, () => [400, 422, 404, 200]).flat());
});
