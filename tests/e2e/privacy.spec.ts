import { readFile } from "node:fs/promises";
import { expect, test } from "@playwright/test";
import { signedInOwner } from "./support";

test("downloads the user's data as JSON, and deletes the account after the password", async ({
  page,
}) => {
  const { headers } = await signedInOwner(page);
  const me = await page.request.get("/api/v1/auth/me", { headers });
  const email: string = (await me.json()).data.user.email;
  await page.goto("/settings/user");

  const download = page.waitForEvent("download");
  await page.getByRole("button", { name: "Descargar mis datos" }).click();
  const file = await download;
  expect(file.suggestedFilename()).toBe("mis-datos-atiende.json");
  const exported = JSON.parse(await readFile((await file.path())!, "utf8"));
  expect(exported.user.email).toBe(email);
  expect(exported.organization.name).toBe("Clínica Norte");

  // A wrong password is refused next to the field, and nothing is deleted.
  await page.getByRole("button", { name: "Eliminar mi cuenta" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("¿Eliminar tu cuenta?")).toBeVisible();
  await dialog.getByRole("button", { name: "Eliminar mi cuenta" }).click();
  await expect(dialog.getByText("Confirma tu contraseña")).toBeVisible();
  await dialog.getByLabel("Contraseña").fill("no-es-esta");
  await dialog.getByRole("button", { name: "Eliminar mi cuenta" }).click();
  await expect(dialog.getByText("La contraseña no es correcta.")).toBeVisible();
  expect((await page.request.get("/api/v1/auth/me", { headers })).status()).toBe(200);

  // The right one deletes the account and signs out, back on the landing page.
  await dialog.getByLabel("Contraseña").fill("secreto123");
  await dialog.getByRole("button", { name: "Eliminar mi cuenta" }).click();
  await expect(page.getByText("Cuenta eliminada")).toBeVisible();
  await expect(page).toHaveURL(/\/$/);
  await expect.poll(() => page.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();
  expect((await page.request.get("/api/v1/auth/me", { headers })).status()).toBe(401);
});
