// "Agenda y cobra" end to end (contract section 18): a person sends the booking Flow from the
// conversation, the customer books through it (the Graph fake plays WhatsApp calling the
// encrypted endpoint), the slot is held until the deposit is paid, the link is paid (the Stripe
// fake signs the event) after a person sent it for that booking, and the conversation's details
// and the Agenda show the booking confirmed and the payment paid, live.
import { expect, test } from "@playwright/test";
import { customerMessage, deliver, signedInOwner } from "./support";
import { E2E_SETTINGS } from "./settings.mjs";

const STRIPE_WEBHOOK_SECRET = "whsec_e2e_agenda";
/** Open all day every day in Madrid: whatever the hour the test runs, tomorrow has slots. */
const ALL_DAY = Object.fromEntries(
  ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map((day) => [day, [["09:00", "20:00"]]]),
);

test("a customer books through the Flow a person sent, pays the deposit, and the booking is confirmed", async ({
  page,
}) => {
  // Several screens, two fakes and the store's jobs on a shared machine.
  test.setTimeout(90_000);
  const owner = await signedInOwner(page, { connect: true });
  const api = (method: "patch" | "post" | "put", path: string, data: unknown, headers = {}) =>
    page.request[method](`/api/v1${path}`, {
      headers: { ...owner.headers, ...headers },
      data,
    });
  const organizationId = (
    await (await page.request.get("/api/v1/auth/me", { headers: owner.headers })).json()
  ).data.organization.id as string;
  // What a manager set up in Configuración and the Agenda (their screens have tests of their own).
  const setUp = [
    await api("patch", `/organizations/${organizationId}`, {
      business_hours: { time_zone: "Europe/Madrid", week: ALL_DAY, closed_dates: [] },
      min_notice_minutes: 60,
    }),
    await api("post", "/services", {
      name: "Limpieza dental",
      duration_minutes: 30,
      price: "50.00",
      payment: "deposit",
      deposit: "20.00",
    }),
    await api("put", "/integrations/payments", {
      provider: "stripe",
      secret: "sk_test_e2e_agenda",
      webhook_secret: STRIPE_WEBHOOK_SECRET,
    }),
    await api("post", "/whatsapp/booking-flow", {}),
  ];
  expect(setUp.map((answer) => answer.status())).toEqual([200, 201, 200, 200]);

  const from = String(34_633_000_000 + Math.floor(Math.random() * 1e6));
  await deliver(
    page.request,
    customerMessage(owner.phoneNumberId, from, "Quiero pedir cita", "Nuria Vidal"),
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
});
