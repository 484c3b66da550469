// A number that stays in the WhatsApp Business app (issue #33, contract section 16): connected
// from the Meta Business tab, its history imported live, the phone's answers shown and the AI
// silent after them until "Reanudar IA".
import { expect, test, type Page } from "@playwright/test";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { inboundMessage, messageEcho } from "../fakes/whatsapp-payloads.mjs";
import { deliver, expectAccessible, signedInOwner } from "./support";

/** The first of the fake's two app chats (`playAppData`), named by the phone's address book. */
const LUCIA = { phone: "34611222333", name: "Lucía (clienta de siempre)" };
const SANDBOX_NUMBER = {
  phoneNumberId: GRAPH_FIXTURES.phoneNumberId,
  wabaId: GRAPH_FIXTURES.wabaId,
  displayPhoneNumber: GRAPH_FIXTURES.displayPhoneNumber.replace(/\D/g, ""),
};

/**
 * Facebook's SDK at the browser boundary: the login answers a valid code after the popup's
 * `FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING` event, and keeps the options it was called with.
 */
async function stubAppOnboarding(page: Page) {
  await page.addInitScript(
    ({ code, wabaId }) => {
      const w = window as unknown as Record<string, unknown>;
      w.FB = {
        init() {},
        login(callback: (response: unknown) => void, options: unknown) {
          w.__fbLoginOptions = options;
          window.dispatchEvent(
            new MessageEvent("message", {
              origin: "https://www.facebook.com",
              data: JSON.stringify({
                type: "WA_EMBEDDED_SIGNUP",
                event: "FINISH_WHATSAPP_BUSINESS_APP_ONBOARDING",
                data: { waba_id: wabaId },
              }),
            }),
          );
          callback({ authResponse: { code }, status: "connected" });
        },
      };
    },
    { code: `${GRAPH_FIXTURES.validCode}-${crypto.randomUUID()}`, wabaId: GRAPH_FIXTURES.wabaId },
  );
}

test("a number kept in the WhatsApp Business app: its history imported, the phone's answers shown, the AI silent until Reanudar IA", async ({
  page,
}) => {
  const { headers } = await signedInOwner(page);
  await stubAppOnboarding(page);
  const agent = await page.request.post("/api/v1/agents", {
    headers,
    data: { name: "Sofía", system_prompt: "Eres Sofía, de la tienda." },
  });
  expect(agent.status()).toBe(201);
  const agentId: string = (await agent.json()).data.id;

  try {
    await page.goto("/settings");
    const whatsapp = page.getByRole("region", { name: "WhatsApp Business" });

    await test.step("connects as an app number through Embedded Signup's app onboarding", async () => {
      await page
        .getByRole("button", { name: "Ya uso este número en la app WhatsApp Business" })
        .click();
      await expect(
        page.locator("[data-sonner-toast]").filter({ hasText: "Conectado con Meta Business" }),
      ).toBeVisible();
      const options = await page.evaluate(
        () => (window as unknown as { __fbLoginOptions: { extras: unknown } }).__fbLoginOptions,
      );
      // Embedded Signup v4 (decision 0074): the flow alone, none of v2's options.
      expect(options.extras).toEqual({ featureType: "whatsapp_business_app_onboarding" });
    });

    await test.step("the tab says the number is shared and the import reaches done, live", async () => {
      const shared = whatsapp.getByRole("region", {
        name: "Número compartido con la app WhatsApp Business",
      });
      await expect(shared).toBeVisible();
      await expect(shared.getByText(/al menos una vez cada 14 días/)).toBeVisible();
      await expect(shared.getByText(/mensaje de ausencia/)).toBeVisible();
      const progress = shared.getByRole("progressbar", { name: "Importación del historial" });
      await expect(progress).toHaveAttribute("aria-valuenow", "100", { timeout: 20_000 });
      await expect(shared.getByText("Completado")).toBeVisible();
      // Three chunks of two chats with two messages each: twelve messages.
      await expect(shared.getByText("12 mensajes importados")).toBeVisible();
      await expectAccessible(page, "número compartido", "section[aria-label^='Número compartido']");
    });

    const conversationId =
      await test.step("the imported conversation opens, in time order", async () => {
        await page.goto("/conversations");
        const list = page.getByRole("list", { name: "Conversaciones" });
        await list.getByText(LUCIA.name).click();
        await expect(page.getByRole("heading", { name: LUCIA.name })).toBeVisible();
        const messages = page.getByRole("list", { name: "Mensajes" });
        await expect(messages.getByText("¡Perfecto! Te lo preparo.")).toBeVisible();
        const texts = await messages.getByRole("listitem").allTextContents();
        const at = (text: string) => texts.findIndex((t) => t.includes(text));
        const order = [
          "Hola, ¿hacéis envíos a Valencia?",
          "¡Hola! Sí, claro.",
          "Buenos días, ¿seguís abiertos?",
          "¿Me guardas dos cajas para el sábado?",
          "¡Perfecto! Te lo preparo.",
        ].map(at);
        expect(order.every((i) => i >= 0)).toBe(true);
        expect(order).toEqual([...order].sort((a, b) => a - b));
        // The business's answer in the history was written on the phone.
        const fromPhone = messages.getByRole("listitem").filter({ hasText: "¡Hola! Sí, claro." });
        await expect(fromPhone.getByText("Enviado desde el móvil")).toBeVisible();
        await expect(fromPhone.getByText("importado")).toBeVisible();
        return new URL(page.url()).pathname.split("/").pop()!;
      });

    // The conversation is the agent's: without a pause, the AI would answer the customer.
    const assigned = await page.request.patch(`/api/v1/conversations/${conversationId}/assign`, {
      headers,
      data: { agent_id: agentId },
    });
    expect(assigned.status()).toBe(200);

    const messages = page.getByRole("list", { name: "Mensajes" });
    const who = page.getByRole("status", { name: "Quién responde" });

    await test.step("a reply from the phone appears live, and the AI pauses", async () => {
      await deliver(
        page.request,
        messageEcho({ ...SANDBOX_NUMBER, to: LUCIA.phone, text: "Te las guardo hasta el sábado" }),
      );
      const echo = messages
        .getByRole("listitem")
        .filter({ hasText: "Te las guardo hasta el sábado" });
      await expect(echo.getByText("Enviado desde el móvil")).toBeVisible();
      await expect(who).toContainText("La IA está en pausa");
      await expect(who.getByRole("button", { name: "Reanudar IA" })).toBeVisible();
      await expectAccessible(page, "quién responde", "[aria-label='Quién responde']");
      await expectAccessible(page, "mensajes", "ol[aria-label='Mensajes']");
    });

    await test.step("the customer writes: no AI answer until Reanudar IA, then one", async () => {
      await deliver(
        page.request,
        inboundMessage({
          ...SANDBOX_NUMBER,
          from: LUCIA.phone,
          name: "Lucía",
          text: "¿A qué hora abrís?",
        }),
      );
      await expect(messages.getByText("¿A qué hora abrís?")).toBeVisible();

      await who.getByRole("button", { name: "Reanudar IA" }).click();
      await expect(who).toHaveCount(0);
      await deliver(
        page.request,
        inboundMessage({
          ...SANDBOX_NUMBER,
          from: LUCIA.phone,
          name: "Lucía",
          text: "¿Y los domingos?",
        }),
      );
      // The fake model answers with the customer's last words: this answer is for the message
      // after the pause; none was ever prepared for the one during it.
      await expect(messages.getByText(/Respuesta de prueba \(.*\): ¿Y los domingos\?/)).toBeVisible(
        {
          timeout: 20_000,
        },
      );
      await expect(
        messages.getByText(/Respuesta de prueba \(.*\): ¿A qué hora abrís\?/),
      ).toHaveCount(0);
      await expect(messages.getByText("Agente IA", { exact: true })).toHaveCount(1);
    });
  } finally {
    // The fixtures' number is free again for the other tests that connect it.
    await page.request.delete("/api/v1/whatsapp-config", { headers });
  }
});
