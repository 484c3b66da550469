import { expect, test, type Page } from "@playwright/test";
import { customerMessage, deliver, signedInOwner } from "./support";

const openConversations = (page: Page) =>
  page
    .getByRole("region", { name: "Resumen" })
    .getByRole("link")
    .filter({ hasText: "Conversaciones abiertas" });

test("the dashboard's figures and recent conversations follow new messages live", async ({
  page,
}) => {
  const { phoneNumberId } = await signedInOwner(page, { connect: true });
  await page.goto("/dashboard");
  await expect(openConversations(page)).toContainText("0");
  await expect(page.getByText("No hay conversaciones abiertas.")).toBeVisible();

  await deliver(page.request, customerMessage(phoneNumberId, "34655000111", "Hola", "Rosa"));
  await expect(openConversations(page)).toContainText("1");
  const recent = page.getByRole("region", { name: "Conversaciones abiertas recientes" });
  await expect(recent.getByRole("link", { name: /Rosa/ })).toBeVisible();
});

test("a reload of the dashboard shows the same figures", async ({ page }) => {
  const { headers } = await signedInOwner(page);
  const created = await page.request.post("/api/v1/agents", {
    headers,
    data: { name: "Recepción", system_prompt: "Eres la recepción." },
  });
  expect(created.status()).toBe(201);
  await page.goto("/dashboard");
  const agents = page.getByRole("region", { name: "Agentes de IA" });
  await expect(agents.getByText("Recepción")).toBeVisible();
  await page.reload();
  await expect(agents.getByText("Recepción")).toBeVisible();
  await expect(page.getByRole("alert")).toHaveCount(0);
});
