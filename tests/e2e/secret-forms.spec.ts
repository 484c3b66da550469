// A form carrying a password can never be sent as a GET: before the console's script runs
// (a slow phone, a page reloaded mid-typing) its fields are disabled, and it posts.
import { expect, test } from "@playwright/test";

test.use({ javaScriptEnabled: false });

test("before the script runs, the login form cannot be sent and never puts the password in the URL", async ({
  page,
}) => {
  await page.goto("/auth");
  const form = page.locator("form").filter({ has: page.getByLabel("Contraseña") });
  await expect(form).toHaveAttribute("method", "post");
  await expect(page.getByLabel("Contraseña")).toBeDisabled();
  await expect(page.getByRole("button", { name: "Iniciar Sesión" })).toBeDisabled();
  // Switching to the registration form waits for the script too (a click would be lost).
  await expect(page.getByRole("button", { name: "Regístrate" })).toBeDisabled();
  // Enter in a disabled form does nothing: the address stays as it was.
  await page.getByLabel("Email").press("Enter");
  await expect(page).toHaveURL(/\/auth$/);
});
