// Agenda > Recordatorios (contract section 18, decision 0120): an owner sees that without a
// template no reminders are sent, is offered the account's approved UTILITY templates, and a
// template without the reminder's three buttons is refused with the API's words; a booking says
// when its reminder goes (decision 0130). The account's templates are read once, not each time the
// Agenda reads its days again (decision 0157).
import { expect, test } from "@playwright/test";
import { E2E_SETTINGS } from "./settings.mjs";
import {
  countRequests,
  customerMessage,
  deliver,
  expectAccessible,
  productErrors,
  signedInOwner,
} from "./support";

test("an owner picks the reminders' template; one without the three buttons is refused", async ({
  page,
}) => {
  const errors = productErrors(page);
  await signedInOwner(page, { connect: true });
  const templateReads = countRequests(page, "/api/v1/whatsapp-config/templates");
  const dayReads = countRequests(page, "/api/v1/bookings");
  await page.goto("/agenda");
  const panel = page.getByRole("region", { name: "Recordatorios" });
  await expect(panel).toBeVisible();
  await expect(panel.getByText("Sin plantilla elegida no se envían recordatorios.")).toBeVisible();
  const picker = panel.getByLabel("Plantilla del recordatorio");
  // Only approved utility templates: the marketing one is not offered.
  await expect(picker.locator("option")).toHaveText(["Sin recordatorios", "seguimiento_cita (es)"]);
  // The next day is read; the account's templates, which only Meta changes, are not.
  await expect.poll(() => dayReads.inFlight).toBe(0);
  const daysRead = dayReads.sent;
  await page.getByRole("button", { name: "Día siguiente" }).click();
  await expect.poll(() => dayReads.sent).toBeGreaterThan(daysRead);
  await expect.poll(() => dayReads.inFlight).toBe(0);
  expect(templateReads.sent).toBe(1);
  await expectAccessible(page, "agenda", 'section[aria-labelledby="reminders-title"]');
  await picker.selectOption({ label: "seguimiento_cita (es)" });
  await panel.getByRole("button", { name: "Guardar" }).click();
  await expect(page.getByText("No se pudieron guardar los recordatorios")).toBeVisible();
  await expect(page.getByText(/necesita tres botones de respuesta rápida/)).toBeVisible();
  await expect(panel.getByText("Sin plantilla elegida no se envían recordatorios.")).toBeVisible();
  expect(errors).toEqual([]);
});

test("a booking says when its reminder goes, in the Agenda and in the conversation", async ({
  page,
}) => {
  const errors = productErrors(page);
  // An account of its own, whose list has the fake Meta's reminder template.
  const businessAccountId = `waba-reminders-${Date.now()}`;
  const listed = await page.request.post(
    `http://localhost:${E2E_SETTINGS.graphPort}/__fake/templates`,
    { data: { business_account_id: businessAccountId } },
  );
  expect(listed.status()).toBe(200);
  const owner = await signedInOwner(page, { connect: true, businessAccountId });
  const api = (method: "get" | "patch" | "post" | "put", path: string, data?: unknown) =>
    page.request[method](`/api/v1${path}`, { headers: owner.headers, data });
  const organizationId = (await (await api("get", "/auth/me")).json()).data.organization
    .id as string;
  const week = Object.fromEntries(
    ["mon", "tue", "wed", "thu", "fri", "sat", "sun"].map((day) => [day, [["09:00", "20:00"]]]),
  );
  const hours = await api("patch", `/organizations/${organizationId}`, {
    business_hours: { time_zone: "Europe/Madrid", week, closed_dates: [] },
  });
  const service = await api("post", "/services", { name: "Revisión", duration_minutes: 30 });
  const reminders = await api("put", "/booking-reminders", {
    template: { name: "recordatorio_cita", language: "es" },
  });
  expect([hours.status(), service.status(), reminders.status()]).toEqual([200, 201, 200]);
  const from = String(34_644_000_000 + Math.floor(Math.random() * 1e6));
  await deliver(page.request, customerMessage(owner.phoneNumberId, from, "Hola", "Iker Sanz"));
  let conversationId = "";
  await expect
    .poll(async () => {
      const list = (await (await api("get", "/conversations")).json()).data.conversations;
      conversationId = list[0]?.id ?? "";
      return conversationId;
    })
    .not.toBe("");
  // Three days ahead at 12:00 UTC: inside the opening hours in winter and in summer.
  const start = new Date(Date.now() + 3 * 86_400_000);
  start.setUTCHours(12, 0, 0, 0);
  const booked = await api("post", "/bookings", {
    service_id: (await service.json()).data.id,
    conversation_id: conversationId,
    start: start.toISOString(),
  });
  expect(booked.status()).toBe(201);

  await page.goto(`/agenda?date=${start.toISOString().slice(0, 10)}`);
  const item = page.getByRole("listitem").filter({ hasText: "Revisión" });
  await expect(item.getByText(/^Recordatorio programado: /)).toBeVisible();
  await page.goto(`/conversations/${conversationId}`);
  const details = page.getByRole("button", { name: "Detalles" });
  if ((await details.getAttribute("aria-expanded")) !== "true") await details.click();
  await expect(
    page.getByRole("list", { name: "Citas del cliente" }).getByText(/^Recordatorio programado: /),
  ).toBeVisible();
  expect(errors).toEqual([]);
});
