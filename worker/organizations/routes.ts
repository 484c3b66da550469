import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import type { AppContext } from "../http/context";
import { requestInfo, requireCaller, requireMember, requireRole } from "../http/auth";
import { jsonBody } from "../http/validate";
import { organizationCreateInput, organizationUpdateInput } from "./contract";
import * as organizations from "./service";

/** Another organization's id is simply not found (before any role check: no existence leak). */
const ownOrganizationParam = createMiddleware<AppContext>(async (c, next) => {
  if (c.req.param("id") !== c.var.member.organizationId) throw organizations.organizationNotFound();
  await next();
});

export const organizationRoutes = new Hono<AppContext>()
  .use(requireCaller)
  .get("/me", requireMember, async (c) => {
    return c.json({ data: await organizations.getOrganization(c.var.db, c.var.member) });
  })
  .post("/", ...jsonBody(organizationCreateInput), async (c) => {
    const organization = await organizations.createOrganization(
      c.var.db,
      c.var.caller,
      c.req.valid("json"),
      requestInfo(c).ip,
    );
    return c.json({ data: organization }, 201);
  })
  .patch(
    "/:id",
    requireMember,
    ownOrganizationParam,
    requireRole("owner", "admin"),
    ...jsonBody(organizationUpdateInput),
    async (c) => {
      const organization = await organizations.updateOrganization(
        c.var.db,
        c.var.member,
        c.req.valid("json"),
        requestInfo(c).ip,
      );
      return c.json({ data: organization });
    },
  );
