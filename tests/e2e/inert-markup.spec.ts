import { expect, test } from "@playwright/test";

const MARKUP_NAME = `<img src=x onerror="window.__pwned=1">Ana`;
const MARKUP_ORG = `<script>window.__pwned=1</script>Tienda`;

test("names with markup are shown as text and never run", async ({ page }) => {
  const register = await page.request.post("/api/v1/auth/register", {
    data: {
      email: `xss-${Date.now()}@example.com`,
      password: "secreto123",
      full_name: MARKUP_NAME,
    },
  });
  const token: string = (await register.json()).data.token;
  await page.request.post("/api/v1/organizations", {
    headers: { Authorization: `Bearer ${token}` },
    data: {
      name: MARKUP_ORG,
      industry: "<b>Retail</b>",
      employee_count: "1-10",
      services_offered: "x",
      business_hours: "x",
      city: "x",
      country: "x",
      ai_use_case: "x",
    },
  });
  await page.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  await page.goto("/dashboard");
  await expect(page.getByText(MARKUP_ORG).first()).toBeVisible();
  await expect(page.getByText(MARKUP_NAME).first()).toBeVisible();
  await page.goto("/settings/organization");
  await expect(page.getByLabel("Sector")).toHaveValue("<b>Retail</b>");
  expect(
    await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned),
  ).toBeUndefined();
  await expect(page.locator("img[src='x']")).toHaveCount(0);
});
