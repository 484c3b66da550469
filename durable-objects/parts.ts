/**
 * What the edge asks of an organization's data outside a member's request (signing in, joining,
 * creating an organization, an account's export and deletion, the redirects and webhooks that
 * come back without a member), run here with the store's deps: the store's side of `runPart`
 * (worker/stores/organization-parts.ts is the edge's).
 */
import { recordAudit } from "./audit/service";
import { exportPage, forgetPersonIn, usualAddressesIn } from "./auth/account-data";
import type { StoreDeps } from "../worker/http/deps";
import { AppError } from "../worker/http/errors";
import { exchangeInStore } from "./flows/screens";
import { connectWithCode } from "./whatsapp/oauth-service";
import { connectWithCode as connectGoogle } from "./integrations/google/service";
import { releaseOnLeaving } from "./team-inbox/assignment";
import { receivePaymentWebhook } from "./payments/webhooks";
import type { PartKind, PartOf, PartResults } from "../worker/stores/part-contract";

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

/** Runs a part with the store's `deps` (`runPart` of organization-hub.ts). */
export function runPart<K extends PartKind>(
  deps: StoreDeps,
  organizationId: string,
  part: PartOf<K>,
): Promise<PartResults[K]> {
  const run: Runners[K] = runners[part.kind];
  return run(deps, organizationId, part);
}
