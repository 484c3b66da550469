import { Hono } from "hono";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { requireRole } from "../../worker/http/auth";
import { jsonBody } from "../../worker/http/validate";
import { reminderSettingsInput } from "../../contracts/reminders";
import { getReminderSettings, saveReminderSettings } from "./service";

const manager = requireRole("owner", "admin");

/**
 * `/booking-reminders` (contract section 18, decision 0120): the template of the bookings'
 * reminders; every member reads it, owners and admins choose it.
 */
export const bookingReminderRoutes = new Hono<AppContext>()
  .get("/", async (c) => {
    return c.json({ data: await getReminderSettings(storeDeps(c), c.var.member) });
  })
  .put("/", manager, ...jsonBody(reminderSettingsInput), async (c) => {
    const settings = await saveReminderSettings(storeDeps(c), c.var.member, c.req.valid("json"));
    return c.json({ data: settings });
  });
