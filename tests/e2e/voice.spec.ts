import { expect, test, type Page } from "@playwright/test";
import { holdFakeMedia } from "../fakes/graph-server.mjs";
import { inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { E2E_SETTINGS } from "./settings.mjs";
import { deliver, signedInOwner } from "./support";

const graphOrigin = `http://127.0.0.1:${E2E_SETTINGS.graphPort}`;
const modelOrigin = `http://127.0.0.1:${E2E_SETTINGS.modelPort}`;

/**
 * The customer sends a voice note, as `npm run sandbox -- send-audio` does: the fake Meta holds
 * an audio whose bytes are the words, which the fake model transcribes back.
 */
async function sendVoiceNote(page: Page, phoneNumberId: string, from: string, words: string) {
  const id = await holdFakeMedia(graphOrigin, { text: words, mime_type: "audio/ogg" });
  const part = { id, mime_type: "audio/ogg; codecs=opus", sha256: "0", voice: true };
  await deliver(page.request, inboundMessage({ phoneNumberId, from, type: "audio", part }));
}

/** Slows every answer of the model fake (the browser tests run one at a time). */
const setModelDelay = (page: Page, ms: number) =>
  page.request.post(`${modelOrigin}/__fake/delay`, { data: { ms } });

const messages = (page: Page) => page.getByRole("list", { name: "Mensajes" });

test("a voice note shows its transcript under the player, live", async ({ page }) => {
  const { headers, phoneNumberId } = await signedInOwner(page, { connect: true });
  const from = "34655000101";
  await deliver(page.request, inboundMessage({ phoneNumberId, from, text: "Hola" }));
  const list = await page.request.get("/api/v1/conversations", { headers });
  const [conversation] = (await list.json()).data.conversations;
  await page.goto(`/conversations/${conversation.id}`);
  await expect(messages(page).getByText("Hola")).toBeVisible();

  // The open conversation receives the note, "Transcribiendo…" while the (slowed) model works,
  // then its words, without reloading.
  await setModelDelay(page, 1500);
  try {
    await sendVoiceNote(page, phoneNumberId, from, "Quería cita para el jueves por la tarde");
    await expect(messages(page).getByText("Transcribiendo…")).toBeVisible();
  } finally {
    await setModelDelay(page, 0);
  }
  const bubble = messages(page)
    .getByRole("listitem")
    .filter({ has: page.locator("audio") });
  await expect(bubble.getByLabel("Audio")).toBeVisible();
  await expect(bubble.getByText("Transcripción", { exact: true })).toBeVisible();
  await expect(messages(page).getByText("Transcribiendo…")).toHaveCount(0);
  await expect(bubble.getByText("Quería cita para el jueves por la tarde")).toBeVisible();
  // The placeholder is not repeated under the player.
  await expect(bubble.getByText("🎤 Nota de voz")).toHaveCount(0);

  // The inbox search finds what was said.
  await page.goto("/conversations");
  const search = page.getByRole("searchbox", { name: "Buscar" });
  const found = page.getByRole("list", { name: "Conversaciones" }).getByRole("link");
  await search.fill("jueves por la tarde");
  await expect(found).toHaveCount(1);
  await search.fill("viernes por la mañana");
  await expect(page.getByText("Ninguna conversación coincide con los filtros.")).toBeVisible();
});

test("a voice note the model cannot transcribe says why, and can be transcribed again", async ({
  page,
}) => {
  const { headers, phoneNumberId } = await signedInOwner(page, { connect: true });
  const words = `Nota imposible ${Date.now()}`;
  await page.request.post(`${modelOrigin}/__fake/transcription-failure`, {
    data: { contains: words, status: 400, error: "audio ilegible" },
  });
  await sendVoiceNote(page, phoneNumberId, "34655000102", words);
  const list = await page.request.get("/api/v1/conversations", { headers });
  const [conversation] = (await list.json()).data.conversations;
  await page.goto(`/conversations/${conversation.id}`);

  await expect(
    messages(page).getByText(
      "No se pudo transcribir: El proveedor de IA rechazó la petición (HTTP 400).",
    ),
  ).toBeVisible();
  await expect(messages(page).getByLabel("Audio")).toBeVisible();

  // The provider recovers: "Reintentar transcripción" brings the words, live.
  await messages(page).getByRole("button", { name: "Reintentar transcripción" }).click();
  await expect(messages(page).getByText(words)).toBeVisible();
  await expect(messages(page).getByText(/No se pudo transcribir/)).toHaveCount(0);
});
