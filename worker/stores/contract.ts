/**
 * Each organization's data in its own store (contract section 15, docs/decisions/0052): what
 * the registry says of a store, and what the operator's `npm run stores` reads.
 */

/** Where an organization's data is: still in D1, being copied, being switched, in its store. */
export const STORE_STATES = ["d1", "copying", "switching", "store"] as const;
export type StoreState = (typeof STORE_STATES)[number];

/** Cloudflare's jurisdictions a store may be created in (the EEA's organizations: `eu`). */
export const STORE_JURISDICTIONS = ["eu"] as const;
export type StoreJurisdiction = (typeof STORE_JURISDICTIONS)[number];

/** A row of `npm run stores -- list --json`. */
export interface StoreListing {
  organization_id: string;
  name: string;
  state: StoreState;
  schema_version: number;
  bytes: number;
  messages: number;
  /** Webhook parts set aside after failing for an hour, tried hourly (an operator's alert). */
  stuck_parts: number;
}
