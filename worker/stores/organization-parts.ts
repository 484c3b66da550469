/**
 * The Worker's work on an organization's data outside a member's request (signing in, joining,
 * creating an organization, an account's export and deletion), run in its store (contract
 * section 15) through one RPC (`runPart`) that runs the function with the store's `deps`. A
 * member's request needs none of this: it is already served by the store
 * (worker/stores/organization-data.ts).
 */
import { recordAccountAudit, recordAudit, type AuditEntry } from "../audit/service";
import {
  exportPage,
  forgetPersonIn,
  usualAddressesIn,
  type ExportList,
  type ExportRow,
  type Person,
} from "../auth/account-in-organization";
import type { Member } from "../http/context";
import type { Deps, StoreDeps } from "../http/deps";
import { AppError } from "../http/errors";
import type { ExchangeOutcome, FlowExchange } from "../flows/contract";
import { exchangeInStore } from "../flows/screens";
import { connectWithCode, type ExchangeInput } from "../whatsapp/oauth-service";
import { connectWithCode as connectGoogle } from "../integrations/google/service";
import type { GoogleConnectError } from "../integrations/google/contract";
import { releaseOnLeaving, type Leaving } from "../team-inbox/assignment";
import {
  receivePaymentWebhook,
  type PaymentWebhook,
  type WebhookAnswer,
} from "../payments/webhooks";
import { organizationStore, storeRefused } from "./registry";

/** What may be done in an organization's data from outside it; each part names no organization. */
export type OrganizationPart =
  /** An entry in its trail. */
  | { kind: "audit"; entry: Omit<AuditEntry, "organizationId"> }
  /** The addresses a member signed in from since `since`. */
  | { kind: "usual-addresses"; userId: string; since: string }
  /** A person leaving holds nothing any more (worker/team-inbox/assignment.ts). */
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

type PartKind = OrganizationPart["kind"];
type PartOf<K extends PartKind> = Extract<OrganizationPart, { kind: K }>;

/** What each part answers (`true`: done). */
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

type Runners = {
  [K in PartKind]: (
    deps: StoreDeps,
    organizationId: string,
    part: PartOf<K>,
  ) => Promise<PartResults[K]>;
};

const runners: Runners = {
  audit: async ({ orgDb }, organizationId, { entry }) => {
    await recordAudit(orgDb, { ...entry, organizationId });
    return true;
  },
  "usual-addresses": ({ orgDb }, organizationId, { userId, since }) =>
    usualAddressesIn(orgDb, organizationId, userId, since),
  release: async (deps, organizationId, { leaving }) => {
    await releaseOnLeaving(deps, organizationId, leaving);
    return true;
  },
  forget: async ({ orgDb }, organizationId, { person }) => {
    await forgetPersonIn(orgDb, organizationId, person);
    return true;
  },
  "export-page": ({ orgDb }, organizationId, { list, after }) =>
    exportPage(orgDb, organizationId, list, after),
  "whatsapp-connect": async (deps, organizationId, { member, input }) => {
    try {
      const { phone_number } = await connectWithCode(deps, { ...member, organizationId }, input);
      return { phone_number };
    } catch (error) {
      if (error instanceof AppError) return { error: { code: error.code, message: error.message } };
      throw error;
    }
  },
  "payment-webhook": (deps, organizationId, { hook }) =>
    receivePaymentWebhook(deps, organizationId, hook),
  "flow-exchange": (deps, organizationId, { exchange }) =>
    exchangeInStore(deps, organizationId, exchange),
  "google-connect": (deps, organizationId, { member, stateId, code }) =>
    connectGoogle(deps, { ...member, organizationId }, { stateId, code }),
};

/** Runs a part with the store's `deps` (in the store, `runPart` of organization-hub.ts). */
export function runPart<K extends PartKind>(
  deps: StoreDeps,
  organizationId: string,
  part: PartOf<K>,
): Promise<PartResults[K]> {
  const run: Runners[K] = runners[part.kind];
  return run(deps, organizationId, part);
}

/**
 * Runs a part in the organization's store, from the Worker, through the store's `runPart`. Code
 * already in the store calls what the part runs itself.
 */
export async function inOrganizationData<K extends PartKind>(
  deps: Deps,
  organizationId: string,
  part: PartOf<K>,
): Promise<PartResults[K]> {
  const done = await (
    await organizationStore(deps.env, organizationId)
  ).runPart(organizationId, part);
  if (done === null) throw storeRefused(organizationId, "its part");
  return done as PartResults[K];
}

/** Records an entry in the organization's trail, in its store. */
export const auditIn = (
  deps: Deps,
  organizationId: string,
  entry: Omit<AuditEntry, "organizationId">,
) => inOrganizationData(deps, organizationId, { kind: "audit", entry });

/**
 * Records an entry about an account: its organization's data for a member, the global trail
 * for an account without one (decision 0053).
 */
export const auditAccount = (
  deps: Deps,
  organizationId: string | null,
  entry: Omit<AuditEntry, "organizationId">,
) =>
  organizationId === null
    ? recordAccountAudit(deps.db, entry)
    : auditIn(deps, organizationId, entry);
