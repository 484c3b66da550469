/** The customers a booking can be for: the organization's latest conversations, by name or number. */
import type { Conversation } from "../../../contracts/conversations";
import { client, data } from "~/lib/api";

/** How many of the latest conversations the new booking's "Conversación" offers. */
const CUSTOMERS = 100;

export const readCustomers = () =>
  data(client.conversations.$get({ query: { limit: String(CUSTOMERS) } })).then(
    (page) => page.conversations,
  );

/** "Ana López", else "+34600111222", else "@ana". */
export const customerName = ({ contact }: Pick<Conversation, "contact">) =>
  contact.name ??
  (contact.phone_number
    ? `+${contact.phone_number}`
    : contact.username
      ? `@${contact.username}`
      : "Cliente");
