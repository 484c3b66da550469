// The Agenda (contract section 18, issue #47) in the console: an owner sets the opening hours
// in Configuración > Organización, creates a service in the Agenda, books a customer's
// conversation into a free slot tomorrow, sees it in the day view and in the conversation's
// details, moves it and cancels it; a slot taken meanwhile is refused with the API's message
// and the nearest free slots, and the booking that took it reaches the screen by its event.
import { expect, test, type Page } from "@playwright/test";
import {
  customerMessage,
  deliver,
  expectAccessible,
  productErrors,
  signedInOwner,
} from "./support";

const SERVICE = "Limpieza dental";

/** A customer writes; answers their conversation's id. */
async function customer(
  page: Page,
  owner: { headers: Record<string, string>; phoneNumberId: string },
  name: string,
) {
  const from = String(34_622_000_000 + Math.floor(Math.random() * 1e6));
  await deliver(page.request, customerMessage(owner.phoneNumberId, from, "Quiero una cita", name));
  await expect
    .poll(async () => {
      const list = await page.request.get("/api/v1/conversations", { headers: owner.headers });
      const found = (await list.json()).data.conversations.find(
        (c: { contact: { name: string | null } }) => c.contact.name === name,
      );
      return found?.id as string | undefined;
    })
    .toBeTruthy();
  const list = await page.request.get("/api/v1/conversations", { headers: owner.headers });
  return (await list.json()).data.conversations.find(
    (c: { contact: { name: string | null } }) => c.contact.name === name,
  ).id as string;
}

const booking = (page: Page, time: string) =>
  page.getByRole("listitem", { name: `${time} ${SERVICE}` });

test("an owner sets the hours, creates a service, books, moves and cancels; a taken slot offers the nearest ones", async ({
  page,
}) => {
  test.setTimeout(90_000);
  const errors = productErrors(page);
  const owner = await signedInOwner(page, { connect: true });
  const lucia = await customer(page, owner, "Lucía Gómez");
  const pedro = await customer(page, owner, "Pedro Sanz");

  // Opening hours: every day 09:00-14:00, an away message, an hour's notice.
  await page.goto("/settings/organization");
  const hours = page.getByRole("region", { name: "Agenda: horas de apertura" });
  await expect(hours).toBeVisible();
  for (const day of ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"]) {
    await hours.getByRole("button", { name: `Añadir tramo al ${day}` }).click();
  }
  await hours.getByLabel("Antelación mínima (minutos)").fill("60");
  await hours.getByLabel("Enviar mensaje de ausencia fuera del horario").check();
  await hours
    .getByRole("textbox", { name: "Mensaje de ausencia" })
    .fill("Ahora estamos cerrados: te respondemos mañana.");
  await hours.getByRole("button", { name: "Guardar horario de atención" }).click();
  await expect(page.getByText("Horario de atención actualizado")).toBeVisible();
  await expectAccessible(page, "Configuración > Organización", "#opening-hours");
  const saved = (
    await (await page.request.get("/api/v1/organizations/me", { headers: owner.headers })).json()
  ).data;
  expect(saved.opening_hours.week.mon).toEqual([["09:00", "14:00"]]);
  expect(saved.min_notice_minutes).toBe(60);
  expect(saved.away_message).toEqual({
    enabled: true,
    text: "Ahora estamos cerrados: te respondemos mañana.",
  });

  // The Agenda, from the sidebar: open or closed now, and no services yet.
  await page
    .getByRole("navigation", { name: "Principal" })
    .getByRole("link", { name: "Agenda" })
    .click();
  await expect(page.getByRole("heading", { level: 1, name: "Agenda" })).toBeVisible();
  await expect(page.getByText(/^(Abierto|Cerrado) ahora$/)).toBeVisible();
  await page.getByRole("button", { name: "Nuevo servicio" }).click();
  const serviceDialog = page.getByRole("dialog", { name: "Nuevo servicio" });
  await serviceDialog.getByLabel("Nombre").fill(SERVICE);
  await serviceDialog.getByLabel("Duración (minutos)").fill("30");
  await serviceDialog.getByRole("button", { name: "Guardar servicio" }).click();
  await expect(serviceDialog).toBeHidden();
  await expect(page.getByRole("list", { name: "Servicios" })).toContainText(SERVICE);

  // Tomorrow, in the URL: book Lucía at 9:00.
  await page.getByRole("button", { name: "Día siguiente" }).click();
  await expect(page).toHaveURL(/date=\d{4}-\d{2}-\d{2}/);
  const day = new URL(page.url()).searchParams.get("date")!;
  await page.getByRole("button", { name: "Nueva cita" }).click();
  let dialog = page.getByRole("dialog", { name: "Nueva cita" });
  await dialog.getByLabel("Servicio").selectOption({ label: `${SERVICE} (30 min)` });
  await dialog.getByLabel("Conversación").selectOption({ label: "Lucía Gómez" });
  await expect(dialog.getByLabel("Hora")).toBeEnabled();
  await dialog.getByLabel("Hora").selectOption({ label: "9:00" });
  await dialog.getByRole("button", { name: "Reservar" }).click();
  await expect(dialog).toBeHidden();
  await expect(booking(page, "9:00–9:30")).toContainText("Confirmada");
  await expect(booking(page, "9:00–9:30").getByRole("link", { name: "Lucía Gómez" })).toBeVisible();
  await expectAccessible(page, "Agenda");

  // The week shows it too; back to the day.
  await page.getByRole("button", { name: "Semana" }).click();
  await expect(page).toHaveURL(/view=week/);
  await expect(booking(page, "9:00–9:30")).toBeVisible();
  await page.getByRole("button", { name: "Día", exact: true }).click();

  // Pedro asks for 10:00; meanwhile someone else takes it (by the API): refused, with the
  // nearest free slots, and the booking that took it appears by its event.
  await page.getByRole("button", { name: "Nueva cita" }).click();
  dialog = page.getByRole("dialog", { name: "Nueva cita" });
  await dialog.getByLabel("Servicio").selectOption({ label: `${SERVICE} (30 min)` });
  await dialog.getByLabel("Conversación").selectOption({ label: "Pedro Sanz" });
  await expect(dialog.getByLabel("Hora")).toBeEnabled();
  await dialog.getByLabel("Hora").selectOption({ label: "10:00" });
  const services = (
    await (await page.request.get("/api/v1/services", { headers: owner.headers })).json()
  ).data;
  const start = await dialog.getByLabel("Hora").inputValue();
  const taken = await page.request.post("/api/v1/bookings", {
    headers: owner.headers,
    data: { service_id: services[0].id, conversation_id: lucia, start },
  });
  expect(taken.status()).toBe(201);
  await dialog.getByRole("button", { name: "Reservar" }).click();
  await expect(dialog.getByRole("alert")).toContainText(
    "Ese horario ya está ocupado. Elige otro de los huecos libres más cercanos.",
  );
  await expect(
    dialog.getByRole("list", { name: "Huecos libres más cercanos" }).getByRole("button").first(),
  ).toBeVisible();
  await dialog.getByRole("button", { name: "Cancelar" }).click();
  await expect(booking(page, "10:00–10:30")).toBeVisible();

  // Move Lucía's 9:00 to 11:00, then cancel it.
  await booking(page, "9:00–9:30").getByRole("button", { name: "Mover" }).click();
  dialog = page.getByRole("dialog", { name: `Mover cita: ${SERVICE}` });
  await expect(dialog.getByLabel("Día")).toHaveValue(day);
  await expect(dialog.getByLabel("Hora")).toBeEnabled();
  await dialog.getByLabel("Hora").selectOption({ label: "11:00" });
  await dialog.getByRole("button", { name: "Mover cita" }).click();
  await expect(dialog).toBeHidden();
  await expect(booking(page, "11:00–11:30")).toContainText("Confirmada");
  await expect(booking(page, "9:00–9:30")).toHaveCount(0);

  // The conversation's details list her bookings with their status.
  await booking(page, "11:00–11:30").getByRole("link", { name: "Lucía Gómez" }).click();
  await expect(page).toHaveURL(new RegExp(`/conversations/${lucia}`));
  const details = page.getByRole("button", { name: "Detalles" });
  if ((await details.getAttribute("aria-expanded")) === "false") await details.click();
  const citas = page.getByRole("list", { name: "Citas del cliente" });
  await expect(citas.getByRole("listitem")).toHaveCount(2);
  await expect(citas).toContainText(SERVICE);
  await expect(citas).toContainText("Confirmada");

  // Back in the Agenda: cancel the 11:00 booking.
  await page.goBack();
  await booking(page, "11:00–11:30").getByRole("button", { name: "Cancelar cita" }).click();
  await expect(booking(page, "11:00–11:30")).toContainText("Cancelada");
  await expect(booking(page, "11:00–11:30").getByRole("button", { name: "Mover" })).toHaveCount(0);

  // A booking made elsewhere (the API, as the AI or a colleague would) reaches the screen by
  // its booking_update, without a reload.
  const all = await page.request.get(`/api/v1/bookings?conversation_id=${lucia}`, {
    headers: owner.headers,
  });
  const cancelled = (await all.json()).data.bookings.find(
    (b: { status: string }) => b.status === "cancelled",
  );
  const noon = new Date(Date.parse(cancelled.start) + 3_600_000).toISOString();
  const elsewhere = await page.request.post("/api/v1/bookings", {
    headers: owner.headers,
    data: { service_id: services[0].id, conversation_id: pedro, start: noon },
  });
  expect(elsewhere.status()).toBe(201);
  await expect(
    booking(page, "12:00–12:30").getByRole("link", { name: "Pedro Sanz" }),
  ).toBeVisible();
  expect(errors).toEqual([]);
});
