import { expect, test } from "@playwright/test";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { signedInOwner } from "./support";

test("analytics show sessions, conversions, rate, value, sources and campaigns", async ({
  page,
}) => {
  const { headers } = await signedInOwner(page);
  for (const [params, value] of [
    [{ utm_source: "facebook", utm_campaign: "Black Friday" }, 50],
    [{ utm_source: "facebook", utm_campaign: "Black Friday" }, 25.5],
    [{ gclid: "g1" }, null],
    [{ ref: "flyer" }, undefined],
  ] as const) {
    const session = await page.request.post("/api/v1/tracking/sessions", {
      headers,
      data: { tracking_params: params },
    });
    if (value === undefined) continue;
    await page.request.post("/api/v1/tracking/conversions", {
      headers,
      data: {
        event_name: value === null ? "contact" : "lead",
        tracking_session_id: (await session.json()).data.id,
        ...(value !== null && { conversion_value: value }),
      },
    });
  }
  await page.goto("/tracking");
  await expect(page.getByRole("heading", { name: "Tracking & Analytics" })).toBeVisible();
  await expect(page.getByText("75.0%")).toBeVisible();
  await expect(page.getByText("75,50 €")).toBeVisible();
  await expect(page.getByRole("img", { name: "Conversiones por día" })).toBeVisible();

  await page.getByRole("tab", { name: "Conversiones" }).click();
  await expect(page.getByRole("row")).toHaveCount(4);
  await page.getByLabel("Tipo de evento").selectOption("contact");
  await expect(page.getByRole("row")).toHaveCount(2);
  // The tab and the event filter are in the URL: a reload shows the same list.
  await expect(page).toHaveURL(/tab=conversiones.*event=contact|event=contact.*tab=conversiones/);
  await page.reload();
  await expect(page.getByLabel("Tipo de evento")).toHaveValue("contact");
  await expect(page.getByRole("row")).toHaveCount(2);

  await page.getByRole("tab", { name: "Campañas" }).click();
  await expect(
    page.getByRole("list", { name: "Campañas" }).getByText("Black Friday"),
  ).toBeVisible();

  await page.getByRole("tab", { name: "Resumen" }).click();
  await page.getByLabel("Desde").fill("2020-01-01");
  await page.getByLabel("Hasta").fill("2020-01-31");
  await expect(page.getByText("0.0%")).toBeVisible();
});

test("the conversions list loads 50 at a time with 'Cargar más'", async ({ page }) => {
  const { headers } = await signedInOwner(page);
  for (let i = 0; i < 53; i++) {
    const recorded = await page.request.post("/api/v1/tracking/conversions", {
      headers,
      data: { event_name: "lead", custom_data: { orden: i } },
    });
    expect(recorded.status()).toBe(201);
  }
  await page.goto("/tracking");
  // The chart counts every conversion of the range (its UTC day), not just the first page.
  const today = new Date().toISOString();
  await expect(page.locator("figcaption").first()).toContainText(
    `${today.slice(8, 10)}/${today.slice(5, 7)}: 53`,
  );
  await page.getByRole("tab", { name: "Conversiones" }).click();
  const rows = page.getByRole("row");
  await expect(rows).toHaveCount(51);
  await page.getByRole("button", { name: "Cargar más" }).click();
  await expect(rows).toHaveCount(54);
  await expect(page.getByRole("button", { name: "Cargar más" })).toHaveCount(0);
});

test("the console keeps a tracking session only when a visit carries ad parameters", async ({
  page,
}) => {
  await signedInOwner(page);
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem("tracking_session_id"))).toBeNull();

  await page.goto("/dashboard?utm_source=facebook&utm_campaign=otono#ref=flyer");
  await expect
    .poll(() => page.evaluate(() => localStorage.getItem("tracking_session_id")))
    .not.toBeNull();
  const id = await page.evaluate(() => localStorage.getItem("tracking_session_id"));
  await page.reload();
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  // Reused, not replaced.
  expect(await page.evaluate(() => localStorage.getItem("tracking_session_id"))).toBe(id);
  // The dashboard's card shows where the visit came from and when it started.
  const card = page.getByRole("region", { name: "Sesión de tracking activa" });
  await expect(card.getByText("facebook", { exact: true })).toBeVisible();
  await expect(card.getByText("otono", { exact: true })).toBeVisible();
  await expect(card.getByText(/hace|ahora/)).toBeVisible();
});

test("without ad parameters the dashboard shows no tracking-session card", async ({ page }) => {
  await signedInOwner(page);
  await page.goto("/dashboard");
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await expect(
    page.getByRole("heading", { name: "Conversaciones abiertas recientes" }),
  ).toBeVisible();
  await expect(page.getByRole("region", { name: "Sesión de tracking activa" })).toHaveCount(0);
});

test("the conversions list says what Meta received and why an event was not sent", async ({
  page,
}) => {
  const { headers } = await signedInOwner(page);
  const pixel = await page.request.post("/api/v1/meta-config", {
    headers,
    data: { pixel_id: GRAPH_FIXTURES.pixelId, access_token: "sandbox-access-token" },
  });
  expect(pixel.status()).toBe(201);
  const session = await page.request.post("/api/v1/tracking/sessions", {
    headers,
    data: {
      tracking_params: { fbclid: "IwAR-e2e" },
      landing_page: "https://clinica.example/oferta",
      user_agent: "Mozilla/5.0 (e2e)",
    },
  });
  const sessionId = (await session.json()).data.id;
  for (const data of [
    { event_name: "lead", conversion_value: 40, tracking_session_id: sessionId },
    { event_name: "purchase", tracking_session_id: sessionId },
  ]) {
    await page.request.post("/api/v1/tracking/conversions", { headers, data });
  }

  await page.goto("/tracking");
  await page.getByRole("tab", { name: "Conversiones" }).click();
  const lead = page.getByRole("row").filter({ hasText: "Lead" });
  await expect(lead.getByText("Enviado a Meta")).toBeVisible();
  const purchase = page.getByRole("row").filter({ hasText: "Compra" });
  await expect(purchase.getByText("Error")).toBeVisible();
  await expect(
    purchase.getByText("Una compra necesita un valor para enviarse a Meta."),
  ).toBeVisible();
});
