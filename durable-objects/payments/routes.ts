import { Hono } from "hono";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { requireRole } from "../../worker/http/auth";
import { headerParams, jsonBody } from "../../worker/http/validate";
import { idempotencyHeaders } from "../../contracts/sales";
import { paymentIntegrationInput, paymentLinkInput } from "../../contracts/payments";
import * as payments from "./service";

const manager = requireRole("owner", "admin");

/**
 * `/integrations/payments` (contract section 18): every member sees whether a provider is
 * connected (never its secrets); owners and admins connect and disconnect it.
 */
export const paymentIntegrationRoutes = new Hono<AppContext>()
  .get("/", async (c) => {
    return c.json({ data: await payments.getIntegration(storeDeps(c), c.var.member) });
  })
  .put("/", manager, ...jsonBody(paymentIntegrationInput), async (c) => {
    const integration = await payments.connectIntegration(
      storeDeps(c),
      c.var.member,
      c.req.valid("json"),
    );
    return c.json({ data: integration });
  })
  .delete("/", manager, async (c) => {
    await payments.disconnectIntegration(storeDeps(c), c.var.member);
    return c.json({ data: { success: true } });
  });

/** `/conversations/{id}/...`: a conversation's payment links; every member sends them. */
export const paymentLinkRoutes = new Hono<AppContext>()
  .post(
    "/:id/payment-links",
    ...jsonBody(paymentLinkInput),
    headerParams(idempotencyHeaders),
    async (c) => {
      const payment = await payments.createPaymentLink(storeDeps(c), c.var.member, {
        id: c.req.param("id"),
        link: c.req.valid("json"),
        idempotencyKey: c.req.valid("header")["idempotency-key"] ?? null,
      });
      return c.json({ data: payment }, 201);
    },
  )
  .get("/:id/payments", async (c) => {
    const list = await payments.listPayments(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
    });
    return c.json({ data: list });
  });
