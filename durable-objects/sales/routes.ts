import { Hono } from "hono";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { headerParams, jsonBody } from "../../worker/http/validate";
import { idempotencyHeaders, saleInput } from "../../contracts/sales";
import * as sales from "./service";

/** `/conversations/{id}/...`: a conversation's sales, conversions and Meta's suggestions. */
export const salesRoutes = new Hono<AppContext>()
  .post("/:id/sales", ...jsonBody(saleInput), headerParams(idempotencyHeaders), async (c) => {
    const sale = await sales.registerSale(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
      sale: c.req.valid("json"),
      idempotencyKey: c.req.valid("header")["idempotency-key"] ?? null,
    });
    return c.json({ data: { sale } }, 201);
  })
  .get("/:id/conversions", async (c) => {
    const list = await sales.conversationConversions(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
    });
    return c.json({ data: list });
  })
  .post("/:id/suggestions/:suggestionId/confirm", async (c) => {
    const conversion = await sales.confirmSuggestion(storeDeps(c), c.var.member, c.req.param());
    return c.json({ data: { conversion } });
  })
  .delete("/:id/suggestions/:suggestionId", async (c) => {
    await sales.dismissSuggestion(storeDeps(c), c.var.member, c.req.param());
    return c.json({ data: { success: true } });
  });
