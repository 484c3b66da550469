/**
 * The payloads of a reminder's buttons (decision 0122): `booking:<booking id>:<action>`, set by
 * the product on each quick-reply button it sends. A press names a booking, which the store's
 * job acts on only when it is a booking of the conversation the press came from.
 */
import type { InboundMessage } from "../whatsapp/inbound-content";
import { REMINDER_ACTIONS, type ReminderAction } from "../../contracts/reminders";

const PREFIX = "booking:";
const PAYLOAD = new RegExp(`^${PREFIX}([0-9A-Za-z-]{1,64}):(${REMINDER_ACTIONS.join("|")})$`);

export const reminderPayload = (bookingId: string, action: ReminderAction) =>
  `${PREFIX}${bookingId}:${action}`;

/** What a reminder's button press asks: a template button's payload or a button reply's id. */
export function reminderPress(
  message: InboundMessage,
): { bookingId: string; action: ReminderAction } | null {
  const payload =
    message.type === "button"
      ? message.button?.payload
      : message.type === "interactive"
        ? message.interactive?.button_reply?.id
        : undefined;
  const match = typeof payload === "string" ? PAYLOAD.exec(payload) : null;
  return match ? { bookingId: match[1]!, action: match[2] as ReminderAction } : null;
}
