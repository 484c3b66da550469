import { expect, test } from "@playwright/test";

test("the landing page's calls to action lead to /auth", async ({ page }) => {
  for (const [scope, name] of [
    ["banner", "Iniciar Sesión"],
    ["banner", "Comenzar Gratis"],
    ["main", "Comenzar Gratis"],
    ["main", "Ver Demo"],
  ] as const) {
    await page.goto("/");
    await page.getByRole(scope).getByRole("link", { name }).click();
    await expect(page).toHaveURL(/\/auth$/);
  }
});

test("the landing page links to the legal pages and shows its figures", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  for (const figure of ["< 30s", "+45%", "4.8/5"]) {
    await expect(page.getByText(figure, { exact: true })).toBeVisible();
  }
  // Placeholders are text, not links that go nowhere.
  await expect(page.getByRole("link", { name: "Precios" })).toHaveCount(0);

  await page.getByRole("link", { name: "Ver Política de Privacidad" }).click();
  await expect(page).toHaveURL(/\/privacy-policy$/);
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "Privacidad" }).click();
  await expect(page).toHaveURL(/\/privacy-policy$/);
  await page.goto("/");
  await page.getByRole("contentinfo").getByRole("link", { name: "Términos" }).click();
  await expect(page).toHaveURL(/\/terms-of-service$/);
});

test("pages carry the security headers", async ({ request }) => {
  const response = await request.get("/");
  const headers = response.headers();
  expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
  expect(headers["x-content-type-options"]).toBe("nosniff");
  expect(headers["strict-transport-security"]).toContain("max-age=");
});
