import { expect, test, type Page } from "@playwright/test";

/**
 * Opens a connection result page as a second history entry. A window with a single entry may be
 * closed by script, so without this the page could close itself in the middle of a test.
 */
async function openResultPage(page: Page, url: string) {
  await page.goto("/privacy-policy");
  await page.goto(url);
}

test.describe("legal pages", () => {
  test("privacy policy: 12 numbered sections in English, then in Spanish", async ({ page }) => {
    await page.goto("/privacy-policy");
    const main = page.getByRole("main");
    const sections = main.getByRole("heading", { level: 2 });

    await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
    await expect(
      page.getByText(/^Last updated: [A-Z][a-z]+ \d{1,2}(st|nd|rd|th), \d{4}$/),
    ).toBeVisible();
    await expect(sections).toHaveCount(12);
    await expect(sections.first()).toHaveText("1. Introduction");
    await expect(sections.nth(1)).toHaveText("2. Information We Collect");
    await expect(sections.last()).toHaveText("12. Contact");
    // The information collected has three numbered sub-parts.
    await expect(main.getByRole("heading", { level: 3 })).toHaveText([
      "2.1. Account data",
      "2.2. Conversation data",
      "2.3. Tracking data",
    ]);
    await expect(main.getByText(/kept for 2 years/)).toBeVisible();
    await expect(main.getByRole("link", { name: "privacidad@atiende.app" })).toHaveAttribute(
      "href",
      "mailto:privacidad@atiende.app",
    );

    const language = page.getByRole("combobox", { name: "Language" });
    await expect(language).toHaveValue("en");
    await expect(language.getByRole("option")).toHaveText(["English", "Español"]);
    await language.selectOption({ label: "Español" });

    await expect(
      page.getByRole("heading", { level: 1, name: "Política de Privacidad" }),
    ).toBeVisible();
    await expect(
      page.getByText(/^Última actualización: \d{1,2} de [a-z]+ de \d{4}$/),
    ).toBeVisible();
    await expect(page.getByRole("combobox", { name: "Idioma" })).toHaveValue("es");
    await expect(sections).toHaveCount(12);
    await expect(sections.first()).toHaveText("1. Introducción");
    await expect(sections.last()).toHaveText("12. Contacto");
    await expect(page.getByRole("button", { name: "Volver" })).toBeVisible();
  });

  test("terms of service: 9 numbered sections and the closing acknowledgement", async ({
    page,
  }) => {
    await page.goto("/terms-of-service");
    const main = page.getByRole("main");
    const sections = main.getByRole("heading", { level: 2 });

    await expect(page.getByRole("heading", { level: 1, name: "Terms of Service" })).toBeVisible();
    await expect(page.getByText(/^Last updated: /)).toBeVisible();
    await expect(sections).toHaveCount(9);
    await expect(sections.first()).toHaveText("1. Acceptance of the Terms");
    await expect(sections.last()).toHaveText("9. Contact");
    await expect(main.getByText(/at least 18 years old/)).toBeVisible();
    await expect(
      main.getByText("By using Atiende you acknowledge that you have read and accept these terms."),
    ).toBeVisible();

    await page.getByRole("combobox", { name: "Language" }).selectOption({ label: "Español" });
    await expect(
      page.getByRole("heading", { level: 1, name: "Términos de Servicio" }),
    ).toBeVisible();
    await expect(sections).toHaveCount(9);
    await expect(sections.last()).toHaveText("9. Contacto");
    await expect(
      main.getByText("Al usar Atiende, reconoces que has leído y aceptas estos términos."),
    ).toBeVisible();
  });

  test("Back returns to the previous history entry", async ({ page }) => {
    await page.goto("/terms-of-service");
    await page.goto("/privacy-policy");
    await page.getByRole("button", { name: "Back" }).click();
    await expect(page).toHaveURL(/\/terms-of-service$/);
  });

  test("legal page fits a phone screen @mobile", async ({ page }) => {
    await page.goto("/privacy-policy");
    await expect(page.getByRole("heading", { level: 1, name: "Privacy Policy" })).toBeVisible();
    const overflows = await page.evaluate(
      () => document.documentElement.scrollWidth > window.innerWidth,
    );
    expect(overflows).toBe(false);
  });
});

test.describe("not-found page", () => {
  test("answers 404 and links back home", async ({ page }) => {
    const response = await page.goto("/does-not-exist");
    expect(response?.status()).toBe(404);

    await expect(page.getByText("404", { exact: true })).toBeVisible();
    await expect(
      page.getByRole("heading", { level: 1, name: "Oops! Page not found" }),
    ).toBeVisible();
    const home = page.getByRole("link", { name: "Return to Home" });
    await expect(home).toHaveAttribute("href", "/");
    await home.click();
    await expect(page).toHaveURL(/\/$/);
  });
});

test.describe("connection result pages", () => {
  test("success shows the connected number and a countdown", async ({ page }) => {
    await openResultPage(page, "/oauth-success?phone=%2B34600000000");

    await expect(page.getByRole("heading", { level: 1, name: "Conexión Exitosa" })).toBeVisible();
    await expect(page.getByText("+34600000000")).toBeVisible();
    await expect(
      page.getByText(/Esta ventana se cerrará automáticamente en [1-5] segundos?\./),
    ).toBeVisible();
    await expect(page.getByRole("button", { name: "Cerrar ventana" })).toBeVisible();
  });

  test("success popup opened by a script closes itself after 5 s", async ({ page }) => {
    await page.goto("/terms-of-service");
    const [popup] = await Promise.all([
      page.waitForEvent("popup"),
      page.evaluate(() => {
        window.open("/oauth-success?phone=%2B34600000000", "meta-connect", "width=500,height=600");
      }),
    ]);
    await expect(popup.getByRole("heading", { name: "Conexión Exitosa" })).toBeVisible();
    await popup.waitForEvent("close", { timeout: 15_000 });
    expect(popup.isClosed()).toBe(true);
  });

  test("a window that cannot close keeps a link to the settings", async ({ page }) => {
    // Two history entries and no opener: the browser refuses window.close().
    await openResultPage(page, "/oauth-success?phone=%2B34600000000");

    await expect(page.getByText(/No se pudo cerrar esta ventana automáticamente/)).toBeVisible({
      timeout: 15_000,
    });
    await expect(page.getByRole("link", { name: "Ir a Configuración" })).toHaveAttribute(
      "href",
      "/settings",
    );
  });

  test("a known error code shows its own title and the raw code", async ({ page }) => {
    await openResultPage(page, "/oauth-error?error=access_denied");

    await expect(page.getByRole("heading", { level: 1, name: "Acceso denegado" })).toBeVisible();
    await expect(page.getByText("access_denied", { exact: true })).toBeVisible();
    await expect(
      page.getByText(/Esta ventana se cerrará automáticamente en (10|[1-9]) segundos?\./),
    ).toBeVisible();
    const eventsManager = page.getByRole("link", { name: /Administrador de eventos de Meta/ });
    await expect(eventsManager).toHaveAttribute(
      "href",
      "https://business.facebook.com/events_manager2",
    );
    await expect(eventsManager).toHaveAttribute("target", "_blank");
    await expect(eventsManager).toHaveAttribute("rel", "noopener noreferrer");
  });

  test("an unknown error code shows the generic title and the description", async ({ page }) => {
    await openResultPage(
      page,
      "/oauth-error?error=weird_failure&error_description=El%20servidor%20de%20Meta%20no%20respondi%C3%B3",
    );

    await expect(page.getByRole("heading", { level: 1, name: "Error de conexión" })).toBeVisible();
    await expect(page.getByText("El servidor de Meta no respondió")).toBeVisible();
    await expect(page.getByText("weird_failure", { exact: true })).toBeVisible();
  });

  test("text from the query string is shown as plain text", async ({ page }) => {
    const markup = '<img src="x" alt="inyectado">';
    await openResultPage(
      page,
      `/oauth-error?error=oops&error_description=${encodeURIComponent(markup)}`,
    );

    await expect(page.getByText(markup)).toBeVisible();
    await expect(page.getByRole("img", { name: "inyectado" })).toHaveCount(0);
  });
});
