import { Hono } from "hono";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { requireRole } from "../../worker/http/auth";
import { queryParams } from "../../worker/http/validate";
import { auditLogQuery } from "../../contracts/audit";
import { listAuditLog } from "./service";

/** `GET /organizations/audit-log`: the organization's audit trail, for owners and admins. */
export const auditRoutes = new Hono<AppContext>()
  .use(requireRole("owner", "admin"))
  .get("/", queryParams(auditLogQuery), async (c) => {
    return c.json({ data: await listAuditLog(storeDeps(c), c.var.member, c.req.valid("query")) });
  });
