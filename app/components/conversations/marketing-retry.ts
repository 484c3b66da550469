import type { Conversation, Message } from "../../../contracts/conversations";
import { quietHoursEnd } from "../../../contracts/organizations";
import type { OrganizationTime } from "~/components/broadcasts/organization-time";

/**
 * Messages whose "Reintentar" goes only as a new marketing send would (decision 0071): a
 * broadcast's, a follow-up's, and any template (the console does not know a template's
 * category, so a utility one is held back with the marketing ones: never offered where it
 * would be refused).
 */
export const marketingKind = (message: Pick<Message, "sender_type" | "type">) =>
  message.sender_type === "broadcast" ||
  message.sender_type === "follow_up" ||
  message.type === "template";

/**
 * Whether marketing to this customer is held now, from what the console has: the customer
 * stopped it, Meta limits it (131049, 24 h) or the organization's quiet hours are on.
 */
export function marketingHeld(
  conversation: Pick<Conversation, "marketing_opt_out" | "marketing_limited_until">,
  {
    timeZone,
    quietStart,
    quietEnd,
  }: Pick<OrganizationTime, "timeZone" | "quietStart" | "quietEnd">,
  now: number,
) {
  const limitedUntil = conversation.marketing_limited_until;
  return (
    conversation.marketing_opt_out !== null ||
    (limitedUntil !== null && Date.parse(limitedUntil) > now) ||
    quietHoursEnd(new Date(now), { timeZone, start: quietStart, end: quietEnd }) !== null
  );
}
