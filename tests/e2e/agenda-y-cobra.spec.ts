// "Agenda y cobra" end to end (contract section 18): a person sets the hours, a service with a
// deposit and the payment provider in the console; a customer from an ad writes; the person
// sends the booking Flow from the conversation, the customer books through it (the Graph fake
// plays WhatsApp calling the encrypted endpoint), the slot is held until the deposit is paid,
// the link is paid (the Stripe fake signs the event) after a person sent it for that booking;
// the conversation's details and the Agenda show the booking confirmed and the payment paid,
// live, and the ads report counts the booking and the deposit under the ad.
import { expect, test } from "@playwright/test";
import { ctwaReferral, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { deliver, expectAccessible, productErrors, signedInOwner } from "./support";
import { E2E_SETTINGS } from "./settings.mjs";

const STRIPE_WEBHOOK_SECRET = "whsec_e2e_agenda";
test("a person sets up hours, a service and payments; a customer from an ad books through the Flow, pays the deposit, and the ad is credited", async ({
  page,
}) => {
  // Several screens, two fakes and the store's jobs on a shared machine.
  test.setTimeout(180_000);
  const errors = productErrors(page);
  const owner = await signedInOwner(page, { connect: true });
  const api = (method: "patch" | "post" | "put", path: string, data: unknown, headers = {}) =>
    page.request[method](`/api/v1${path}`, {
      headers: { ...owner.headers, ...headers },
      data,
    });
  // A manager sets the opening hours (every day 09:00-14:00, the form's first stretch)...
  await page.goto("/settings/organization");
  const hours = page.getByRole("region", { name: "Agenda: horas de apertura" });
  for (const day of ["lunes", "martes", "miércoles", "jueves", "viernes", "sábado", "domingo"]) {
    await hours.getByRole("button", { name: `Añadir tramo al ${day}` }).click();
  }
  await hours.getByRole("button", { name: "Guardar horario de atención" }).click();
  await expect(page.getByText("Horario de atención actualizado")).toBeVisible();

  // ...a service that takes a 20 € deposit in the Agenda...
  await page.goto("/agenda");
  await page.getByRole("button", { name: "Nuevo servicio" }).click();
  const serviceDialog = page.getByRole("dialog", { name: "Nuevo servicio" });
  await serviceDialog.getByLabel("Nombre").fill("Limpieza dental");
  await serviceDialog.getByLabel("Duración (minutos)").fill("30");
  await serviceDialog.getByLabel("Precio").fill("50.00");
  await serviceDialog.getByLabel("Cobro por adelantado").selectOption({ label: "Señal" });
  await serviceDialog.getByLabel("Señal", { exact: true }).fill("20.00");
  await serviceDialog.getByRole("button", { name: "Guardar servicio" }).click();
  await expect(serviceDialog).toBeHidden();
  await expectAccessible(page, "Agenda", "main");

  // ...and connects the sandbox's Stripe in Configuración > Agenda y cobros.
  await page.goto("/settings?tab=cobros");
  const connect = page.getByRole("form", { name: "Conectar proveedor de pagos" });
  await connect.getByLabel("Clave secreta").fill("sk_test_e2e_agenda");
  await connect.getByLabel("Clave de los webhooks").fill(STRIPE_WEBHOOK_SECRET);
  await connect.getByRole("button", { name: "Conectar" }).click();
  await expect(page.getByText("Proveedor de pagos conectado", { exact: true })).toBeVisible();
  // The booking Flow was registered and published when the number connected (decision 0097).
  expect((await api("post", "/whatsapp/booking-flow", {})).status()).toBe(200);

  // A customer writes from a click-to-WhatsApp ad.
  const from = String(34_633_000_000 + Math.floor(Math.random() * 1e6));
  const ad = { adId: `1205${Date.now()}`.slice(0, 15), headline: "Limpieza con señal" };
  await deliver(
    page.request,
    inboundMessage({
      phoneNumberId: owner.phoneNumberId,
      wabaId: "waba-e2e",
      from,
      name: "Nuria Vidal",
      text: "Quiero pedir cita",
      referral: ctwaReferral({ ...ad, ctwaClid: `ARAk${Date.now()}` }),
    }),
  );
  await page.goto("/conversations");
  await page.getByRole("list", { name: "Conversaciones" }).getByText("Nuria Vidal").click();
  await expect(page.getByRole("heading", { name: "Nuria Vidal" })).toBeVisible();
  const conversationId = page.url().split("/").pop()!;
  const details = page.getByRole("button", { name: "Detalles" });
  if ((await details.getAttribute("aria-expanded")) !== "true") await details.click();

  // The person sends the Flow for the service.
  const payments = page.getByRole("region", { name: "Pagos" });
  await payments.getByRole("button", { name: "Enviar reserva" }).click();
  const dialog = page.getByRole("dialog", { name: "Enviar reserva" });
  await dialog.getByLabel("Servicio (opcional)").selectOption({ label: "Limpieza dental" });
  await dialog.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(page.getByText("Formulario de reservas enviado", { exact: true })).toBeVisible();

  // The customer opens it in WhatsApp and books the first free slot.
  const played = await page.request.post(`http://localhost:${E2E_SETTINGS.graphPort}/__fake/flow`, {
    data: { phone: from },
  });
  expect(played.status()).toBe(200);
  const flow = await played.json();
  expect(flow.screens.map((s: { screen: string }) => s.screen)).toEqual([
    "SERVICE",
    "DAY",
    "SLOT",
    "CONFIRM",
    "SUCCESS",
  ]);
  expect(flow.webhook).toBe(200);

  // The slot is held until the deposit is paid: live in the details.
  const bookings = page.getByRole("list", { name: "Citas del cliente" });
  await expect(bookings.getByRole("listitem")).toHaveCount(1);
  await expect(bookings).toContainText("Limpieza dental");
  await expect(bookings).toContainText("Pendiente de pago");

  // The person sends the deposit's link for that booking: its amount is the service's deposit.
  await payments.getByRole("button", { name: "Enviar enlace de pago" }).click();
  const linkDialog = page.getByRole("dialog", { name: "Enviar enlace de pago" });
  const forBooking = linkDialog.getByLabel("Para la cita");
  await expect(forBooking.locator("option")).toHaveCount(2);
  await forBooking.selectOption({ index: 1 });
  await expect(linkDialog.getByLabel(/^Importe/)).toHaveValue("20,00");
  await expect(linkDialog.getByLabel("Concepto")).toHaveValue("Señal: Limpieza dental");
  await linkDialog.getByRole("button", { name: "Enviar enlace" }).click();
  await expect(page.getByText("Enlace de pago enviado", { exact: true })).toBeVisible();
  const [payment] = (
    await (
      await page.request.get(`/api/v1/conversations/${conversationId}/payments`, {
        headers: owner.headers,
      })
    ).json()
  ).data;
  expect(payment).toMatchObject({ amount: "20.00", status: "pending" });
  const paidList = payments.getByRole("list", { name: "Pagos del cliente" });
  await expect(paidList).toContainText("Pendiente");
  const event = await (
    await page.request.post(`http://localhost:${E2E_SETTINGS.stripePort}/__fake/pay`, {
      data: { id: payment.id, webhook_secret: STRIPE_WEBHOOK_SECRET },
    })
  ).json();
  const delivered = await page.request.post(event.path, {
    headers: event.headers,
    data: Buffer.from(event.body),
  });
  expect(delivered.status()).toBe(200);

  // Live, without a reload: the payment paid and the booking confirmed.
  await expect(paidList).toContainText("Pagado");
  await expect(bookings).toContainText("Confirmada");
  // The Agenda shows it on its day, confirmed.
  const [booking] = (
    await (
      await page.request.get(`/api/v1/bookings?conversation_id=${conversationId}`, {
        headers: owner.headers,
      })
    ).json()
  ).data.bookings;
  expect(booking.status).toBe("confirmed");
  await page.goto(`/agenda?date=${booking.start.slice(0, 10)}`);
  const onTheAgenda = page.getByRole("listitem", { name: /Limpieza dental$/ });
  await expect(onTheAgenda).toHaveCount(1);
  await expect(onTheAgenda).toContainText("Confirmada");

  // The ads report counts the booking and the deposit under the ad that brought the customer:
  // conversations, leads, bookings, sales, revenue.
  await page.goto("/tracking?tab=anuncios");
  const row = page
    .getByRole("table", { name: "Anuncios" })
    .locator("tbody tr")
    .filter({ hasText: ad.headline });
  const cells = row.locator("td");
  for (const [column, value] of ["1", "1", "1", "1", "20,00 €"].entries()) {
    await expect(cells.nth(column)).toHaveText(value);
  }
  expect(errors).toEqual([]);
});
