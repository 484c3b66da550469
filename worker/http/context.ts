import type { Context } from "hono";
import type { Db } from "../db/client";
import type { Role } from "../db/global-schema";
import type { Env } from "../env";
import type { Deps, StoreDeps } from "./deps";

/** Who is calling, once their token has been checked against the server-side session. */
export interface Caller {
  userId: string;
  sessionId: string;
  /** The request's client address (`CF-Connecting-IP`), for the audit trail (decision 0034). */
  ip: string | null;
}

/** Which organization a person belongs to, and as what. */
export interface Membership {
  organizationId: string;
  role: Role;
}

/** The caller as a member of their organization: every tenant-owned query is scoped by it. */
export interface Member extends Caller, Membership {}

/** The organization of a tracking call, and whether only its public key vouches for the caller. */
export interface TrackingCaller {
  organizationId: string;
  publicKey: boolean;
}

/** The names of the marks on an organization route's handlers (worker/http/route-marks.ts). */
export type OrganizationRouteMarks = ReadonlySet<string>;

export interface AppContext {
  Bindings: Env;
  Variables: {
    db: Db;
    deps: Deps;
    caller: Caller;
    /** The caller's membership, read with their session (`withCaller`); null: none yet. */
    membership: Membership | null;
    /**
     * The version of the organization's global facts, read with the session or the tracking
     * key and handed to its store (decision 0136).
     */
    factsVersion?: number;
    member: Member;
    /** Who a tracking call is from: a member, or a page holding the organization's public key. */
    tracking: TrackingCaller;
    /**
     * Set by the store's own app (durable-objects/store-api.ts), which serves a request the
     * Worker already authenticated and counted: the member comes with the call. Read with
     * `storeDeps(c)`.
     */
    storeDeps?: StoreDeps;
    /**
     * The marks of the organization route the request names (null: none), once the edge has
     * matched it (`organizationRouteMarks`).
     */
    organizationRoute?: OrganizationRouteMarks | null;
  };
}

/**
 * The deps of a request an organization's store serves (durable-objects/store-api.ts). Its
 * routes run only there: the Worker hands them to the store before they run
 * (worker/http/auth.ts), so reaching one outside is a bug, not a client's error.
 */
export function storeDeps(c: Context<AppContext>): StoreDeps {
  const deps = c.var.storeDeps;
  if (!deps) throw new Error(`${c.req.method} ${c.req.path} ran outside its organization's store`);
  return deps;
}
