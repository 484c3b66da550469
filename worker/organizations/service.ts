import { eq } from "drizzle-orm";
import { recordAudit } from "../audit/service";
import { uuidv7 } from "../db/ids";
import { memberships, organizations } from "../db/global-schema";
import { AppError, conflict, forbidden } from "../http/errors";
import type { Caller, Member } from "../http/context";
import type { Deps, StoreDeps } from "../http/deps";
import type { OrganizationDb } from "../db/client";
import type { OrganizationSettings } from "../../contracts/bookings";
import type { Organization, OrganizationCreateData } from "../../contracts/organizations";
import { changeMarketingLimits, readMarketingLimits } from "../broadcasts/marketing-limits";
import type { OrganizationSettingsData } from "../../contracts/bookings";
import { readBookingSettings, saveBookingSettings, toBookingHours } from "../bookings/settings";
import { registerStore } from "../stores/registry";
import { readPaymentLimits, saveMaxPaymentAmount } from "../payments/settings";
import { organizationCurrency } from "./currency";
import { auditIn } from "../stores/organization-parts";
import { rememberPerson } from "./people";
import { timeZoneOfCountry } from "./time-zone";

type OrganizationRow = typeof organizations.$inferSelect;

export const toOrganization = (row: OrganizationRow): Organization => ({
  id: row.id,
  name: row.name,
  industry: row.industry,
  description: row.description,
  address: row.address,
  employee_count: row.employeeCount,
  services_offered: row.servicesOffered,
  business_hours: row.businessHours,
  city: row.city,
  country: row.country,
  ai_use_case: row.aiUseCase,
  currency: row.currency,
  ai_monthly_token_budget: row.aiMonthlyTokenBudget,
  auto_assign: row.autoAssign,
  time_zone: row.timeZone,
  quiet_hours_start: row.quietHoursStart,
  quiet_hours_end: row.quietHoursEnd,
  tracking_key: row.trackingKey,
  created_at: row.createdAt,
  updated_at: row.updatedAt,
});

export const organizationNotFound = () =>
  new AppError(
    404,
    "organization_not_found",
    "Organización no encontrada. Completa el registro de tu organización.",
  );

/**
 * The organization as its settings read it: its global row (D1) and what its store keeps of its
 * settings, the marketing limits (decision 0080) and the bookings' hours (decision 0076), with
 * whether it is open now.
 */
async function withStoreSettings(
  orgDb: OrganizationDb,
  row: OrganizationRow,
): Promise<OrganizationSettings> {
  const bookings = await readBookingSettings(orgDb, row.id);
  return {
    ...toOrganization(row),
    ...(await readMarketingLimits(orgDb, row.id)),
    ...toBookingHours(bookings, Date.now()),
    ...(await readPaymentLimits(orgDb, row.id)),
  };
}

/** `GET /organizations/me`: the store's organization, with its settings. */
export async function getOrganization({ facts, orgDb }: StoreDeps): Promise<OrganizationSettings> {
  // The store's copy of the organization's row (decision 0136): no trip to D1.
  const { organization } = await facts();
  if (!organization) throw organizationNotFound();
  return withStoreSettings(orgDb, organization);
}

/** Creates the caller's organization and makes them its owner (onboarding's last step). */
export async function createOrganization(
  deps: Deps,
  caller: Caller,
  input: OrganizationCreateData,
): Promise<Organization> {
  const { db, env } = deps;
  const existing = await db.query.memberships.findFirst({
    where: eq(memberships.userId, caller.userId),
  });
  if (existing) throw conflict("Ya perteneces a una organización.");

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
      if (String(error).includes("UNIQUE")) throw conflict("Ya perteneces a una organización.");
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

/**
 * `PATCH /organizations/{id}`: the organization's own fields in D1, and what its store keeps of
 * its settings (the route runs there): what the owner allows marketing (decision 0080), first,
 * so that a refused budget changes nothing, and the bookings' settings. `business_hours` as a
 * text is onboarding's, kept in D1 for the AI; as an object it is the structured hours, and the
 * text stays as it was (decision 0076).
 */
export async function updateOrganization(
  deps: StoreDeps,
  member: Member,
  input: OrganizationSettingsData,
): Promise<OrganizationSettings> {
  const { db, orgDb, factsChanged } = deps;
  if (input.ai_monthly_token_budget !== undefined && member.role !== "owner") {
    throw forbidden("Solo la persona propietaria puede cambiar el presupuesto de IA.");
  }
  if (input.marketing_budget !== undefined || input.marketing_frequency !== undefined) {
    await changeMarketingLimits(orgDb, member, {
      budget: input.marketing_budget,
      frequency: input.marketing_frequency,
      currency: input.currency ?? (await organizationCurrency(deps)),
    });
  }
  const [row] = await db
    .update(organizations)
    .set({
      name: input.name,
      industry: input.industry,
      city: input.city,
      country: input.country,
      address: input.address,
      description: input.description,
      employeeCount: input.employee_count,
      servicesOffered: input.services_offered,
      businessHours: typeof input.business_hours === "string" ? input.business_hours : undefined,
      aiUseCase: input.ai_use_case,
      currency: input.currency,
      aiMonthlyTokenBudget: input.ai_monthly_token_budget,
      autoAssign: input.auto_assign,
      timeZone: input.time_zone,
      quietHoursStart: input.quiet_hours_start,
      quietHoursEnd: input.quiet_hours_end,
      updatedAt: new Date().toISOString(),
    })
    .where(eq(organizations.id, member.organizationId))
    .returning();
  await factsChanged();
  if (!row) throw organizationNotFound();
  const { business_hours: hours, away_message, min_notice_minutes } = input;
  if (typeof hours === "object" || away_message || min_notice_minutes !== undefined) {
    await saveBookingSettings(orgDb, member.organizationId, {
      businessHours: typeof hours === "object" ? hours : undefined,
      awayMessage: away_message,
      minNoticeMinutes: min_notice_minutes,
    });
  }
  if (input.max_payment_amount !== undefined) {
    await saveMaxPaymentAmount(orgDb, member.organizationId, input.max_payment_amount);
  }
  await recordAudit(orgDb, {
    action: "organization.update",
    organizationId: member.organizationId,
    userId: member.userId,
    metadata: { fields: Object.keys(input) },
    ip: member.ip,
  });
  return withStoreSettings(orgDb, row);
}

/**
 * Gives the organization a new public tracking key. The old one stops working at once: every
 * public call looks its key up, nothing keeps it.
 */
export async function rotateTrackingKey({ db, orgDb, factsChanged }: StoreDeps, member: Member) {
  // The same form as the key every organization is created with (worker/db/global-schema.ts).
  const trackingKey = crypto.randomUUID().replaceAll("-", "");
  const [row] = await db
    .update(organizations)
    .set({ trackingKey, updatedAt: new Date().toISOString() })
    .where(eq(organizations.id, member.organizationId))
    .returning({ trackingKey: organizations.trackingKey });
  await factsChanged();
  if (!row) throw organizationNotFound();
  await recordAudit(orgDb, {
    action: "tracking_key.rotate",
    organizationId: member.organizationId,
    userId: member.userId,
    ip: member.ip,
  });
  return row.trackingKey;
}
