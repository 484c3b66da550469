// The Anuncios tab of /tracking: ads that started conversations (from the webhook's ad
// referrals), their leads, sales and revenue, and the spend read from the fake Marketing API.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { ctwaReferral, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { deliver, signedInOwner } from "./support";
import { E2E_SETTINGS } from "./settings.mjs";

const GRAPH = `http://127.0.0.1:${E2E_SETTINGS.graphPort}`;
const today = new Date().toISOString().slice(0, 10);
const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-9);

/** The fake ad account's spend per ad and day (kept by the fake until the next call). */
async function setSpend(page: Page, rows: { ad_id: string; spend: number }[]) {
  const response = await page.request.post(`${GRAPH}/__fake/insights`, {
    data: { rows: rows.map((r) => ({ ...r, ad_name: `Anuncio ${r.ad_id}`, date: today })) },
  });
  expect(response.status()).toBe(200);
}

/** Meta's next insights call waits, then fails (or answers when no status is given). */
async function nextInsightsCall(page: Page, failure: { delay_ms?: number; status?: number }) {
  const response = await page.request.post(`${GRAPH}/__fake/fail`, {
    data: {
      path: "/insights$",
      match: "regex",
      ...failure,
      error: { message: "Service temporarily unavailable", code: 2 },
    },
  });
  expect(response.status()).toBe(200);
}

/** An owner with a connected number and, with `adAccount`, a pixel whose login found one. */
async function advertiser(page: Page, { adAccount }: { adAccount: boolean }) {
  const owner = await signedInOwner(page, { connect: true });
  if (adAccount) {
    const pixel = await page.request.post("/api/v1/meta-config/connect", {
      headers: owner.headers,
      data: { code: `valid-ads-${unique()}` },
    });
    expect(pixel.status()).toBe(200);
  }
  let customers = 0;
  /** A customer writes from a click-to-WhatsApp ad; answers their phone. */
  const customerFromAd = async (ad: { adId: string; headline: string }) => {
    customers += 1;
    const from = String(34_600_000_000 + customers * 1_000_000 + Math.floor(Math.random() * 1e6));
    await deliver(
      page.request,
      inboundMessage({
        phoneNumberId: owner.phoneNumberId,
        wabaId: "waba-e2e",
        from,
        text: "Hola, vi vuestro anuncio",
        referral: ctwaReferral({ ...ad, ctwaClid: `ARAk${unique()}${customers}` }),
      }),
    );
    return from;
  };
  /** A lead or a sale in euros recorded by the team for that customer. */
  const record = async (event_name: "lead" | "purchase", phone_number: string, value?: number) => {
    const response = await page.request.post("/api/v1/tracking/conversions", {
      headers: owner.headers,
      data: {
        event_name,
        phone_number,
        ...(value !== undefined && { conversion_value: value, currency: "EUR" }),
      },
    });
    expect(response.status()).toBe(201);
  };
  return { ...owner, customerFromAd, record };
}

const adsTable = (page: Page) => page.getByRole("table", { name: "Anuncios" });
const bodyRows = (table: Locator) => table.locator("tbody tr");
const cells = (row: Locator) => row.locator("td");

test("each ad's conversations, leads, sales, revenue, spend and ratios, sortable, with totals and the tab and dates in the URL", async ({
  page,
}) => {
  const owner = await advertiser(page, { adAccount: true });
  const summer = { adId: `1202${unique()}1`, headline: "Oferta de verano" };
  const winter = { adId: `1202${unique()}2`, headline: "Rebajas de invierno" };
  const s1 = await owner.customerFromAd(summer);
  const s2 = await owner.customerFromAd(summer);
  await owner.customerFromAd(summer);
  await owner.customerFromAd(winter);
  await owner.record("lead", s1);
  await owner.record("lead", s2);
  await owner.record("purchase", s1, 120);
  await owner.record("purchase", s1, 30);
  await setSpend(page, [
    { ad_id: summer.adId, spend: 50.5 },
    { ad_id: winter.adId, spend: 20 },
  ]);

  await page.goto("/tracking");
  await page.getByRole("tab", { name: "Anuncios" }).click();
  await expect(page).toHaveURL(/[?&]tab=anuncios/);
  const table = adsTable(page);
  await expect(bodyRows(table)).toHaveCount(2);
  await expect(
    page.getByText("Conecta una cuenta publicitaria en Configuración > Meta Business"),
  ).toHaveCount(0);

  // Most revenue first: summer. Columns: conversations, leads, bookings, sales, revenue, spend,
  // message cost, profit, cost per conversation, cost per lead, ROAS.
  await expect(table.getByRole("columnheader", { name: "Ingresos" })).toHaveAttribute(
    "aria-sort",
    "descending",
  );
  const first = bodyRows(table).first();
  const link = first.getByRole("link", { name: "Oferta de verano" });
  await expect(link).toHaveAttribute("href", "https://fb.me/abc");
  await expect(link).toHaveAttribute("target", "_blank");
  await expect(link).toHaveAttribute("rel", "noopener noreferrer");
  await expect(first.getByText(summer.adId)).toBeVisible();
  await expect(cells(first)).toHaveText([
    "3",
    "2",
    "0",
    "2",
    "150,00 €",
    "50,50 €",
    "0,00 €",
    "99,50 €",
    "16,83 €",
    "25,25 €",
    "2,97x",
  ]);
  // No leads: a cost per lead cannot be known.
  await expect(cells(bodyRows(table).nth(1))).toHaveText([
    "1",
    "0",
    "0",
    "0",
    "0,00 €",
    "20,00 €",
    "0,00 €",
    "-20,00 €",
    "20,00 €",
    "—",
    "0,00x",
  ]);
  // Totals: sums, and the ratios of the sums.
  await expect(cells(table.locator("tfoot tr"))).toHaveText([
    "4",
    "2",
    "0",
    "2",
    "150,00 €",
    "70,50 €",
    "0,00 €",
    "79,50 €",
    "17,63 €",
    "35,25 €",
    "2,13x",
  ]);

  // Sorting by a header: most first, then least first; by the ad, A to Z.
  const headline = (row: number) => bodyRows(table).nth(row).getByRole("rowheader");
  const conversations = table.getByRole("columnheader", { name: "Conversaciones" });
  await conversations.getByRole("button").click();
  await expect(conversations).toHaveAttribute("aria-sort", "descending");
  await expect(table.getByRole("columnheader", { name: "Ingresos" })).toHaveAttribute(
    "aria-sort",
    "none",
  );
  await expect(headline(0)).toContainText("Oferta de verano");
  await conversations.getByRole("button").click();
  await expect(conversations).toHaveAttribute("aria-sort", "ascending");
  await expect(headline(0)).toContainText("Rebajas de invierno");
  await table.getByRole("columnheader", { name: "Gasto", exact: true }).getByRole("button").click();
  await expect(headline(0)).toContainText("Oferta de verano");

  // A reload keeps the tab.
  await page.reload();
  await expect(page.getByRole("tab", { name: "Anuncios" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await expect(bodyRows(adsTable(page))).toHaveCount(2);

  // Dates without ads; the range is in the URL, and Back from another page keeps it.
  await page.getByLabel("Hasta").fill("2020-01-31");
  await page.getByLabel("Desde").fill("2020-01-01");
  await expect(page).toHaveURL(/date_from=2020-01-01/);
  await expect(page).toHaveURL(/date_to=2020-01-31/);
  await expect(
    page.getByText("Ningún anuncio trajo conversaciones en estas fechas."),
  ).toBeVisible();
  await page
    .getByRole("navigation", { name: "Principal" })
    .getByRole("link", { name: "Dashboard" })
    .click();
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await page.goBack();
  await expect(page.getByLabel("Desde")).toHaveValue("2020-01-01");
  await expect(page.getByRole("tab", { name: "Anuncios" })).toHaveAttribute(
    "aria-selected",
    "true",
  );
  await expect(
    page.getByText("Ningún anuncio trajo conversaciones en estas fechas."),
  ).toBeVisible();

  // Back again returns to the tab shown before.
  await page.goBack();
  await expect(page.getByRole("tab", { name: "Resumen" })).toHaveAttribute("aria-selected", "true");
});

test("without an ad account the spend is '—' and the tab says how to see it; a failed load says so and retries", async ({
  page,
}) => {
  const owner = await advertiser(page, { adAccount: false });
  const ad = { adId: `1203${unique()}`, headline: "Primera visita gratis" };
  const customer = await owner.customerFromAd(ad);
  await owner.record("purchase", customer, 45);

  // The first load fails in the network: a Spanish toast, and a way to try again.
  const adsReport = (url: URL) => url.pathname === "/api/v1/tracking/ads";
  await page.route(adsReport, (route) => route.abort());
  await page.goto("/tracking?tab=anuncios");
  await expect(
    page.locator("[data-sonner-toast]").filter({ hasText: "Error al cargar los anuncios" }),
  ).toBeVisible();
  await page.unroute(adsReport);
  await page.getByRole("button", { name: "Reintentar" }).click();

  const row = bodyRows(adsTable(page)).first();
  await expect(cells(row)).toHaveText([
    "1",
    "0",
    "0",
    "1",
    "45,00 €",
    "—",
    "0,00 €",
    "45,00 €",
    "—",
    "—",
    "—",
  ]);
  await expect(
    page.getByText(
      "Conecta una cuenta publicitaria en Configuración > Meta Business para ver el gasto y el ROAS.",
    ),
  ).toBeVisible();
});

test("while Meta is slow the tab shows it is loading, and when Meta fails it says the spend is the last one read", async ({
  page,
}) => {
  const owner = await advertiser(page, { adAccount: true });
  await owner.customerFromAd({ adId: `1204${unique()}`, headline: "Revisión anual" });
  await nextInsightsCall(page, { delay_ms: 1500, status: 500 });

  await page.goto("/tracking?tab=anuncios");
  await expect(page.getByRole("status", { name: "Cargando anuncios..." })).toBeVisible();
  await expect(page.getByText(/el gasto que ves es el último que se leyó de Meta/)).toBeVisible();
  const row = bodyRows(adsTable(page)).first();
  // Nothing was ever read: what is kept is no spend at all.
  await expect(cells(row)).toHaveText([
    "1",
    "0",
    "0",
    "0",
    "0,00 €",
    "0,00 €",
    "0,00 €",
    "0,00 €",
    "0,00 €",
    "—",
    "—",
  ]);
});
