import { expect, test, type Page } from "@playwright/test";
import { signedInOwner } from "./support";

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

/** Every Content-Security-Policy violation the page reports, from its first script on. */
async function watchViolations(page: Page) {
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  await page.exposeFunction("reportViolation", (text: string) => violations.push(text));
  await page.addInitScript(() =>
    document.addEventListener("securitypolicyviolation", (event) =>
      (window as unknown as { reportViolation(text: string): void }).reportViolation(
        `${event.violatedDirective} ${event.blockedURI}`,
      ),
    ),
  );
  return violations;
}

/** React Router has read its inline scripts and hydrated the page. */
const hydrated = (page: Page) =>
  page.waitForFunction(
    () => "__reactRouterDataRouter" in window && "__reactRouterContext" in window,
  );

/** The `script-src` directive of a response's policy. */
function scriptSources(policy: string | undefined) {
  return policy?.split(";").find((d) => d.trim().startsWith("script-src")) ?? "";
}

test("the landing page, /auth and the console run without a CSP violation", async ({ page }) => {
  const violations = await watchViolations(page);
  await page.goto("/");
  await hydrated(page);
  // The static page's connect-src names no ws: origin: 'self' covers the page's own socket
  // (refused without a session, but by the server, not by the policy).
  const socket = await page.evaluate(
    () =>
      new Promise<string>((settled) => {
        document.addEventListener("securitypolicyviolation", (event) =>
          settled(`blocked by ${event.violatedDirective}`),
        );
        const ws = new WebSocket(`${location.origin.replace(/^http/, "ws")}/ws`);
        ws.onopen = () => settled("open");
        ws.onclose = () => settled("closed by the server");
      }),
  );
  expect(socket).not.toMatch(/^blocked/);
  await page.goto("/auth");
  await hydrated(page);
  await signedInOwner(page);
  await page.goto("/dashboard");
  await hydrated(page);
  // The realtime socket is same-origin: allowed by connect-src, it connects.
  await expect(page.getByText("Tiempo Real", { exact: true })).toBeVisible();
  expect(violations).toEqual([]);
});

test("rendered pages name their scripts by a nonce of their own, never 'unsafe-inline'", async ({
  request,
}) => {
  const nonces = [];
  for (let i = 0; i < 2; i++) {
    const response = await request.get("/auth");
    const scripts = scriptSources(response.headers()["content-security-policy"]);
    expect(scripts).not.toContain("'unsafe-inline'");
    const nonce = /'nonce-([^']+)'/.exec(scripts)?.[1];
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    // Every inline script of the page carries it.
    const tags = (await response.text()).match(/<script\b[^>]*>/g) ?? [];
    expect(tags.length).toBeGreaterThan(0);
    for (const tag of tags) expect(tag).toContain(`nonce="${nonce}"`);
    nonces.push(nonce);
  }
  expect(nonces[0]).not.toBe(nonces[1]);
});

test("the prerendered landing page names its inline scripts by hash", async ({ request }) => {
  const scripts = scriptSources((await request.get("/")).headers()["content-security-policy"]);
  expect(scripts).toMatch(/'sha256-[A-Za-z0-9+/]{43}='/);
  expect(scripts).not.toContain("'unsafe-inline'");
  expect(scripts).not.toContain("'nonce-");
});

for (const path of ["/", "/auth"]) {
  test(`an inline script injected into ${path} does not run`, async ({ page }) => {
    const violations = await watchViolations(page);
    await page.goto(path);
    await hydrated(page);
    const ran = await page.evaluate(() => {
      const injected = document.createElement("script");
      injected.textContent = "window.injectedRan = true";
      document.body.append(injected);
      return "injectedRan" in window;
    });
    expect(ran).toBe(false);
    await expect.poll(() => violations.length).toBeGreaterThan(0);
  });
}
