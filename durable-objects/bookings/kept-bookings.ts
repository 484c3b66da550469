import { sql } from "drizzle-orm";
import { KEPT_BOOKING_STATUSES } from "../../contracts/bookings";

/** `(...)` of the kept statuses, for `status IN` in the reports' SQL (decision 0128). */
export const KEPT_BOOKINGS = sql`(${sql.join(
  KEPT_BOOKING_STATUSES.map((status) => sql`${status}`),
  sql`, `,
)})`;
