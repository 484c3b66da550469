// Embedded Signup v4 (decision 0074): what Facebook's SDK is launched with, and every way the
// signup popup can end (its session event before or after the login's code).
import { expect, test, type Page, type Request } from "@playwright/test";
import { GRAPH_FIXTURES as F } from "../fakes/graph-server.mjs";
import { countRequests, expectAccessible, signedInOwner } from "./support";

/** What the stand-in popup does on one `FB.login`. */
interface Signup {
  /** The login's answer: a fresh valid code, or none (the popup was closed). */
  code: boolean;
  /** The popup's session event (`WA_EMBEDDED_SIGNUP`), if any. */
  event?: { event: string; data: Record<string, unknown> };
  /** The session event before the login's callback, or `delayMs` after it. */
  order: "before" | "after";
  delayMs?: number;
}

/**
 * Facebook's SDK at the browser boundary: each `FB.login` keeps the options it was called with
 * (`__fbLoginOptions`) and plays `window.__signup`, which a test may change between clicks.
 */
async function stubFacebook(page: Page, first: Signup) {
  await page.addInitScript(
    ({ first, validCode }) => {
      const w = window as unknown as Record<string, unknown>;
      w.__signup = first;
      w.FB = {
        init() {},
        login(callback: (response: unknown) => void, options: unknown) {
          w.__fbLoginOptions = options;
          const signup = w.__signup as Signup;
          const post = () => {
            if (!signup.event) return;
            window.dispatchEvent(
              new MessageEvent("message", {
                origin: "https://www.facebook.com",
                data: JSON.stringify({ type: "WA_EMBEDDED_SIGNUP", ...signup.event }),
              }),
            );
          };
          const answer = () =>
            callback(
              signup.code
                ? {
                    authResponse: { code: `${validCode}-${crypto.randomUUID()}` },
                    status: "connected",
                  }
                : { authResponse: null, status: "unknown" },
            );
          if (signup.order === "before") {
            post();
            answer();
          } else {
            answer();
            window.setTimeout(post, signup.delayMs ?? 0);
          }
        },
      };
    },
    { first, validCode: F.validCode },
  );
}

const play = (page: Page, signup: Signup) =>
  page.evaluate((s) => ((window as unknown as { __signup: Signup }).__signup = s), signup);
const loginOptions = (page: Page) =>
  page.evaluate(() => (window as unknown as { __fbLoginOptions: unknown }).__fbLoginOptions);
const toast = (page: Page, text: string | RegExp) =>
  page.locator("[data-sonner-toast]").filter({ hasText: text });
/** Closes the toasts an attempt left: they sit over the connect buttons. */
async function clearToasts(page: Page) {
  const close = page.locator('[data-sonner-toast][data-removed="false"] [data-close-button]');
  while ((await close.count()) > 0)
    await close
      .first()
      .click({ timeout: 2_000 })
      .catch(() => {});
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
}
const exchangeBody = (request: Request) => request.postDataJSON() as Record<string, unknown>;
const isExchange = (request: Request) =>
  new URL(request.url()).pathname === "/api/v1/whatsapp/oauth/exchange";

const CONNECT = "Conectar con Meta Business";
const APP_NUMBER = "Ya uso este número en la app WhatsApp Business";
const WITHOUT_NUMBER = "WhatsApp aún no está conectado: falta el número";
const UNVERIFIED = "WhatsApp aún no está conectado: falta verificar el número";

test("launches Embedded Signup v4: extras without v2's options, featureType only for a number kept in the app", async ({
  page,
}) => {
  await signedInOwner(page);
  // Closed at once: only the launch is looked at.
  await stubFacebook(page, { code: false, order: "before" });
  await page.goto("/settings");

  await page.getByRole("button", { name: CONNECT }).click();
  await expect(toast(page, "Autorización cancelada por el usuario")).toBeVisible();
  expect(await loginOptions(page)).toEqual({
    config_id: "e2e-config-id",
    response_type: "code",
    override_default_response_type: true,
    extras: {},
  });

  await clearToasts(page);
  await page.getByRole("button", { name: APP_NUMBER }).click();
  await expect(toast(page, "Autorización cancelada por el usuario")).toBeVisible();
  expect(await loginOptions(page)).toEqual({
    config_id: "e2e-config-id",
    response_type: "code",
    override_default_response_type: true,
    extras: { featureType: "whatsapp_business_app_onboarding" },
  });
});

test("a finish with a number connects the number the popup names, whether its event comes after the code or before", async ({
  page,
}) => {
  test.slow();
  const { headers } = await signedInOwner(page);
  const finish = {
    event: "FINISH",
    data: { waba_id: F.wabaId, phone_number_id: F.phoneNumberId, business_id: "2729063490586005" },
  };
  // Two seconds after the code: later than the one second the v2 launch waited.
  await stubFacebook(page, { code: true, event: finish, order: "after", delayMs: 2_000 });
  const whatsapp = page.getByRole("region", { name: "WhatsApp Business" });
  try {
    await page.goto("/settings");
    for (const order of ["after", "before"] as const) {
      await test.step(`the session event ${order === "after" ? "after" : "before"} the code`, async () => {
        await play(page, { code: true, event: finish, order, delayMs: 2_000 });
        const exchange = page.waitForRequest(isExchange);
        await page.getByRole("button", { name: CONNECT }).click();
        expect(exchangeBody(await exchange)).toMatchObject({
          waba_id: F.wabaId,
          phone_number_id: F.phoneNumberId,
        });
        await expect(toast(page, "Conectado con Meta Business").last()).toBeVisible();
        await expect(whatsapp.getByText(F.phoneNumberId, { exact: true })).toBeVisible();
        await expect(page.getByRole("status", { name: WITHOUT_NUMBER })).toHaveCount(0);
        await page.request.delete("/api/v1/whatsapp-config", { headers });
        await page.reload();
      });
    }
  } finally {
    // The fixtures' number is free again for the other tests that connect it.
    await page.request.delete("/api/v1/whatsapp-config", { headers });
  }
});

test("the app onboarding's finish after the code connects the number as one kept in the app", async ({
  page,
}) => {
  const { headers } = await signedInOwner(page);
  await stubFacebook(page, {
    code: true,
    event: { event: "FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING", data: { waba_id: F.appWabaId } },
    order: "after",
    delayMs: 1_500,
  });
  try {
    await page.goto("/settings");
    const exchange = page.waitForRequest(isExchange);
    await page.getByRole("button", { name: APP_NUMBER }).click();
    const body = exchangeBody(await exchange);
    expect(body).toMatchObject({ waba_id: F.appWabaId, coexistence: true });
    expect(body).not.toHaveProperty("phone_number_id");
    await expect(toast(page, "Conectado con Meta Business")).toBeVisible();
    await expect(
      page.getByRole("region", { name: "Número compartido con la app WhatsApp Business" }),
    ).toBeVisible();
  } finally {
    await page.request.delete("/api/v1/whatsapp-config", { headers });
  }
});

test("a finish without a number connects the pixel only and says, until the next attempt, that the number must be added and verified", async ({
  page,
}) => {
  test.slow();
  await signedInOwner(page);
  await stubFacebook(page, { code: false, order: "before" });
  const exchanges = countRequests(page, "/api/v1/whatsapp/oauth/exchange");
  await page.goto("/settings");
  const whatsapp = page.getByRole("region", { name: "WhatsApp Business" });
  const pixel = page.getByRole("region", { name: "Meta Pixel" });
  const notice = page.getByRole("status", { name: WITHOUT_NUMBER });

  await test.step("FINISH_ONLY_WABA after the code", async () => {
    await play(page, {
      code: true,
      event: { event: "FINISH_ONLY_WABA", data: { waba_id: F.emptyWabaId } },
      order: "after",
      delayMs: 1_500,
    });
    await page.getByRole("button", { name: CONNECT }).click();
    await expect(notice).toBeVisible();
    await expect(notice).toContainText(
      "Añade el número y verifícalo en el Administrador de WhatsApp de Meta (Números de teléfono) y después vuelve a pulsar «Conectar con Meta Business».",
    );
    await expect(toast(page, WITHOUT_NUMBER)).toBeVisible();
    await expect(pixel.getByText(F.pixelId, { exact: true })).toBeVisible();
    await expect(whatsapp.locator("[data-status]").first()).toHaveText(/Desconectado/);
    expect(exchanges.sent).toBe(0);
    await expectAccessible(
      page,
      "registro sin número",
      `[role="status"][aria-label="${WITHOUT_NUMBER}"]`,
    );
  });

  await test.step("a Cloud API finish naming no number, before the code", async () => {
    await play(page, { code: false, order: "before" });
    await clearToasts(page);
    // A new attempt takes the notice away; a cancelled one leaves nothing to do.
    await page.getByRole("button", { name: CONNECT }).click();
    await expect(notice).toHaveCount(0);
    await clearToasts(page);
    await play(page, {
      code: true,
      event: { event: "FINISH", data: { waba_id: F.wabaId } },
      order: "before",
    });
    await page.getByRole("button", { name: CONNECT }).click();
    await expect(notice).toBeVisible();
    await expect(page.getByRole("button", { name: CONNECT })).toBeEnabled();
    expect(exchanges.sent).toBe(0);
    await expect(whatsapp.locator("[data-status]").first()).toHaveText(/Desconectado/);
  });
});

test("a number not verified yet connects nothing of WhatsApp and says to verify it in WhatsApp Manager", async ({
  page,
}) => {
  await signedInOwner(page);
  await stubFacebook(page, {
    code: true,
    event: {
      event: "FINISH",
      data: { waba_id: F.pendingWabaId, phone_number_id: F.pendingPhoneNumberId },
    },
    order: "before",
  });
  await page.goto("/settings");
  await page.getByRole("button", { name: CONNECT }).click();
  const notice = page.getByRole("status", { name: UNVERIFIED });
  await expect(notice).toContainText(
    "El número de WhatsApp aún no está verificado. Verifícalo en el Administrador de WhatsApp de Meta (Números de teléfono) con el código que Meta envía por SMS o llamada y después vuelve a pulsar «Conectar con Meta Business».",
  );
  await expect(toast(page, UNVERIFIED)).toBeVisible();
  await expect(
    page.getByRole("region", { name: "WhatsApp Business" }).locator("[data-status]").first(),
  ).toHaveText(/Desconectado/);
  await expect(
    page.getByRole("region", { name: "Meta Pixel" }).getByText(F.pixelId, { exact: true }),
  ).toBeVisible();
});

test("a closed popup says on which step; a reported error or an ERROR says what Meta said and the ids its support asks for", async ({
  page,
}) => {
  test.slow();
  await signedInOwner(page);
  await stubFacebook(page, { code: false, order: "before" });
  const exchanges = countRequests(page, "/api/v1/whatsapp/oauth/exchange");
  await page.goto("/settings");
  const connect = page.getByRole("button", { name: CONNECT });

  await test.step("CANCEL with its current_step, after the callback", async () => {
    await play(page, {
      code: false,
      event: { event: "CANCEL", data: { current_step: "PHONE_NUMBER_VERIFICATION" } },
      order: "after",
      delayMs: 300,
    });
    await connect.click();
    const cancelled = toast(page, "Autorización cancelada por el usuario");
    await expect(cancelled).toContainText(
      "Cerraste la ventana de Facebook en el paso «verificar el número de teléfono».",
    );
    await expect(cancelled).toContainText("Administrador de WhatsApp de Meta");
  });

  await test.step("a user-reported error (CANCEL with error_message), before the callback", async () => {
    await play(page, {
      code: false,
      event: {
        event: "CANCEL",
        data: {
          error_message: "Your verified name violates WhatsApp guidelines.",
          error_code: "524126",
          session_id: "f34b51dab5e0498",
          timestamp: "1746041036",
        },
      },
      order: "before",
    });
    await clearToasts(page);
    await connect.click();
    const reported = toast(page, "Meta no pudo completar el registro de WhatsApp");
    await expect(reported).toContainText(
      "Meta dice: «Your verified name violates WhatsApp guidelines.».",
    );
    await expect(reported).toContainText(
      "Si escribes al soporte de Meta, indica el código 524126 y la sesión f34b51dab5e0498.",
    );
  });

  await test.step("an ERROR event, after the callback", async () => {
    await play(page, {
      code: false,
      event: { event: "ERROR", data: { error_code: "2388098", session_id: "a1b2c3" } },
      order: "after",
      delayMs: 300,
    });
    await clearToasts(page);
    await connect.click();
    await expect(
      toast(page, "Meta no pudo completar el registro de WhatsApp").filter({
        hasText: "indica el código 2388098 y la sesión a1b2c3",
      }),
    ).toBeVisible();
  });
  expect(exchanges.sent).toBe(0);
});
