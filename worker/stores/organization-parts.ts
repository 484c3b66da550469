/**
 * The edge's work on an organization's data outside a member's request (signing in, joining,
 * creating an organization, an account's export and deletion), run in its store (contract
 * section 15) through one RPC (`runPart`, durable-objects/parts.ts). A member's request needs
 * none of this: it is already served by the store (worker/stores/organization-data.ts).
 */
import { recordAccountAudit, type AuditEntry } from "../audit/trail";
import type { Deps } from "../http/deps";
import type { PartKind, PartOf, PartResults } from "./part-contract";
import { organizationStore, storeRefused } from "./registry";

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
