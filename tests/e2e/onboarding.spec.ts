import { expect, test, type Page } from "@playwright/test";

const uniqueEmail = () => `e2e-${Date.now()}-${Math.floor(Math.random() * 1e6)}@example.com`;

async function register(page: Page, email: string, name = "Marta Ruiz") {
  await page.goto("/auth");
  await page.getByRole("button", { name: "Regístrate" }).click();
  await page.getByLabel("Nombre completo").fill(name);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Contraseña").fill("secreto123");
  await page.getByRole("button", { name: "Crear cuenta" }).click();
  await expect(page.getByText("¡Cuenta creada! Redirigiendo...")).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
}

async function onboard(page: Page, organizationName: string) {
  await expect(page.getByRole("heading", { name: "Configura tu organización" })).toBeVisible();
  // The dashboard's data, asked for behind the wizard, found no organization: no error for that.
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: /Error/ })).toHaveCount(0);
  // Step 1 refuses to advance without its required fields.
  await page.getByRole("button", { name: "Siguiente" }).click();
  await expect(page.getByText("El nombre es obligatorio")).toBeVisible();
  await page.getByLabel("Nombre de la organización").fill(organizationName);
  await page.getByLabel("Sector").fill("Odontología");
  await page.getByRole("button", { name: "Siguiente" }).click();

  await expect(page.getByText("Paso 2 de 3: Detalles")).toBeVisible();
  await page.getByRole("button", { name: "Siguiente" }).click();
  await expect(page.getByText("La ciudad es obligatorio")).toBeVisible();
  await page.getByLabel("Ciudad").fill("Valencia");
  await page.getByLabel("País").fill("España");
  await page.getByLabel("Número de empleados").selectOption("11-50");
  // Back returns a step with the values kept.
  await page.getByRole("button", { name: "Atrás" }).click();
  await expect(page.getByLabel("Nombre de la organización")).toHaveValue(organizationName);
  await page.getByRole("button", { name: "Siguiente" }).click();
  await page.getByRole("button", { name: "Siguiente" }).click();

  await expect(page.getByText("Paso 3 de 3: Operación")).toBeVisible();
  await page.getByLabel("Servicios que ofreces").fill("Limpiezas y ortodoncia");
  await page.getByLabel("Horario de atención").fill("L-V 9:00-18:00");
  await page.getByLabel("¿Para qué usarás la IA?").fill("Responder dudas y dar citas");
  await page.getByRole("button", { name: "Crear organización" }).click();
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  // The new organization's figures, not the error page.
  await expect(page.getByRole("region", { name: "Resumen" })).toContainText(
    "Conversaciones abiertas",
  );
  await expect(page.getByRole("alert")).toHaveCount(0);
  // The person sees the confirmation on the page they land on (no reload swallows it).
  await expect(
    page.locator("[data-sonner-toast]").filter({ hasText: "¡Organización creada exitosamente!" }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
}

test("register, onboard, edit profile and organization, sign out", async ({ page }) => {
  const email = uniqueEmail();
  await register(page, email);
  await onboard(page, "Clínica Valencia");

  const nav = page.getByRole("navigation", { name: "Principal" });
  await expect(page.getByText("Clínica Valencia").first()).toBeVisible();
  await expect(page.getByText("Marta Ruiz").first()).toBeVisible();
  await expect(nav.getByRole("link", { name: "Dashboard" })).toHaveAttribute(
    "aria-current",
    "page",
  );

  // Settings → Usuario: the e-mail is read-only, the name is saved.
  await nav.getByRole("link", { name: "Configuración" }).click();
  await expect(nav.getByRole("link", { name: "Configuración" })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await page.getByRole("tab", { name: "Usuario" }).click();
  await expect(page.getByLabel("Email")).toHaveValue(email);
  await expect(page.getByLabel("Email")).toBeDisabled();
  await page.getByLabel("Nombre completo").fill("Marta Ruiz Soler");
  await page.getByRole("button", { name: "Guardar Cambios" }).click();
  await expect(page.getByText("Perfil actualizado correctamente")).toBeVisible();
  await expect(page.getByText("Marta Ruiz Soler").first()).toBeVisible();

  // Settings → Organización: a blank name is refused, a new city is saved.
  await page.getByRole("tab", { name: "Organización" }).click();
  await page.getByLabel("Nombre").fill("");
  await page.getByRole("button", { name: "Guardar Cambios" }).click();
  await expect(page.getByText("El nombre es obligatorio")).toBeVisible();
  await page.getByLabel("Nombre").fill("Clínica Valencia Centro");
  await page.getByLabel("Ciudad").fill("Alicante");
  // The facts the AI answers from, given at onboarding, stay editable; so does the currency.
  await expect(page.getByLabel("Horario de atención")).toHaveValue("L-V 9:00-18:00");
  await expect(page.getByLabel("Moneda")).toHaveValue("EUR");
  await page.getByLabel("Horario de atención").fill("");
  await page.getByRole("button", { name: "Guardar Cambios" }).click();
  await expect(page.getByText("El horario es obligatorio")).toBeVisible();
  await page.getByLabel("Horario de atención").fill("L-S 8:00-20:00");
  await page.getByLabel("Servicios que ofreces").fill("Limpiezas, ortodoncia e implantes");
  await page.getByLabel("¿Para qué usas la IA?").fill("Vender tratamientos");
  await page.getByLabel("Número de empleados").selectOption("51-200");
  await page.getByLabel("Moneda").selectOption("MXN");
  await page.getByRole("button", { name: "Guardar Cambios" }).click();
  await expect(page.getByText("Organización actualizada correctamente")).toBeVisible();

  // The change is stored: it survives a reload, on the separate organization screen too.
  await page.goto("/settings/organization");
  await expect(page.getByRole("heading", { name: "Configuración de Organización" })).toBeVisible();
  await expect(page.getByLabel("Ciudad")).toHaveValue("Alicante");
  await expect(page.getByText("Clínica Valencia Centro").first()).toBeVisible();
  await expect(page.getByLabel("Horario de atención")).toHaveValue("L-S 8:00-20:00");
  await expect(page.getByLabel("Servicios que ofreces")).toHaveValue(
    "Limpiezas, ortodoncia e implantes",
  );
  await expect(page.getByLabel("¿Para qué usas la IA?")).toHaveValue("Vender tratamientos");
  await expect(page.getByLabel("Número de empleados")).toHaveValue("51-200");
  await expect(page.getByLabel("Moneda")).toHaveValue("MXN");

  await page.getByRole("button", { name: "Cerrar sesión" }).click();
  await expect(page.getByText("Sesión cerrada")).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
  expect(await page.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();

  // Signed out, the console sends you back to /auth.
  await page.goto("/dashboard");
  await expect(page).toHaveURL(/\/auth$/);

  // And the same account signs in again.
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Contraseña").fill("secreto123");
  await page.getByRole("button", { name: "Iniciar Sesión" }).click();
  await expect(page.getByText("¡Bienvenido!")).toBeVisible();
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
});

test("a wrong password shows the catalogue message inline and as a toast", async ({ page }) => {
  await page.goto("/auth");
  await page.getByLabel("Email").fill(uniqueEmail());
  await page.getByLabel("Contraseña").fill("incorrecta");
  await page.getByRole("button", { name: "Iniciar Sesión" }).click();
  const message = "Credenciales incorrectas. Verifica tu email y contraseña.";
  await expect(page.getByRole("alert").filter({ hasText: message })).toBeVisible();
  await expect(page.locator("[data-sonner-toast]").filter({ hasText: message })).toBeVisible();
  await expect(page).toHaveURL(/\/auth$/);
});

test("the login form validates before calling the server", async ({ page }) => {
  await page.goto("/auth");
  await page.getByRole("button", { name: "Regístrate" }).click();
  await page.getByLabel("Email").fill("no-es-un-email");
  await page.getByLabel("Contraseña").fill("123");
  await page.getByRole("button", { name: "Crear cuenta" }).click();
  await expect(page.getByText("El nombre completo es obligatorio")).toBeVisible();
  await expect(page.getByText("Introduce un email válido")).toBeVisible();
  await expect(page.getByText("La contraseña debe tener al menos 6 caracteres")).toBeVisible();
});

test("a read refused for a session ended elsewhere says so once and leads to /auth", async ({
  page,
}) => {
  // The socket never tells (a proxy that drops it): the screen's next reads are refused (401).
  await page.routeWebSocket(/\/ws/, () => undefined);
  await register(page, uniqueEmail());
  await onboard(page, "Tienda Sur");
  const token = await page.evaluate(() => localStorage.getItem("auth_token"));
  await page.request.post("/api/v1/auth/logout", { headers: { Authorization: `Bearer ${token}` } });
  await page.getByRole("link", { name: "Configuración" }).first().click();
  await expect(page).toHaveURL(/\/auth$/);
  const told = page
    .locator("[data-sonner-toast]")
    .filter({ hasText: "Tu sesión ha expirado. Por favor, inicia sesión nuevamente." });
  await expect(told).toHaveCount(1);
  expect(await page.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();
});

test("a revoked token sends the user back to /auth", async ({ page }) => {
  await register(page, uniqueEmail());
  await onboard(page, "Tienda Norte");
  const token = await page.evaluate(() => localStorage.getItem("auth_token"));
  await page.request.post("/api/v1/auth/logout", { headers: { Authorization: `Bearer ${token}` } });
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/auth$/);
  expect(await page.evaluate(() => localStorage.getItem("auth_token"))).toBeNull();
});

test("@mobile the sidebar is a slide-out menu on small screens", async ({ page }) => {
  await register(page, uniqueEmail());
  await onboard(page, "Panadería Sur");
  const nav = page.getByRole("navigation", { name: "Principal" });
  await expect(nav).toBeHidden();
  await page.getByRole("button", { name: "Abrir menú" }).click();
  await expect(nav).toBeVisible();
  await nav.getByRole("link", { name: "Configuración" }).click();
  await expect(page).toHaveURL(/\/settings$/);
  await expect(nav).toBeHidden();
});
