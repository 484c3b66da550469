/**
 * Quiet hours (contract section 17): no broadcast or follow-up is sent between the
 * organization's `quiet_hours_start` and `quiet_hours_end` in its time zone (21:00-09:00 unless
 * it set others); a send that falls inside them waits for their end. Read from the facts the
 * organization's store keeps (decision 0136).
 */
import type { StoreDeps } from "../../worker/http/deps";
import { quietHoursEnd, type QuietHours } from "../../contracts/organizations";

/** The organization's quiet hours, or null when it is gone. */
export async function organizationQuietHours({
  facts,
}: Pick<StoreDeps, "facts">): Promise<QuietHours | null> {
  const { organization } = await facts();
  if (!organization) return null;
  return {
    timeZone: organization.timeZone,
    start: organization.quietHoursStart,
    end: organization.quietHoursEnd,
  };
}

/** When the organization's quiet hours that `at` falls in end, or null outside them. */
export async function organizationQuietHoursEnd(deps: Pick<StoreDeps, "facts">, at: Date) {
  const quiet = await organizationQuietHours(deps);
  return quiet && quietHoursEnd(at, quiet);
}
