/**
 * Each organization's data in its own store (contract section 15, docs/decisions/0052): what
 * the registry says of a store, and what the operator's `npm run stores` reads.
 */

/**
 * Where an organization's data is, as the registry says: `store` for every organization this
 * release serves; the others are the upgrade stop's (before decision 0075), never served.
 */
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
  /** Whether this release serves it: only from its store (else `store_required`). */
  served: boolean;
  schema_version: number;
  bytes: number;
  messages: number;
}

/**
 * The jobs an organization's store runs from its alarm (worker/stores/store-jobs.ts says what
 * each is). Here, apart from the jobs' code, so that what only names a job (`StoreDeps`, the
 * store's calls) does not depend on it.
 */
export const STORE_JOBS = [
  "capi",
  "retention",
  "transcripts",
  "history",
  "broadcasts",
  "follow_ups",
  "held_statuses",
  "booking_holds",
  "away_messages",
  "payment_links",
  "google_events",
  "booking_reminders",
  "search",
] as const;
export type StoreJobName = (typeof STORE_JOBS)[number];

/** A job's row in the store's scheduled work (durable-objects/scheduler.ts). */
export const jobKey = (name: StoreJobName) => `job:${name}`;

export const isStoreJob = (name: string): name is StoreJobName =>
  (STORE_JOBS as readonly string[]).includes(name);
