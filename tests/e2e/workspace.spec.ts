import { expect, test, type Page } from "@playwright/test";
import { customerMessage, deliver, signedInOwner } from "./support";

/** An organization with two customers who wrote, the inbox filtered to "Nuevo" in the URL. */
async function inboxWithTwoCustomers(page: Page) {
  const { phoneNumberId } = await signedInOwner(page, { connect: true });
  await deliver(
    page.request,
    customerMessage(phoneNumberId, "34633000001", "Quiero pedir cita", "Irene Sanz"),
    customerMessage(phoneNumberId, "34633000002", "¿Abrís el sábado?", "Jon Ugarte"),
  );
  await page.goto("/conversations?stage=new");
  return page.getByRole("list", { name: "Conversaciones" });
}

test("on a wide screen the list stays beside the open conversation", async ({ page }) => {
  const list = await inboxWithTwoCustomers(page);
  await list.getByRole("link", { name: /Irene Sanz/ }).click();
  await expect(page).toHaveURL(/\/conversations\/[^?]+\?stage=new$/);
  await expect(page.getByRole("heading", { name: "Irene Sanz", level: 2 })).toBeVisible();
  await expect(page.getByText("Quiero pedir cita").last()).toBeVisible();
  // The list is still there, the open row marked, and the next conversation one click away.
  await expect(list).toBeVisible();
  await expect(list.getByRole("link", { name: /Irene Sanz/ })).toHaveAttribute(
    "aria-current",
    "page",
  );
  await list.getByRole("link", { name: /Jon Ugarte/ }).click();
  await expect(page.getByRole("heading", { name: "Jon Ugarte", level: 2 })).toBeVisible();
  await expect(page.getByRole("list", { name: "Mensajes" })).toContainText("¿Abrís el sábado?");
  await expect(page.getByRole("list", { name: "Mensajes" })).not.toContainText("Quiero pedir cita");
  // Back returns to the first conversation, the filters untouched.
  await page.goBack();
  await expect(page.getByRole("heading", { name: "Irene Sanz", level: 2 })).toBeVisible();
  await expect(page.getByRole("button", { name: "Quitar filtro Etapa: Nuevo" })).toBeVisible();
});

test("@mobile on a phone the open conversation takes the screen and leads back to the list", async ({
  page,
}) => {
  const list = await inboxWithTwoCustomers(page);
  await list.getByRole("link", { name: /Jon Ugarte/ }).click();
  await expect(page.getByRole("heading", { name: "Jon Ugarte", level: 2 })).toBeVisible();
  await expect(list).toBeHidden();
  await page.getByRole("link", { name: "Volver a conversaciones" }).click();
  await expect(page).toHaveURL(/\/conversations\?stage=new$/);
  await expect(list.getByRole("listitem")).toHaveCount(2);
});

test("a message that arrives while a conversation opens is not lost", async ({ page }) => {
  const { phoneNumberId } = await signedInOwner(page, { connect: true });
  await deliver(page.request, customerMessage(phoneNumberId, "34633000003", "Hola", "Marta"));
  await page.goto("/conversations");
  await expect(page.getByText("Tiempo Real", { exact: true })).toBeVisible();
  const list = page.getByRole("list", { name: "Conversaciones" });
  // The newest page is read before the customer writes again and reaches the screen after
  // the message's realtime event has come and gone.
  await page.route(
    /\/messages\?limit=20$/,
    async (route) => {
      const before = await route.fetch();
      await deliver(
        page.request,
        customerMessage(phoneNumberId, "34633000003", "¿Tenéis hueco hoy?", "Marta"),
      );
      await expect(list.getByText("¿Tenéis hueco hoy?")).toBeVisible();
      await route.fulfill({ response: before });
    },
    { times: 1 },
  );
  await list.getByRole("link", { name: /Marta/ }).click();
  const messages = page.getByRole("list", { name: "Mensajes" });
  await expect(messages.getByText("Hola")).toBeVisible();
  await expect(messages.getByText("¿Tenéis hueco hoy?")).toBeVisible();
});
