import { eq } from "drizzle-orm";
import { organizationNotFound } from "../../worker/organizations/errors";
import { toOrganization, type OrganizationRow } from "../../worker/organizations/mappers";
import { recordAudit } from "../audit/service";
import { organizations } from "../../worker/db/global-schema";
import { forbidden } from "../../worker/http/errors";
import type { Member } from "../../worker/http/context";
import type { StoreDeps } from "../../worker/http/deps";
import type { OrganizationDb } from "../db";
import type { OrganizationSettings } from "../../contracts/bookings";
import { changeMarketingLimits, readMarketingLimits } from "../broadcasts/marketing-limits";
import type { OrganizationSettingsData } from "../../contracts/bookings";
import { readBookingSettings, saveBookingSettings, toBookingHours } from "../bookings/settings";
import { readPaymentLimits, saveMaxPaymentAmount } from "../payments/settings";
import { organizationCurrency } from "./currency";

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
