// Rotating the public tracking key from Configuración > Tracking: confirmation, toast, the new
// snippet, and the old key refused at once.
import { expect, test } from "@playwright/test";
import { signedInOwner } from "./support";

test("'Regenerar clave' replaces the key in the snippet and the old key stops working", async ({
  page,
  baseURL,
}) => {
  const { headers } = await signedInOwner(page);
  const me = async () =>
    (await (await page.request.get("/api/v1/organizations/me", { headers })).json()).data;
  const oldKey: string = (await me()).tracking_key;
  const snippetOf = (key: string) =>
    `<script src="${new URL(baseURL!).origin}/t.js" data-key="${key}" async></script>`;
  const visitWith = (key: string) =>
    page.request.post("/api/v1/tracking/sessions", {
      headers: { "X-Tracking-Key": key },
      data: { tracking_params: { utm_source: "facebook" } },
    });

  await page.goto("/settings");
  await page.getByRole("tab", { name: "Tracking" }).click();
  const snippet = page.getByRole("textbox", { name: "Fragmento de seguimiento" });
  await expect(snippet).toHaveValue(snippetOf(oldKey));

  // Cancelling changes nothing.
  await page.getByRole("button", { name: "Regenerar clave" }).click();
  const dialog = page.getByRole("dialog", { name: "¿Regenerar la clave de tracking?" });
  await expect(dialog).toContainText("dejará de funcionar al momento en todas las páginas");
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  await expect(dialog).toBeHidden();
  expect((await me()).tracking_key).toBe(oldKey);

  await page.getByRole("button", { name: "Regenerar clave" }).click();
  await dialog.getByRole("button", { name: "Regenerar clave" }).click();
  await expect(
    page.locator("[data-sonner-toast]").filter({ hasText: "Clave de tracking regenerada" }),
  ).toBeVisible();
  await expect(dialog).toBeHidden();
  const newKey: string = (await me()).tracking_key;
  expect(newKey).not.toBe(oldKey);
  await expect(snippet).toHaveValue(snippetOf(newKey));

  expect((await visitWith(oldKey)).status()).toBe(401);
  expect((await visitWith(newKey)).status()).toBe(201);
});
