// From the ad to the sale in the console: the stage the AI and the team set, a sale
// registered in the conversation, what Meta answered, the ad's report, and what Meta
// detected in the chat confirmed with one click.
import { expect, test, type Page } from "@playwright/test";
import { ctwaReferral, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { deliver, signedInOwner } from "./support";
import { E2E_SETTINGS } from "./settings.mjs";

const GRAPH = `http://127.0.0.1:${E2E_SETTINGS.graphPort}`;
/** The fake's own account: Meta finds (or creates) its dataset for click-to-WhatsApp events. */
const WABA = GRAPH_FIXTURES.wabaId;
const unique = () => `${Date.now()}${Math.floor(Math.random() * 1000)}`.slice(-9);

/**
 * An owner with a connected number answered by an AI agent that may mark leads, a pixel
 * whose login found the fake ad account, and one customer who wrote from an ad.
 */
async function customerFromAd(page: Page, text: string) {
  const owner = await signedInOwner(page);
  const connected = await page.request.post("/api/v1/whatsapp-config", {
    headers: owner.headers,
    data: {
      phone_number_id: owner.phoneNumberId,
      business_account_id: WABA,
      access_token: "sandbox-access-token",
    },
  });
  expect(connected.status()).toBe(201);
  const pixel = await page.request.post("/api/v1/meta-config/connect", {
    headers: owner.headers,
    data: { code: `valid-ads-${unique()}` },
  });
  expect(pixel.status()).toBe(200);
  const agent = await page.request.post("/api/v1/agents", {
    headers: owner.headers,
    data: { name: "Bot", system_prompt: "Eres útil.", can_mark_leads: true },
  });
  expect(agent.status()).toBe(201);
  const defaultAgent = await page.request.patch("/api/v1/whatsapp-config", {
    headers: owner.headers,
    data: { default_agent_id: (await agent.json()).data.id },
  });
  expect(defaultAgent.status()).toBe(200);

  const ad = {
    adId: `1205${unique()}`,
    headline: "Blanqueamiento dental",
    ctwaClid: `ARAk${unique()}`,
  };
  const from = String(34_611_000_000 + Math.floor(Math.random() * 1e6));
  await deliver(
    page.request,
    inboundMessage({
      phoneNumberId: owner.phoneNumberId,
      wabaId: WABA,
      from,
      name: "Ana Ruiz",
      text,
      referral: ctwaReferral(ad),
    }),
  );
  return { ...owner, ad, from };
}

/** Opens the customer's conversation from the list, and its details beside it. */
async function openConversation(page: Page) {
  await page.goto("/conversations");
  await page.getByRole("list", { name: "Conversaciones" }).getByText("Ana Ruiz").click();
  await expect(page.getByRole("heading", { name: "Ana Ruiz" })).toBeVisible();
  await page.getByRole("button", { name: "Detalles" }).click();
  await expect(panel(page)).toBeVisible();
}

/** Chooses a value of the inbox's "Filtros" panel. */
async function filterBy(page: Page, label: string, value: string) {
  await page.getByRole("button", { name: /^Filtros/ }).click();
  await page.getByLabel(label).selectOption(value);
}

const panel = (page: Page) => page.getByRole("complementary", { name: "Ventas y origen" });
const conversionsList = (page: Page) =>
  panel(page).getByRole("list", { name: "Conversiones enviadas a Meta" });

test("a customer from an ad becomes a lead through the AI, a sale is registered, Meta receives it, and the ad's report counts it", async ({
  page,
}) => {
  const { ad } = await customerFromAd(page, "¿Qué precio tiene el blanqueamiento?");

  // The AI answered and marked the lead: the list shows the stage, the filter finds it.
  await page.goto("/conversations");
  const row = page.getByRole("list", { name: "Conversaciones" }).getByRole("listitem").first();
  await expect(row.getByRole("link").getByText("Interesado", { exact: true })).toBeVisible();
  await filterBy(page, "Filtrar por etapa", "customer");
  await expect(page.getByText("Ninguna conversación coincide con los filtros.")).toBeVisible();
  await filterBy(page, "Filtrar por etapa", "lead");
  await expect(
    page.getByRole("list", { name: "Conversaciones" }).getByText("Ana Ruiz"),
  ).toBeVisible();

  await openConversation(page);
  await expect(page.getByLabel("Etapa", { exact: true })).toHaveValue("lead");
  await expect(panel(page).getByText("Anuncio: Blanqueamiento dental")).toBeVisible();
  const adLink = panel(page).getByRole("link", { name: "Ver anuncio" });
  await expect(adLink).toHaveAttribute("href", "https://fb.me/abc");
  await expect(adLink).toHaveAttribute("target", "_blank");
  await expect(adLink).toHaveAttribute("rel", "noopener noreferrer");
  await expect(conversionsList(page).getByText("Interesado")).toBeVisible();

  // A person registers the 120 € sale; the currency is the organization's.
  const register = panel(page).getByRole("button", { name: "Registrar venta" });
  await register.click();
  const dialog = page.getByRole("dialog", { name: "Registrar venta" });
  await expect(dialog.getByLabel("Moneda")).toHaveValue("EUR");
  await dialog.getByLabel("Importe").fill("0");
  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expect(dialog.getByText("Introduce un importe mayor que 0")).toBeVisible();
  await dialog.getByLabel("Importe").fill("120");
  await dialog.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("Venta registrada")).toBeVisible();
  await expect(dialog).toHaveCount(0);
  await expect(register).toBeFocused();

  const sale = conversionsList(page).getByRole("listitem").filter({ hasText: "Venta de 120,00 €" });
  await expect(sale).toHaveCount(1);
  await expect(sale.getByText("Recibido por Meta")).toBeVisible();
  await expect(page.getByLabel("Etapa", { exact: true })).toHaveValue("customer");

  // The ad spent 40 €: the report shows its conversation, lead, sale, revenue and ROAS.
  const spend = await page.request.post(`${GRAPH}/__fake/insights`, {
    data: {
      rows: [
        {
          ad_id: ad.adId,
          ad_name: ad.headline,
          spend: 40,
          date: new Date().toISOString().slice(0, 10),
        },
      ],
    },
  });
  expect(spend.status()).toBe(200);
  await page.goto("/tracking?tab=anuncios");
  const adRow = page
    .getByRole("table", { name: "Anuncios" })
    .locator("tbody tr")
    .filter({ hasText: ad.adId });
  // The AI's replies are billable and this fake Meta reports no pricing yet: their cost is
  // not known ("—"), and the profit counts the spend alone.
  await expect(adRow.locator("td")).toHaveText([
    "1",
    "1",
    "0",
    "1",
    "120,00 €",
    "40,00 €",
    "—",
    "80,00 €",
    "40,00 €",
    "40,00 €",
    "3,00x",
  ]);
});

test("a stage set by one person shows live to a teammate, in the conversation and in the list", async ({
  page,
  browser,
}) => {
  const { token } = await customerFromAd(page, "Hola, vi vuestro anuncio");
  await openConversation(page);
  await expect(page.getByLabel("Etapa", { exact: true })).toHaveValue("new");

  const other = await browser.newContext();
  const teammate = await other.newPage();
  await teammate.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  await teammate.goto("/conversations");
  await teammate.getByRole("button", { name: "Opciones de Ana Ruiz" }).click();
  await expect(teammate.getByLabel("Etapa de Ana Ruiz")).toHaveValue("new");

  await page.getByLabel("Etapa", { exact: true }).selectOption("lost");
  await expect(page.getByText("Conversación actualizada")).toBeVisible();
  await expect(teammate.getByLabel("Etapa de Ana Ruiz")).toHaveValue("lost");
  await expect(
    teammate
      .getByRole("list", { name: "Conversaciones" })
      .getByRole("link")
      .getByText("Perdido", { exact: true }),
  ).toBeVisible();

  // And back from the list: the open conversation follows.
  await teammate.getByLabel("Etapa de Ana Ruiz").selectOption("lead");
  await expect(page.getByLabel("Etapa", { exact: true })).toHaveValue("lead");
  await expect(conversionsList(page).getByText("Interesado")).toBeVisible();
  await other.close();
});

test("a purchase Meta detected shows as a suggestion; confirming it records the sale once", async ({
  page,
}) => {
  const { ad } = await customerFromAd(page, "Hola, vi vuestro anuncio");
  await openConversation(page);

  // Meta's automatic_events webhook, delivered while the conversation is open.
  const detected = {
    wabaId: WABA,
    field: "automatic_events",
    value: {
      messaging_product: "whatsapp",
      automatic_events: [
        {
          id: `wamid.${unique()}`,
          event_name: "Purchase",
          timestamp: Math.floor(Date.now() / 1000),
          ctwa_clid: ad.ctwaClid,
          custom_data: { currency: "EUR", value: 120 },
        },
      ],
    },
  };
  await deliver(page.request, detected);
  await deliver(page.request, detected); // Meta redelivers: still one suggestion
  const banner = panel(page).getByRole("group", { name: "Meta detectó una compra de 120 €" });
  await expect(banner).toHaveCount(1);

  await banner.getByRole("button", { name: "Confirmar" }).click();
  await expect(banner).toHaveCount(0);
  await expect(page.getByLabel("Etapa", { exact: true })).toHaveValue("customer");
  const sales = conversionsList(page)
    .getByRole("listitem")
    .filter({ hasText: "Venta de 120,00 €" });
  await expect(sales).toHaveCount(1);

  // After a reload: no suggestion left, still one sale.
  await page.reload();
  await expect(panel(page).getByRole("group", { name: /Meta detectó/ })).toHaveCount(0);
  await expect(sales).toHaveCount(1);
});

test("priority and contact name are editable in the conversation screen", async ({ page }) => {
  await customerFromAd(page, "Hola");
  await openConversation(page);
  await page.getByLabel("Prioridad", { exact: true }).selectOption("urgent");
  await expect(page.getByText("Conversación actualizada")).toBeVisible();

  await page.getByRole("button", { name: "Editar nombre del contacto" }).click();
  await page.getByLabel("Nombre del contacto").fill("Otra");
  await page.getByLabel("Nombre del contacto").press("Escape");
  await expect(page.getByRole("heading", { name: "Ana Ruiz" })).toBeVisible();

  await page.getByRole("button", { name: "Editar nombre del contacto" }).click();
  await page.getByLabel("Nombre del contacto").fill("Ana Ruiz López");
  await page.getByLabel("Nombre del contacto").press("Enter");
  await expect(page.getByRole("heading", { name: "Ana Ruiz López" })).toBeVisible();

  await page.reload();
  await expect(page.getByRole("heading", { name: "Ana Ruiz López" })).toBeVisible();
  await expect(page.getByLabel("Prioridad", { exact: true })).toHaveValue("urgent");
});
