import {
  DEFAULT_QUIET_HOURS,
  DEFAULT_TIME_ZONE,
  isTimeZone,
} from "../../../contracts/organizations";
import { useAuth } from "~/lib/auth";

/** The organization's time zone, quiet hours and currency, as its broadcasts and follow-ups use them. */
export function useOrganizationTime() {
  const { organization } = useAuth();
  const zone = organization?.time_zone;
  return {
    timeZone: zone && isTimeZone(zone) ? zone : DEFAULT_TIME_ZONE,
    quietStart: organization?.quiet_hours_start || DEFAULT_QUIET_HOURS.start,
    quietEnd: organization?.quiet_hours_end || DEFAULT_QUIET_HOURS.end,
    currency: organization?.currency || "EUR",
  };
}

export type OrganizationTime = ReturnType<typeof useOrganizationTime>;

/** "No se envían difusiones ni seguimientos entre las 21:00 y las 09:00 (Europe/Madrid)." */
export const quietHoursSentence = ({
  quietStart,
  quietEnd,
  timeZone,
}: Pick<OrganizationTime, "quietStart" | "quietEnd" | "timeZone">) =>
  quietStart === quietEnd
    ? `Las difusiones y los seguimientos se envían a cualquier hora (${timeZone}).`
    : `No se envían difusiones ni seguimientos entre las ${quietStart} y las ${quietEnd} (${timeZone}).`;
