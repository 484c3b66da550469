/** An organization's global row (D1) as the API answers it. */
import type { organizations } from "../db/global-schema";
import type { Organization } from "../../contracts/organizations";

export type OrganizationRow = typeof organizations.$inferSelect;

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
