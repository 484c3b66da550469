import { Hono } from "hono";
import { createMiddleware } from "hono/factory";
import { storeDeps, type AppContext } from "../http/context";
import { requireCaller, requireMember, requireRole } from "../http/auth";
import { jsonBody } from "../http/validate";
import { organizationCreateInput } from "./contract";
import { organizationSettingsInput } from "../bookings/contract";
import { acceptInvitationInput, invitationInput, memberChangeInput } from "./members-contract";
import * as members from "./members-service";
import * as organizations from "./service";

/** Another organization's id is simply not found (before any role check: no existence leak). */
const ownOrganizationParam = createMiddleware<AppContext>(async (c, next) => {
  if (c.req.param("id") !== c.var.member.organizationId) throw organizations.organizationNotFound();
  await next();
});

export const organizationRoutes = new Hono<AppContext>()
  .use(requireCaller)
  .get("/me", requireMember, async (c) => {
    return c.json({ data: await organizations.getOrganization(storeDeps(c), c.var.member) });
  })
  .get("/members", requireMember, async (c) => {
    return c.json({ data: await members.listMembers(c.var.deps, c.var.member) });
  })
  // Roles are the managers'; availability is also each member's own (checked in the service).
  .patch("/members/:userId", requireMember, ...jsonBody(memberChangeInput), async (c) => {
    const member = await members.changeMember(storeDeps(c), c.var.member, {
      userId: c.req.param("userId"),
      ...c.req.valid("json"),
    });
    return c.json({ data: member });
  })
  .delete("/members/:userId", requireMember, requireRole("owner", "admin"), async (c) => {
    await members.removeMember(storeDeps(c), c.var.member, { userId: c.req.param("userId") });
    return c.json({ data: { success: true } });
  })
  .get("/invitations", requireMember, requireRole("owner", "admin"), async (c) => {
    return c.json({ data: await members.pendingInvitations(c.var.deps, c.var.member) });
  })
  .post(
    "/invitations",
    requireMember,
    requireRole("owner", "admin"),
    ...jsonBody(invitationInput),
    async (c) => {
      const invitation = await members.invite(storeDeps(c), c.var.member, {
        invitation: c.req.valid("json"),
        appUrl: c.env.PUBLIC_APP_URL || new URL(c.req.url).origin,
      });
      return c.json({ data: invitation }, 201);
    },
  )
  .delete("/invitations/:id", requireMember, requireRole("owner", "admin"), async (c) => {
    await members.revokeInvitation(c.var.deps, c.var.member, { id: c.req.param("id") });
    return c.json({ data: { success: true } });
  })
  .post("/invitations/accept", ...jsonBody(acceptInvitationInput), async (c) => {
    const joined = await members.acceptInvitation(c.var.deps, c.var.caller, c.req.valid("json"));
    return c.json({ data: joined });
  })
  .post("/", ...jsonBody(organizationCreateInput), async (c) => {
    const organization = await organizations.createOrganization(
      c.var.deps,
      c.var.caller,
      c.req.valid("json"),
    );
    return c.json({ data: organization }, 201);
  })
  .patch(
    "/:id",
    requireMember,
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
