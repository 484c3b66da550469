// Agenda > Recordatorios (contract section 18, decision 0120): an owner sees that without a
// template no reminders are sent, is offered the account's approved UTILITY templates, and a
// template without the reminder's three buttons is refused with the API's words.
import { expect, test } from "@playwright/test";
import { expectAccessible, productErrors, signedInOwner } from "./support";

test("an owner picks the reminders' template; one without the three buttons is refused", async ({
  page,
}) => {
  const errors = productErrors(page);
  await signedInOwner(page, { connect: true });
  await page.goto("/agenda");
  const panel = page.getByRole("region", { name: "Recordatorios" });
  await expect(panel).toBeVisible();
  await expect(panel.getByText("Sin plantilla elegida no se envían recordatorios.")).toBeVisible();
  const picker = panel.getByLabel("Plantilla del recordatorio");
  // Only approved utility templates: the marketing one is not offered.
  await expect(picker.locator("option")).toHaveText(["Sin recordatorios", "seguimiento_cita (es)"]);
  await expectAccessible(page, "agenda", 'section[aria-labelledby="reminders-title"]');
  await picker.selectOption({ label: "seguimiento_cita (es)" });
  await panel.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("No se pudieron guardar los recordatorios")).toBeVisible();
  await expect(page.getByText(/necesita tres botones de respuesta rápida/)).toBeVisible();
  await expect(panel.getByText("Sin plantilla elegida no se envían recordatorios.")).toBeVisible();
  expect(errors).toEqual([]);
});
