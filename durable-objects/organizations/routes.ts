import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { storeDeps, type AppContext } from "../../worker/http/context";
import { requireRole } from "../../worker/http/auth";
import { jsonBody } from "../../worker/http/validate";
import { organizationSettingsInput } from "../../contracts/bookings";
import { invitationInput, memberChangeInput } from "../../contracts/members";
import * as members from "./members-service";
import { organizationNotFound } from "../../worker/organizations/errors";
import * as organizations from "./service";

/** Another organization's id is simply not found (before any role check: no existence leak). */
const ownOrganizationParam = createMiddleware<AppContext>(async (c, next) => {
  if (c.req.param("id") !== c.var.member.organizationId) throw organizationNotFound();
  await next();
});

/** The organization's own routes, served by its store. */
export const organizationRoutes = new Hono<AppContext>()
  .get("/me", async (c) => {
    return c.json({ data: await organizations.getOrganization(storeDeps(c)) });
  })
  .get("/members", async (c) => {
    return c.json({ data: await members.listMembers(c.var.deps, c.var.member) });
  })
  // Roles are the managers'; availability is also each member's own (checked in the service).
  .patch("/members/:userId", ...jsonBody(memberChangeInput), async (c) => {
    const member = await members.changeMember(storeDeps(c), c.var.member, {
      userId: c.req.param("userId"),
      ...c.req.valid("json"),
    });
    return c.json({ data: member });
  })
  .delete("/members/:userId", requireRole("owner", "admin"), async (c) => {
    await members.removeMember(storeDeps(c), c.var.member, { userId: c.req.param("userId") });
    return c.json({ data: { success: true } });
  })
  .get("/invitations", requireRole("owner", "admin"), async (c) => {
    return c.json({ data: await members.pendingInvitations(c.var.deps, c.var.member) });
  })
  .post("/invitations", requireRole("owner", "admin"), ...jsonBody(invitationInput), async (c) => {
    const invitation = await members.invite(storeDeps(c), c.var.member, {
      invitation: c.req.valid("json"),
      appUrl: c.env.PUBLIC_APP_URL || new URL(c.req.url).origin,
    });
    return c.json({ data: invitation }, 201);
  })
  .delete("/invitations/:id", requireRole("owner", "admin"), async (c) => {
    await members.revokeInvitation(storeDeps(c), c.var.member, { id: c.req.param("id") });
    return c.json({ data: { success: true } });
  })
  .patch(
    "/:id",
    ownOrganizationParam,
    requireRole("owner", "admin"),
    ...jsonBody(organizationSettingsInput),
    async (c) => {
      const organization = await organizations.updateOrganization(
        storeDeps(c),
        c.var.member,
        c.req.valid("json"),
      );
      return c.json({ data: organization });
    },
  );
