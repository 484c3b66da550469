import { Hono } from "hono";
import { requireCaller } from "../http/auth";
import type { AppContext } from "../http/context";
import { jsonBody } from "../http/validate";
import { acceptInvitationInput } from "../../contracts/members";
import { organizationCreateInput } from "../../contracts/organizations";
import { acceptInvitation, createOrganization } from "./joining";

/**
 * What a signed-in person does before they belong to an organization: create one, or accept an
 * invitation. Served by the edge (what is global).
 */
export const organizationGlobalRoutes = new Hono<AppContext>()
  .post("/invitations/accept", requireCaller, ...jsonBody(acceptInvitationInput), async (c) => {
    const joined = await acceptInvitation(c.var.deps, c.var.caller, c.req.valid("json"));
    return c.json({ data: joined });
  })
  .post("/", requireCaller, ...jsonBody(organizationCreateInput), async (c) => {
    const organization = await createOrganization(c.var.deps, c.var.caller, c.req.valid("json"));
    return c.json({ data: organization }, 201);
  });
