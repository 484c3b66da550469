/**
 * What a signed-in person does before they belong to an organization, served by the edge (what is
 * global, in D1): create one, or accept an invitation. Each then writes its first entry in the
 * organization's trail, in its store.
 */
import { and, eq, isNull } from "drizzle-orm";
import { sha256Hex } from "../auth/tokens";
import type { Db } from "../db/client";
import { uuidv7 } from "../db/ids";
import { invitations, memberships, organizations } from "../db/global-schema";
import type { Caller } from "../http/context";
import type { Deps } from "../http/deps";
import { conflict, notFound } from "../http/errors";
import { registerStore } from "../stores/registry";
import { auditIn } from "../stores/organization-parts";
import type { Organization, OrganizationCreateData } from "../../contracts/organizations";
import { toOrganization } from "./mappers";
import { rememberPerson } from "./people";
import { timeZoneOfCountry } from "./time-zone";

const alreadyAMember = () => conflict("Ya perteneces a una organización.");

/** A person belongs to one organization: creating or joining a second is refused. */
async function refuseASecondOrganization(db: Db, userId: string) {
  const existing = await db.query.memberships.findFirst({ where: eq(memberships.userId, userId) });
  if (existing) throw alreadyAMember();
}

/** Creates the caller's organization and makes them its owner (onboarding's last step). */
export async function createOrganization(
  deps: Deps,
  caller: Caller,
  input: OrganizationCreateData,
): Promise<Organization> {
  const { db, env } = deps;
  await refuseASecondOrganization(db, caller.userId);

  const organizationId = uuidv7();
  // One batch is one transaction in D1 (the organization, its owner, who it has had and its
  // store's entry in the registry); the unique membership per user settles a race.
  const [[organization]] = await db
    .batch([
      db
        .insert(organizations)
        .values({
          id: organizationId,
          name: input.name,
          industry: input.industry,
          employeeCount: input.employee_count,
          servicesOffered: input.services_offered,
          businessHours: input.business_hours,
          city: input.city,
          country: input.country,
          aiUseCase: input.ai_use_case,
          address: input.address,
          description: input.description,
          timeZone: timeZoneOfCountry(input.country),
        })
        .returning(),
      db.insert(memberships).values({ organizationId, userId: caller.userId, role: "owner" }),
      rememberPerson(db, organizationId, { userId: caller.userId }),
      registerStore(db, env, { id: organizationId, country: input.country }),
    ])
    .catch((error: unknown) => {
      if (String(error).includes("UNIQUE")) throw alreadyAMember();
      throw error;
    });
  // Its first entry, where its data starts (its store, for an organization made now).
  await auditIn(deps, organizationId, {
    action: "organization.create",
    userId: caller.userId,
    ip: caller.ip,
  });
  return toOrganization(organization!);
}

/** Joins the invitation's organization (once; the link then stops working). */
export async function acceptInvitation(deps: Deps, caller: Caller, { token }: { token: string }) {
  const { db } = deps;
  const invitation = await db.query.invitations.findFirst({
    where: eq(invitations.tokenHash, await sha256Hex(token)),
  });
  const invalid = () => notFound("La invitación no existe, ya se usó o ha caducado.");
  if (!invitation || invitation.acceptedAt || invitation.expiresAt <= new Date().toISOString()) {
    throw invalid();
  }
  await refuseASecondOrganization(db, caller.userId);
  // Claim first: of two simultaneous uses of one link, only one updates the row.
  const [claimed] = await db
    .update(invitations)
    .set({ acceptedAt: new Date().toISOString() })
    .where(and(eq(invitations.id, invitation.id), isNull(invitations.acceptedAt)))
    .returning();
  if (!claimed) throw invalid();
  await db.batch([
    db.insert(memberships).values({
      organizationId: invitation.organizationId,
      userId: caller.userId,
      role: invitation.role,
    }),
    rememberPerson(db, invitation.organizationId, { userId: caller.userId }),
  ]);
  await auditIn(deps, invitation.organizationId, {
    action: "member.join",
    userId: caller.userId,
    metadata: { role: invitation.role, invitation: invitation.id },
    ip: caller.ip,
  });
  const organization = await db.query.organizations.findFirst({
    where: eq(organizations.id, invitation.organizationId),
  });
  return {
    organization_id: invitation.organizationId,
    organization_name: organization?.name ?? "",
    role: invitation.role,
  };
}
