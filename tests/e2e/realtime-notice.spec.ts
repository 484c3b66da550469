// "Conectado en tiempo real" (issue 48): said only when a lost connection comes back, never
// on a first load (the sidebar's badge shows the state), and never over a conversation's
// thread: at the top of the screen, on a laptop and on a phone.
import { expect, test, type Locator, type Page } from "@playwright/test";
import { customerMessage, deliver, droppableSocket, signedInOwner } from "./support";

const notice = (page: Page) =>
  page.locator("[data-sonner-toast]").filter({ hasText: "Conectado en tiempo real" });
const messages = (page: Page) => page.getByRole("list", { name: "Mensajes" });

/** An owner with one customer's conversation, its id. */
async function ownerWithConversation(page: Page) {
  const owner = await signedInOwner(page, { connect: true });
  await deliver(page.request, customerMessage(owner.phoneNumberId, "34688000001", "Hola", "Lucía"));
  const list = await page.request.get("/api/v1/conversations", { headers: owner.headers });
  return (await list.json()).data.conversations[0].id as string;
}

async function box(locator: Locator) {
  const found = await locator.boundingBox();
  expect(found, `${locator} has no box`).not.toBeNull();
  return found!;
}

/** The notice, at rest, lies wholly above the thread or beside it: it covers none of it. */
async function expectNoticeOffTheThread(page: Page) {
  await expect(notice(page)).toHaveCSS("opacity", "1");
  await page.waitForFunction(() =>
    document
      .getAnimations()
      .every((a) => !(a instanceof CSSTransition) || a.playState !== "running"),
  );
  const shown = await box(notice(page));
  const thread = await box(messages(page).locator(".."));
  const apart =
    shown.y + shown.height <= thread.y ||
    shown.x + shown.width <= thread.x ||
    shown.x >= thread.x + thread.width;
  expect(apart, `notice ${JSON.stringify(shown)} off the thread ${JSON.stringify(thread)}`).toBe(
    true,
  );
}

test("a first load says nothing about the connection: the sidebar shows it", async ({ page }) => {
  const id = await ownerWithConversation(page);
  await page.goto(`/conversations/${id}`);
  await expect(messages(page).getByText("Hola", { exact: true })).toBeVisible();
  await expect(page.getByText("Tiempo Real", { exact: true })).toBeVisible();
  // The notice would show the moment the socket opened, with the badge: give it time anyway.
  await page.waitForTimeout(1000);
  await expect(notice(page)).toHaveCount(0);

  // Another screen, and a reload: still nothing.
  await page.getByRole("navigation", { name: "Principal" }).getByText("Dashboard").click();
  await expect(page.getByRole("heading", { name: "Dashboard" })).toBeVisible();
  await page.reload();
  await expect(page.getByText("Tiempo Real", { exact: true })).toBeVisible();
  await page.waitForTimeout(1000);
  await expect(notice(page)).toHaveCount(0);
});

test.describe("at 1440×900", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("a connection lost and back is told once, off the thread", async ({ page }) => {
    const socket = await droppableSocket(page);
    const id = await ownerWithConversation(page);
    await page.goto(`/conversations/${id}`);
    await expect(page.getByText("Tiempo Real", { exact: true })).toBeVisible();
    await expect(notice(page)).toHaveCount(0);

    await socket.drop();
    await expect(page.getByText("Desconectado", { exact: true })).toBeVisible();
    await expect(page.getByText("Tiempo Real", { exact: true })).toBeVisible();
    await expect(notice(page)).toHaveCount(1);
    await expect(notice(page)).toHaveAttribute("data-type", "success");
    expect(socket.opened).toBe(2);
    await expectNoticeOffTheThread(page);
  });
});

test.describe("@mobile at 390×844", () => {
  test.use({ viewport: { width: 390, height: 844 } });

  test("@mobile on a phone the notice sits at the top, above the thread", async ({ page }) => {
    const socket = await droppableSocket(page);
    const id = await ownerWithConversation(page);
    await page.goto(`/conversations/${id}`);
    await expect(messages(page).getByText("Hola", { exact: true })).toBeVisible();
    // The socket is open (the badge is behind the menu on a phone), and said nothing.
    await page.getByRole("button", { name: "Abrir menú" }).click();
    await expect(page.getByRole("dialog").getByText("Tiempo Real", { exact: true })).toBeVisible();
    await page.getByRole("button", { name: "Cerrar menú" }).click();
    await expect(page.getByRole("dialog")).toHaveCount(0);
    await expect(notice(page)).toHaveCount(0);

    await socket.drop();
    await expect.poll(() => socket.opened).toBe(2);
    await expect(notice(page)).toHaveCount(1);
    await expectNoticeOffTheThread(page);
  });
});
