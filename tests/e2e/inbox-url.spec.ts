import { expect, test } from "@playwright/test";
import { countRequests, customerMessage, deliver, signedInOwner } from "./support";

test("the inbox's filters, search and page live in the URL: reload, back and a pasted link keep them", async ({
  page,
  browser,
}) => {
  const { headers, phoneNumberId, token } = await signedInOwner(page, { connect: true });
  await deliver(
    page.request,
    customerMessage(phoneNumberId, "34622000001", "Quiero pedir cita", "Irene Sanz"),
    customerMessage(phoneNumberId, "34622000002", "¿Abrís el sábado?", "Jon Ugarte"),
  );
  const all = await page.request.get("/api/v1/conversations", { headers });
  const jon = (await all.json()).data.conversations.find(
    (c: { contact_name: string }) => c.contact_name === "Jon Ugarte",
  );
  await page.request.patch(`/api/v1/conversations/${jon.id}`, {
    headers,
    data: { status: "pending" },
  });

  await page.goto("/conversations");
  const list = page.getByRole("list", { name: "Conversaciones" });
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await page.getByRole("button", { name: "Filtros", exact: true }).click();
  await page.getByLabel("Filtrar por estado").selectOption("pending");
  await expect(page).toHaveURL(/\/conversations\?status=pending$/);
  await expect(list.getByRole("listitem")).toHaveCount(1);

  // A reload shows the same list, with the same filter chosen.
  await page.reload();
  await expect(list.getByText("Jon Ugarte")).toBeVisible();
  await expect(list.getByRole("listitem")).toHaveCount(1);
  const chosen = page.getByRole("list", { name: "Filtros activos" });
  await expect(
    chosen.getByRole("button", { name: "Quitar filtro Estado: Pendiente" }),
  ).toBeVisible();

  // Into a conversation and back: the filtered list, not the whole inbox.
  await list.getByText("Jon Ugarte").click();
  await expect(page.getByRole("heading", { name: "Jon Ugarte" })).toBeVisible();
  await page.goBack();
  await expect(page).toHaveURL(/status=pending/);
  await expect(list.getByRole("listitem")).toHaveCount(1);

  // Back once more: the inbox before the filter.
  await page.goBack();
  await expect(page).toHaveURL(/\/conversations$/);
  await expect(list.getByRole("listitem")).toHaveCount(2);
  await expect(chosen).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Filtros", exact: true })).toBeVisible();

  // The search is written to the URL after a pause; a teammate opening that link sees it.
  await page.getByLabel("Buscar").fill("cita");
  await expect(page).toHaveURL(/search=cita/);
  await expect(list.getByRole("listitem")).toHaveCount(1);
  const context = await browser.newContext();
  const teammate = await context.newPage();
  await teammate.addInitScript((t) => localStorage.setItem("auth_token", t), token);
  await teammate.goto(page.url());
  await expect(teammate.getByLabel("Buscar")).toHaveValue("cita");
  await expect(
    teammate.getByRole("list", { name: "Conversaciones" }).getByRole("listitem"),
  ).toHaveCount(1);
  await expect(teammate.getByText("Irene Sanz")).toBeVisible();
  await context.close();
});

test("a realtime message moves its conversation to the top without a list request", async ({
  page,
}) => {
  const { phoneNumberId } = await signedInOwner(page, { connect: true });
  await deliver(page.request, customerMessage(phoneNumberId, "34633100001", "Primero", "Ane"));
  await deliver(page.request, customerMessage(phoneNumberId, "34633100002", "Segundo", "Beñat"));
  const lists = countRequests(page, "/api/v1/conversations");

  await page.goto("/conversations");
  const rows = page.getByRole("list", { name: "Conversaciones" }).getByRole("listitem");
  await expect(rows.first()).toContainText("Beñat");
  // The socket's opening reloads the list once (what a gap may have missed): let it finish.
  await expect(page.getByText("Tiempo Real", { exact: true })).toBeVisible();
  await expect.poll(() => lists.inFlight).toBe(0);
  const before = lists.sent;

  await deliver(
    page.request,
    customerMessage(phoneNumberId, "34633100001", "¿Tenéis hueco hoy?", "Ane"),
  );
  await expect(rows.first()).toContainText("Ane");
  await expect(rows.first()).toContainText("¿Tenéis hueco hoy?");
  await expect(rows).toHaveCount(2);
  expect(lists.sent - before).toBe(0);
});
