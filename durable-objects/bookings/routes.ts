import { Hono } from "hono";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { requireRole } from "../../worker/http/auth";
import { headerParams, jsonBody, queryParams } from "../../worker/http/validate";
import { idempotencyHeaders } from "../../contracts/sales";
import { availability } from "./availability";
import {
  availabilityQuery,
  bookingInput,
  bookingListQuery,
  bookingUpdateInput,
  serviceInput,
  serviceUpdateInput,
} from "../../contracts/bookings";
import * as bookings from "./service";
import * as services from "./services";

const manager = requireRole("owner", "admin");

/**
 * `/services` (contract section 18): every member reads them; owners and admins write them.
 * Served by the organization's store like the rest of its data.
 */
export const serviceRoutes = new Hono<AppContext>()
  .get("/", async (c) => {
    return c.json({ data: await services.listServices(storeDeps(c), c.var.member) });
  })
  .post("/", manager, ...jsonBody(serviceInput), async (c) => {
    const service = await services.createService(storeDeps(c), c.var.member, c.req.valid("json"));
    return c.json({ data: service }, 201);
  })
  .get("/:id", async (c) => {
    const service = await services.getService(storeDeps(c), c.var.member, c.req.param("id"));
    return c.json({ data: service });
  })
  .patch("/:id", manager, ...jsonBody(serviceUpdateInput), async (c) => {
    const service = await services.updateService(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
      changes: c.req.valid("json"),
    });
    return c.json({ data: service });
  })
  .delete("/:id", manager, async (c) => {
    await services.deleteService(storeDeps(c), c.var.member, c.req.param("id"));
    return c.json({ data: { success: true } });
  });

/** `/bookings`: every member books, moves, cancels and marks (the Agenda is the team's). */
export const bookingRoutes = new Hono<AppContext>()
  .get("/availability", queryParams(availabilityQuery), async (c) => {
    const slots = await availability(storeDeps(c), c.var.member, c.req.valid("query"));
    return c.json({ data: slots });
  })
  .get("/", queryParams(bookingListQuery), async (c) => {
    const page = await bookings.listBookings(storeDeps(c), c.var.member, c.req.valid("query"));
    return c.json({ data: page });
  })
  .post("/", ...jsonBody(bookingInput), headerParams(idempotencyHeaders), async (c) => {
    const booking = await bookings.createBooking(storeDeps(c), c.var.member, {
      booking: c.req.valid("json"),
      idempotencyKey: c.req.valid("header")["idempotency-key"] ?? null,
    });
    return c.json({ data: booking }, 201);
  })
  .patch("/:id", ...jsonBody(bookingUpdateInput), async (c) => {
    const booking = await bookings.updateBooking(storeDeps(c), c.var.member, {
      id: c.req.param("id"),
      changes: c.req.valid("json"),
    });
    return c.json({ data: booking });
  });
