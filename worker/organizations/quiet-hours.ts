/**
 * Quiet hours (contract section 17): no broadcast or follow-up is sent between the
 * organization's `quiet_hours_start` and `quiet_hours_end` in its time zone (21:00-09:00 unless
 * it set others); a send that falls inside them waits for their end.
 */
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { organizations } from "../db/global-schema";
import { quietHoursEnd, type QuietHours } from "./contract";

/** The organization's quiet hours, or null when it is gone. */
export async function organizationQuietHours(
  db: Db,
  organizationId: string,
): Promise<QuietHours | null> {
  const organization = await db.query.organizations.findFirst({
    where: eq(organizations.id, organizationId),
    columns: { timeZone: true, quietHoursStart: true, quietHoursEnd: true },
  });
  if (!organization) return null;
  return {
    timeZone: organization.timeZone,
    start: organization.quietHoursStart,
    end: organization.quietHoursEnd,
  };
}

/** When the organization's quiet hours that `at` falls in end, or null outside them. */
export async function organizationQuietHoursEnd(db: Db, organizationId: string, at: Date) {
  const quiet = await organizationQuietHours(db, organizationId);
  return quiet && quietHoursEnd(at, quiet);
}
