import { expect, test, type Page } from "@playwright/test";
import { inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { deliver, signedInOwner } from "./support";

const messages = (page: Page) => page.getByRole("list", { name: "Mensajes" });

test("a username customer writes, a person replies, asks for the phone and gets it", async ({
  page,
}) => {
  const { phoneNumberId } = await signedInOwner(page, { connect: true });
  const userId = `ES.${Date.now()}${Math.floor(Math.random() * 1000)}`;
  await page.goto("/conversations");

  // Meta names the customer by BSUID and username only: no phone at all.
  await deliver(
    page.request,
    inboundMessage({ phoneNumberId, userId, username: "rosa.flores", name: "", text: "Hola" }),
  );
  const row = page.getByRole("list", { name: "Conversaciones" }).getByRole("link");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("@rosa.flores");
  await row.click();
  await expect(messages(page).getByText("Hola")).toBeVisible();

  // A person answers; it goes to WhatsApp by BSUID.
  await page.getByLabel("Escribe un mensaje").fill("¡Hola Rosa! ¿En qué te ayudo?");
  await page.getByRole("button", { name: "Enviar", exact: true }).click();
  await expect(messages(page).getByText("¡Hola Rosa! ¿En qué te ayudo?")).toBeVisible();

  // "Pedir teléfono" sends WhatsApp's request; the customer's shared contact fills it in live.
  await page.getByRole("button", { name: "Pedir teléfono" }).click();
  await expect(page.getByText("Teléfono solicitado al cliente")).toBeVisible();
  await deliver(
    page.request,
    inboundMessage({
      phoneNumberId,
      userId,
      // WhatsApp stamps whole seconds: the answer comes a second after the request.
      timestamp: String(Math.floor(Date.now() / 1000) + 1),
      type: "contacts",
      part: [
        {
          name: { formatted_name: "Rosa", first_name: "Rosa" },
          phones: [{ phone: "+34633444555", wa_id: "34633444555", type: "MOBILE" }],
          origin: "contact_request",
        },
      ],
    }),
  );
  await expect(
    messages(page).getByText("El cliente compartió su teléfono: +34633444555"),
  ).toBeVisible();
  await expect(page.getByRole("button", { name: "Pedir teléfono" })).toHaveCount(0);
  // The phone now names the customer in the conversation's header.
  await expect(page.getByText("+34633444555", { exact: true }).first()).toBeVisible();
});
