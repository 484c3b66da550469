/**
 * What a person does for the customer from the conversation's details, as the conversation
 * route's action does it (`routes/conversation-action.ts`, decision 0105): send the booking
 * form, send a payment link (contract section 18).
 */
import type { PaymentLinkInput } from "../../../contracts/payments";
import type { Refusal } from "~/lib/forms";

export type CustomerChange =
  /** The booking Flow (or, where it is not published, the list of the next free slots). */
  | { intent: "booking-flow.send"; conversationId: string; serviceId: string | null }
  /** `key`: the Idempotency-Key, drawn once per dialog opened (a double click is one link). */
  | {
      intent: "payment-link.create";
      conversationId: string;
      values: PaymentLinkInput;
      key: string;
    };

export type CustomerActionResult =
  { ok: true; intent: CustomerChange["intent"] } | (Refusal & { intent: CustomerChange["intent"] });
