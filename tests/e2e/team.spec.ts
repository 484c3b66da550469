import { expect, test, type Browser, type Page } from "@playwright/test";
import { ORGANIZATION, signedInOwner, uniqueEmail } from "./support";

const members = (page: Page) => page.getByRole("list", { name: "Miembros del equipo" });
const auditLog = (page: Page) => page.getByRole("list", { name: "Registro de actividad" });
/**
 * A toast saying `text`: the activity log on the same screen may say it too, once it has
 * reloaded after the change, and only the toast is the answer to the click.
 */
const toast = (page: Page, text: string) =>
  page.locator("[data-sonner-toast]").filter({ hasText: text });

/** Invites `email` from the organization settings and returns the link shown to the owner. */
async function inviteFromSettings(page: Page, email: string) {
  await page.getByLabel("Email de la persona").fill(email);
  await expect(page.getByLabel("Rol", { exact: true })).toHaveValue("agent");
  await page.getByRole("button", { name: "Invitar" }).click();
  await expect(page.getByText("Invitación creada")).toBeVisible();
  const link = page.getByRole("textbox", { name: "Enlace de invitación" });
  await expect(link).toHaveValue(/\/auth\?invitation=\w{20,}$/);
  return link.inputValue();
}

/** Someone else, in a browser of their own, opens the link and creates an account. */
async function registerThroughLink(
  browser: Browser,
  link: string,
  fullName: string,
  email: string,
) {
  const context = await browser.newContext();
  const guest = await context.newPage();
  await guest.goto(link);
  await expect(guest.getByText("Te han invitado a unirte a una organización")).toBeVisible();
  await guest.getByLabel("Nombre completo").fill(fullName);
  await guest.getByLabel("Email").fill(email);
  await guest.getByLabel("Contraseña").fill("secreto123");
  await guest.getByRole("button", { name: "Crear cuenta" }).click();
  return { context, guest };
}

test("an owner invites a teammate, who joins as agent; the owner changes the role and removes them", async ({
  page,
  browser,
  baseURL,
}) => {
  await signedInOwner(page);
  await page.context().grantPermissions(["clipboard-read", "clipboard-write"], {
    origin: baseURL!,
  });
  await page.goto("/settings/organization");
  await expect(members(page).getByText("Marta Ruiz (tú)")).toBeVisible();

  const email = uniqueEmail("team");
  const link = await inviteFromSettings(page, email);
  await page.getByRole("button", { name: "Copiar Enlace de invitación" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);
  const pending = page.getByRole("list", { name: "Invitaciones pendientes" });
  await expect(pending.getByText(email)).toBeVisible();

  // The teammate registers through the link and lands in the organization as an agent.
  const { context, guest } = await registerThroughLink(browser, link, "Pedro Sanz", email);
  await expect(guest.getByText(`Te has unido a ${ORGANIZATION.name}`)).toBeVisible();
  await expect(guest).toHaveURL(/\/dashboard$/);
  await expect(guest.getByRole("heading", { name: "Dashboard" })).toBeVisible();

  // An agent sees the team but none of the controls to manage it.
  await guest.goto("/settings/organization");
  await expect(members(guest).getByText("Pedro Sanz (tú)")).toBeVisible();
  await expect(members(guest).getByText("Agente")).toBeVisible();
  await expect(members(guest).getByText("Propietario")).toBeVisible();
  await expect(members(guest).getByRole("combobox")).toHaveCount(0);
  await expect(members(guest).getByRole("button")).toHaveCount(0);
  await expect(guest.getByRole("heading", { name: "Invitaciones" })).toHaveCount(0);
  await expect(guest.getByRole("heading", { name: "Registro de actividad" })).toHaveCount(0);

  // The owner sees the new member, and the invitation is no longer pending.
  await page.reload();
  await expect(pending.getByText("No hay invitaciones pendientes.")).toBeVisible();
  const teammateRole = members(page).getByLabel("Rol de Pedro Sanz");
  await expect(teammateRole).toHaveValue("agent");
  await teammateRole.selectOption({ label: "Administrador" });
  await expect(page.getByText("Rol actualizado")).toBeVisible();
  await expect(teammateRole).toHaveValue("admin");

  // The only owner cannot step down: the server's reason is shown.
  await members(page).getByLabel("Rol de Marta Ruiz").selectOption({ label: "Agente" });
  await expect(page.getByText("La organización necesita al menos un propietario.")).toBeVisible();
  await expect(members(page).getByLabel("Rol de Marta Ruiz")).toHaveValue("owner");

  await members(page).getByRole("button", { name: "Eliminar a Pedro Sanz" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog.getByText("¿Eliminar a este miembro?")).toBeVisible();
  await dialog.getByRole("button", { name: "Eliminar" }).click();
  await expect(toast(page, "Miembro eliminado")).toBeVisible();
  await expect(members(page).getByText("Pedro Sanz")).toHaveCount(0);

  // The activity log tells the story, newest first, with who did what.
  await page.reload();
  const entries = auditLog(page).getByRole("listitem");
  await expect(entries.nth(0)).toContainText("Miembro eliminado");
  await expect(entries.nth(0)).toContainText(email);
  await expect(entries.nth(0)).toContainText("Por Marta Ruiz");
  await expect(entries.nth(1)).toContainText("Rol cambiado");
  await expect(entries.nth(1)).toContainText("Agente → Administrador");
  await expect(entries.nth(2)).toContainText("Nuevo miembro");
  await expect(entries.nth(2)).toContainText("Por Pedro Sanz");
  await expect(entries.nth(3)).toContainText("Invitación creada");
  await expect(entries.nth(4)).toContainText("Organización creada");
  await context.close();
});

test("a used invitation link says why it no longer works", async ({ page, browser }) => {
  await signedInOwner(page);
  await page.goto("/settings/organization");
  const link = await inviteFromSettings(page, uniqueEmail("used"));
  const first = await registerThroughLink(browser, link, "Primera Persona", uniqueEmail("first"));
  await expect(first.guest.getByText(`Te has unido a ${ORGANIZATION.name}`)).toBeVisible();
  await first.context.close();

  const second = await registerThroughLink(browser, link, "Segunda Persona", uniqueEmail("second"));
  await expect(second.guest.getByText("No se pudo aceptar la invitación")).toBeVisible();
  await expect(
    second.guest.getByText("La invitación no existe, ya se usó o ha caducado."),
  ).toBeVisible();
  // Still signed in, without an organization: onboarding lets them create their own.
  await expect(second.guest).toHaveURL(/\/dashboard$/);
  await second.context.close();
});

test("the activity log pages with 'Cargar más'; pending invitations can be revoked", async ({
  page,
}) => {
  const { headers } = await signedInOwner(page);
  // 25 invitations + the organization's creation: more than one page of 20.
  for (let i = 0; i < 25; i++) {
    const response = await page.request.post("/api/v1/organizations/invitations", {
      headers,
      data: { email: `persona-${i}@example.com`, role: "agent" },
    });
    expect(response.status()).toBe(201);
  }
  await page.goto("/settings/organization");
  const entries = auditLog(page).getByRole("listitem");
  await expect(entries).toHaveCount(20);
  await expect(entries.first()).toContainText("persona-24@example.com");
  await page.getByRole("button", { name: "Cargar más" }).click();
  await expect(entries).toHaveCount(26);
  await expect(entries.last()).toContainText("Organización creada");
  await expect(page.getByRole("button", { name: "Cargar más" })).toHaveCount(0);

  const pending = page.getByRole("list", { name: "Invitaciones pendientes" });
  await expect(pending.getByRole("listitem")).toHaveCount(25);
  await pending
    .getByRole("button", { name: "Revocar la invitación de persona-0@example.com" })
    .click();
  await expect(page.getByText("Invitación revocada")).toBeVisible();
  await expect(pending.getByRole("listitem")).toHaveCount(24);
});

test("an admin who leaves the organization is shown onboarding at once", async ({
  page,
  browser,
}) => {
  await signedInOwner(page);
  await page.goto("/settings/organization");
  const email = uniqueEmail("self");
  const link = await inviteFromSettings(page, email);
  const { context, guest } = await registerThroughLink(browser, link, "Lucía Gil", email);
  await expect(guest).toHaveURL(/\/dashboard$/);
  await page.reload();
  await members(page).getByLabel("Rol de Lucía Gil").selectOption({ label: "Administrador" });
  await expect(members(page).getByLabel("Rol de Lucía Gil")).toHaveValue("admin");

  // A role change ends the person's sessions (decision 0015): she signs in again, as admin.
  // Her socket reaches nothing here, so the server's closing it (4001, which signs the console
  // out) does not arrive: the screen itself must take her out of the organization she left.
  await guest.routeWebSocket(/\/ws/, () => {});
  await guest.goto("/auth");
  await guest.getByLabel("Email").fill(email);
  await guest.getByLabel("Contraseña").fill("secreto123");
  await guest.getByRole("button", { name: "Iniciar Sesión" }).last().click();
  await expect(guest).toHaveURL(/\/dashboard$/);
  await guest.goto("/settings/organization");
  await expect(guest.getByRole("heading", { name: "Invitaciones", exact: true })).toBeVisible();

  await members(guest).getByRole("button", { name: "Eliminar a Lucía Gil" }).click();
  await guest.getByRole("dialog").getByRole("button", { name: "Eliminar" }).click();
  await expect(toast(guest, "Miembro eliminado")).toBeVisible();
  await expect(guest.getByRole("heading", { name: "Configura tu organización" })).toBeVisible();
  await expect(guest).toHaveURL(/\/dashboard$/);
  await context.close();
});
