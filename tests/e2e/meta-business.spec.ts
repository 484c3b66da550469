import { expect, test, type Locator, type Page } from "@playwright/test";

import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { accountUpdate } from "../fakes/whatsapp-payloads.mjs";
import { countRequests, deliver, signedInOwner } from "./support";

// ── Fixtures of the fake Graph API the e2e server runs with (tests/fakes/graph-server.mjs) ──
/**
 * An authorization code the fake exchanges for a business token. Meta takes each code once
 * (the fake too, for its whole life): every run of a test gets its own, or a repeated run
 * (`--repeat-each`) would be refused.
 */
const validCode = () => `${GRAPH_FIXTURES.validCode}-${crypto.randomUUID()}`;
/** Any other code fails the exchange with `token_exchange_failed`. */
const BAD_CODE = "bad-code";
const WABA_ID = GRAPH_FIXTURES.wabaId;
const PHONE_NUMBER_ID = GRAPH_FIXTURES.phoneNumberId;
const DISPLAY_PHONE_NUMBER = GRAPH_FIXTURES.displayPhoneNumber;
const PIXEL_ID = GRAPH_FIXTURES.pixelId;
const EXPECT_PIXEL = true;
/** A token the fake accepts on `GET /{PHONE_NUMBER_ID}` (manual connection). */
const MANUAL_ACCESS_TOKEN = "sandbox-access-token";
/** Post the Embedded Signup FINISH event (with WABA_ID / PHONE_NUMBER_ID) before the code. */
const SEND_SIGNUP_EVENT = true;

const uniqueEmail = () => `meta-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;
const toast = (page: Page, text: string) =>
  page.locator("[data-sonner-toast]").filter({ hasText: text });
const badge = (card: Locator) => card.locator("[data-status]").first();

interface Seeded {
  token: string;
  trackingKey: string;
}

/** An owner with an organization, signed in through localStorage, and a stand-in Facebook SDK. */
async function seed(page: Page, options: { stubSdk?: boolean } = {}): Promise<Seeded> {
  const register = await page.request.post("/api/v1/auth/register", {
    data: { email: uniqueEmail(), password: "secreto123", full_name: "Lucía Gómez" },
  });
  expect(register.status()).toBe(201);
  const token: string = (await register.json()).data.token;
  const headers = { Authorization: `Bearer ${token}` };
  const organization = await page.request.post("/api/v1/organizations", {
    headers,
    data: {
      name: "Clínica Dental Sonrisa",
      industry: "Odontología",
      employee_count: "11-50",
      services_offered: "Limpiezas y ortodoncia",
      business_hours: "L-V 9:00-18:00",
      city: "Sevilla",
      country: "España",
      ai_use_case: "Responder dudas y dar citas",
    },
  });
  expect(organization.status()).toBe(201);
  const trackingKey: string = (await organization.json()).data.tracking_key;

  await page.addInitScript((value) => localStorage.setItem("auth_token", value), token);
  if (options.stubSdk !== false) {
    // The only thing replaced: Facebook's SDK at the browser boundary. The code it returns
    // is read from window.__fbLoginCode so a test can switch to a failing one.
    await page.addInitScript(
      ({ code, finish }) => {
        const w = window as any;
        w.__fbLoginCode ??= code;
        w.FB = {
          init() {},
          login(callback: (response: unknown) => void) {
            if (finish) {
              window.dispatchEvent(
                new MessageEvent("message", {
                  origin: "https://www.facebook.com",
                  data: JSON.stringify({
                    type: "WA_EMBEDDED_SIGNUP",
                    event: "FINISH",
                    data: finish,
                  }),
                }),
              );
            }
            const current = w.__fbLoginCode;
            callback(
              current
                ? { authResponse: { code: current }, status: "connected" }
                : { authResponse: null, status: "unknown" },
            );
          },
        };
      },
      {
        code: validCode(),
        finish: SEND_SIGNUP_EVENT ? { waba_id: WABA_ID, phone_number_id: PHONE_NUMBER_ID } : null,
      },
    );
  }
  return { token, trackingKey };
}

async function disconnect(page: Page, card: Locator) {
  await card.getByRole("button", { name: "Desconectar" }).click();
  const dialog = page.getByRole("dialog");
  // The dialog element itself has no box (its panel is fixed): look at its heading.
  await expect(dialog.getByRole("heading")).toBeVisible();
  await dialog.getByRole("button", { name: "Desconectar" }).click();
  await expect(dialog).toBeHidden();
}

test("connect WhatsApp and the pixel with Meta Business, test, choose an agent, disconnect, connect by hand", async ({
  page,
  baseURL,
}) => {
  // The whole connection's life in one test: about 20 s on a quiet machine, 42 s seen under load.
  test.slow();
  const { token, trackingKey } = await seed(page);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], {
    origin: baseURL!,
  });
  const agent = await page.request.post("/api/v1/agents", {
    headers: { Authorization: `Bearer ${token}` },
    data: { name: "Recepción", system_prompt: "Eres la recepcionista de la clínica." },
  });
  expect(agent.status()).toBe(201);
  const agentId: string = (await agent.json()).data.id;

  await page.goto("/settings");
  await expect(page.getByRole("tab", { name: "Meta Business" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  const whatsapp = page.getByRole("region", { name: "WhatsApp Business" });
  const pixel = page.getByRole("region", { name: "Meta Pixel" });
  const connect = page.getByRole("button", { name: "Conectar con Meta Business" });

  await test.step("starts disconnected", async () => {
    await expect(badge(whatsapp)).toHaveText(/Desconectado/);
    await expect(badge(whatsapp)).toHaveAttribute("data-tone", "gray");
    await expect(badge(pixel)).toHaveText(/Desconectado/);
    await expect(connect).toBeEnabled();
  });

  await test.step("one Facebook Login connects WhatsApp and the pixel", async () => {
    await connect.click();
    await expect(toast(page, "Conectado con Meta Business")).toBeVisible();
    await expect(badge(whatsapp)).toHaveText(/Conectado/);
    await expect(badge(whatsapp)).toHaveAttribute("data-tone", "green");
    await expect(whatsapp.getByText(DISPLAY_PHONE_NUMBER, { exact: true })).toBeVisible();
    await expect(whatsapp.getByText(PHONE_NUMBER_ID, { exact: true })).toBeVisible();
    if (EXPECT_PIXEL) {
      await expect(badge(pixel)).toHaveAttribute("data-tone", "green");
      await expect(pixel.getByText(PIXEL_ID, { exact: true })).toBeVisible();
    }
  });

  await test.step("'Probar' checks the number with Meta", async () => {
    await whatsapp.getByRole("button", { name: "Probar" }).click();
    await expect(toast(page, "Conexión con WhatsApp verificada")).toBeVisible();
    await expect(whatsapp.getByRole("status").filter({ hasText: "Prueba correcta" })).toBeVisible();
    if (EXPECT_PIXEL) {
      await pixel.getByRole("button", { name: "Probar" }).click();
      await expect(toast(page, "Conexión con Meta Pixel verificada")).toBeVisible();
      await pixel.getByRole("button", { name: "Enviar evento de prueba" }).click();
      await expect(toast(page, "Evento de prueba enviado a Meta")).toBeVisible();
      await expect(pixel.getByText(/con el código TEST\d+/)).toBeVisible();
    }
  });

  await test.step("the default agent is saved", async () => {
    const select = whatsapp.getByLabel("Agente por defecto");
    await expect(select).toHaveValue("");
    await select.selectOption({ label: "Recepción" });
    await expect(toast(page, "Agente por defecto actualizado")).toBeVisible();
    await page.reload();
    await expect(whatsapp.getByLabel("Agente por defecto")).toHaveValue(agentId);
  });

  await test.step("webhook URL and verification token", async () => {
    await expect(whatsapp.getByRole("textbox", { name: "URL del webhook" })).toHaveValue(
      `${new URL(baseURL!).origin}/webhooks/whatsapp`,
    );
    await whatsapp.getByRole("button", { name: "Generar token de verificación" }).click();
    await expect(toast(page, "Token de verificación generado")).toBeVisible();
    await expect(whatsapp.getByRole("textbox", { name: "Token de verificación" })).toHaveValue(
      /^\w{16,}$/,
    );
    await whatsapp.getByRole("button", { name: "Copiar Token de verificación" }).click();
    await expect(toast(page, "Copiado al portapapeles")).toBeVisible();
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    await expect(whatsapp.getByRole("textbox", { name: "Token de verificación" })).toHaveValue(
      copied,
    );
  });

  await test.step("the Tracking tab shows the status and the snippet", async () => {
    await page.getByRole("tab", { name: "Tracking" }).click();
    const status = page.getByRole("region", { name: "Estado de Meta" });
    await expect(status.getByText(DISPLAY_PHONE_NUMBER, { exact: true })).toBeVisible();
    if (EXPECT_PIXEL) await expect(status.getByText(PIXEL_ID)).toBeVisible();
    await expect(page.getByRole("textbox", { name: "Fragmento de seguimiento" })).toHaveValue(
      `<script src="${new URL(baseURL!).origin}/t.js" data-key="${trackingKey}" async></script>`,
    );
    await expect(page.getByRole("link", { name: "Ver Analytics" })).toHaveAttribute(
      "href",
      "/tracking",
    );
    await page.getByRole("tab", { name: "Meta Business" }).click();
  });

  await test.step("'Desconectar' returns to disconnected", async () => {
    await disconnect(page, whatsapp);
    await expect(toast(page, "WhatsApp desconectado")).toBeVisible();
    await expect(badge(whatsapp)).toHaveText(/Desconectado/);
    await expect(badge(whatsapp)).toHaveAttribute("data-tone", "gray");
    if (EXPECT_PIXEL) {
      await disconnect(page, pixel);
      await expect(toast(page, "Meta Pixel desconectado")).toBeVisible();
      await expect(badge(pixel)).toHaveText(/Desconectado/);
    }
    await page.reload();
    await expect(badge(whatsapp)).toHaveText(/Desconectado/);
  });

  await test.step("a code Meta refuses connects nothing", async () => {
    await page.evaluate((code) => ((window as any).__fbLoginCode = code), BAD_CODE);
    await connect.click();
    await expect(toast(page, "No se pudo conectar ningún servicio de Meta Business")).toBeVisible();
    await expect(badge(whatsapp)).toHaveText(/Desconectado/);
    await expect(badge(pixel)).toHaveText(/Desconectado/);
  });

  await test.step("the manual form connects a number of the business's own app", async () => {
    await whatsapp.getByRole("button", { name: "Conectar manualmente" }).click();
    const form = whatsapp.getByRole("form", { name: "Conectar WhatsApp manualmente" });
    // Required fields are checked before calling the server.
    await form.getByRole("button", { name: "Guardar conexión" }).click();
    await expect(form.getByText("El token de acceso es obligatorio")).toBeVisible();
    await form.getByLabel("ID del número de teléfono").fill(PHONE_NUMBER_ID);
    await form.getByLabel("ID de la cuenta de WhatsApp Business").fill(WABA_ID);
    await form.getByLabel("Token de acceso").fill(MANUAL_ACCESS_TOKEN);
    await expect(form.getByLabel("Token de acceso")).toHaveAttribute("type", "password");
    await form.getByRole("button", { name: "Guardar conexión" }).click();
    await expect(toast(page, "WhatsApp conectado")).toBeVisible();
    await expect(badge(whatsapp)).toHaveAttribute("data-tone", "green");
    await expect(whatsapp.getByText(DISPLAY_PHONE_NUMBER, { exact: true })).toBeVisible();
  });

  // The fake's number is one for every test: disconnecting gives it back to the next run.
  await test.step("'Desconectar' frees the number", async () => {
    await disconnect(page, whatsapp);
    await expect(badge(whatsapp)).toHaveText(/Desconectado/);
  });
});

test("a login closed without authorizing reports the cancellation", async ({ page }) => {
  await seed(page);
  await page.addInitScript(() => ((window as any).__fbLoginCode = null));
  await page.goto("/settings");
  await page.getByRole("button", { name: "Conectar con Meta Business" }).click();
  await expect(toast(page, "Autorización cancelada por el usuario")).toBeVisible();
  await expect(page.getByRole("button", { name: "Conectar con Meta Business" })).toBeEnabled();
});

test("an SDK that cannot load keeps the connect button disabled", async ({ page }) => {
  await seed(page, { stubSdk: false });
  await page.route("https://connect.facebook.net/**", (route) => route.abort());
  await page.goto("/settings");
  const message = "Error al cargar el SDK de Facebook. Por favor recarga la página.";
  await expect(toast(page, message)).toBeVisible();
  await expect(page.getByRole("alert").filter({ hasText: message })).toBeVisible();
  await expect(page.getByRole("button", { name: "Conectar con Meta Business" })).toBeDisabled();
  // The rest of the tab still works: the manual form is there.
  await expect(page.getByRole("button", { name: "Conectar manualmente" })).toBeVisible();
});

test("in the local sandbox the tab says how to connect instead of failing to load Facebook's SDK", async ({
  page,
}) => {
  await seed(page, { stubSdk: false });
  // What the server answers when `npm run sandbox` set META_SANDBOX.
  await page.route("**/api/v1/whatsapp/oauth/app-config", async (route) => {
    const answer = await route.fetch();
    const body = await answer.json();
    await route.fulfill({ response: answer, json: { data: { ...body.data, sandbox: true } } });
  });
  let sdkAsked = false;
  await page.route("https://connect.facebook.net/**", (route) => {
    sdkAsked = true;
    return route.abort();
  });
  await page.goto("/settings");
  await expect(
    page.getByRole("note").filter({ hasText: "npm run sandbox -- connect" }),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Conectar con Meta Business" })).toHaveCount(0);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: "SDK" })).toHaveCount(0);
  expect(sdkAsked).toBe(false);
});

test("Meta disconnecting the number shows on the open card, with no new read of the tab", async ({
  page,
}) => {
  const wabaId = `waba-live-${Date.now()}-${Math.floor(Math.random() * 1e6)}`;
  await signedInOwner(page, { connect: true, businessAccountId: wabaId });
  // Only the tab's loader reads the app's configuration: it says whether the tab was read again.
  const tabReads = countRequests(page, "/api/v1/whatsapp/oauth/app-config");
  await page.goto("/settings");
  const card = page.getByRole("region", { name: "WhatsApp Business" });
  await expect(card.getByRole("button", { name: "Desconectar" })).toBeVisible();
  await expect(page.getByText("Tiempo Real", { exact: true })).toBeVisible();
  await expect.poll(() => tabReads.inFlight).toBe(0);
  const readsBefore = tabReads.sent;

  // Meta removed the account from the partner (naming no number): the whole account goes.
  await deliver(page.request, accountUpdate({ wabaId, phoneNumber: null }));
  await expect(card.getByText(/^Meta lo desconectó: Meta desconectó el número/)).toBeVisible();
  await expect(card.getByText("El número está desconectado.", { exact: false })).toBeVisible();
  await expect(card.getByRole("button", { name: "Desconectar" })).toHaveCount(0);
  expect(tabReads.sent).toBe(readsBefore);

  // The console's notice says it too, heard live, and read again on another screen's load.
  const notice = page.getByRole("alert").filter({ hasText: "WhatsApp está desconectado:" });
  await expect(notice).toContainText("Meta desconectó el número");
  await expect(notice.getByRole("link", { name: "Volver a conectar" })).toHaveAttribute(
    "href",
    "/settings?tab=meta",
  );
  await page.goto("/conversations");
  await expect(notice).toContainText("Meta desconectó el número");
});
