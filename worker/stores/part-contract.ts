/**
 * The parts of an organization's work the Worker hands its store (worker/stores/organization-parts.ts
 * runs them), and what each answers. Types only, apart from the code that runs them, so that
 * the store's interface (worker/stores/store-calls.ts) names them without depending on it.
 */
import type { AuditEntry } from "../audit/trail";
import type { ExportList, ExportRow, Person } from "../auth/account-in-organization";
import type { ExchangeOutcome, FlowExchange } from "../../contracts/flows";
import type { Member } from "../http/context";
import type { GoogleConnectError } from "../../contracts/google-calendar";
import type { PaymentWebhook, WebhookAnswer } from "../../durable-objects/payments/webhooks";
import type { Leaving } from "../../durable-objects/team-inbox/assignment";
import type { ExchangeInput } from "../../durable-objects/whatsapp/oauth-service";

/** What may be done in an organization's data from outside it; each part names no organization. */
export type OrganizationPart =
  /** An entry in its trail. */
  | { kind: "audit"; entry: Omit<AuditEntry, "organizationId"> }
  /** The addresses a member signed in from since `since`. */
  | { kind: "usual-addresses"; userId: string; since: string }
  /** A person leaving holds nothing any more (durable-objects/team-inbox/assignment.ts). */
  | { kind: "release"; leaving: Leaving }
  /** A deleted account's person gone from its data. */
  | { kind: "forget"; person: Person }
  /** A page of a list an account's export holds. */
  | { kind: "export-page"; list: ExportList; after: string }
  /**
   * A WhatsApp number connected from Facebook's redirect, which reaches the Worker: the state
   * named the member; the connection is recorded where its history import and trail are.
   */
  | { kind: "whatsapp-connect"; member: Member; input: ExchangeInput }
  /**
   * A payment provider's webhook (worker/payments/webhook-routes.ts): the edge found the
   * organization; its signature is checked with the organization's secret, in its store.
   */
  | { kind: "payment-webhook"; hook: PaymentWebhook }
  /** A decrypted exchange of the booking Flow, whose token names this organization. */
  | { kind: "flow-exchange"; exchange: FlowExchange }
  /** Google Calendar's consent came back to the Worker: the store takes its state once. */
  | { kind: "google-connect"; member: Member; stateId: string; code: string };

/** What each part answers (`true`: done). */
export type PartKind = OrganizationPart["kind"];
export type PartOf<K extends PartKind> = Extract<OrganizationPart, { kind: K }>;

export interface PartResults {
  audit: true;
  "usual-addresses": string[];
  release: true;
  forget: true;
  "export-page": ExportRow[];
  /** The number connected, or the refusal said as the API says it (a class does not cross RPC). */
  "whatsapp-connect": { phone_number: string } | { error: { code: string; message: string } };
  "payment-webhook": WebhookAnswer;
  "flow-exchange": ExchangeOutcome;
  "google-connect": { connected: true } | { error: GoogleConnectError };
}
