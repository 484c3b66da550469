/**
 * The Worker's work on an organization's data outside a member's request (signing in, joining,
 * creating an organization, an account's export and deletion), run in its store (contract
 * section 15) through one RPC (`runPart`) that runs the function with the store's `deps`. A
 * member's request needs none of this: it is already served by the store
 * (worker/stores/organization-data.ts).
 */
import { recordAccountAudit, recordAudit, type AuditEntry } from "../audit/service";
import { exportPage, forgetPersonIn, usualAddressesIn } from "../auth/account-in-organization";
import type { Deps, StoreDeps } from "../http/deps";
import { AppError } from "../http/errors";
import { exchangeInStore } from "../flows/screens";
import { connectWithCode } from "../whatsapp/oauth-service";
import { connectWithCode as connectGoogle } from "../integrations/google/service";
import { releaseOnLeaving } from "../team-inbox/assignment";
import { receivePaymentWebhook } from "../payments/webhooks";
import type { OrganizationPart, PartResults } from "./part-contract";
import { organizationStore, storeRefused } from "./registry";

type PartKind = OrganizationPart["kind"];
type PartOf<K extends PartKind> = Extract<OrganizationPart, { kind: K }>;

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
