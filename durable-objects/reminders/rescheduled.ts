/**
 * A reminder's "Cambiar" ends in a new booking (decision 0122): the Flow or list it sent names
 * the booking it replaces, which is cancelled once the new one is made (its slot taken first, so
 * the customer is never left without either). A booking already changed meanwhile stays as it is.
 */
import { AppError } from "../../worker/http/errors";
import type { StoreDeps } from "../../worker/http/deps";
import { updateBooking } from "../bookings/service";
import type { FlowTokenRow } from "../flows/tokens";

export const REPLACED_BY_CUSTOMER = "El cliente la cambió por otra desde el recordatorio";

export async function replaceRescheduled(
  deps: StoreDeps,
  organizationId: string,
  token: Pick<FlowTokenRow, "replacesBookingId">,
  bookingId: string,
) {
  const replaced = token.replacesBookingId;
  if (!replaced || replaced === bookingId) return;
  try {
    // As the customer (no user): the token was issued for a booking of their conversation.
    await updateBooking(
      deps,
      { organizationId },
      { id: replaced, changes: { status: "cancelled", reason: REPLACED_BY_CUSTOMER } },
    );
  } catch (error) {
    if (!(error instanceof AppError) || error.status >= 500) throw error;
  }
}
