import { Hono } from "hono";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { requireRole } from "../../worker/http/auth";
import { optionalJsonBody } from "../../worker/http/validate";
import { requireSender } from "../whatsapp/sender";
import { bookingFlowSendInput } from "../../contracts/flows";
import { readBookingFlow, registerBookingFlow, toFlowState } from "./registration";
import { sendBookingFlow } from "./sending";

/** `POST /conversations/{id}/booking-flow`: any member sends the Flow (or its list). */
export const bookingFlowSendRoutes = new Hono<AppContext>().post(
  "/:id/booking-flow",
  ...optionalJsonBody(bookingFlowSendInput),
  async (c) => {
    const sent = await sendBookingFlow(storeDeps(c), c.var.member, {
      conversationId: c.req.param("id"),
      serviceId: c.req.valid("json").service_id,
    });
    return c.json({ data: sent }, 201);
  },
);

/**
 * `/whatsapp/booking-flow`: the Flow on the account. Every member reads where it stands; owners
 * and admins register it again (after fixing what its error says).
 */
export const bookingFlowRoutes = new Hono<AppContext>()
  .get("/", async (c) => {
    const deps = storeDeps(c);
    return c.json({ data: toFlowState(await readBookingFlow(deps, c.var.member.organizationId)) });
  })
  .post("/", requireRole("owner", "admin"), async (c) => {
    const deps = storeDeps(c);
    const { organizationId } = c.var.member;
    const { connection, graph } = await requireSender(deps, organizationId);
    const state = await registerBookingFlow(deps, organizationId, {
      phoneNumberId: connection.phoneNumberId,
      wabaId: connection.businessAccountId,
      graph,
    });
    return c.json({ data: state });
  });
