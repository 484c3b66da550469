/**
 * What the Worker may ask of an organization's store: the calls of its Durable Object
 * (durable-objects/organization-hub.ts, which implements this), as code outside it sees them.
 * The Worker reaches the store through this interface, never through its class, so the edge
 * does not depend on the store's code (decision 0086). Each call names the organization, and a
 * store refuses any other than its own: null, or nothing done.
 */
import type { RealtimeEvent, SocketOwners } from "../../contracts/realtime";
import type { DeliveryPart } from "../whatsapp/webhook-payloads";
import type { StoreDelivery } from "../../durable-objects/whatsapp/store-delivery";
import type { Member, TrackingCaller } from "../http/context";
import type { OrganizationPart, PartResults } from "./part-contract";
import type { StoreJobName } from "./contract";
import type { StoreRow, StoreTable } from "./store-tables";

/** Who a request the store serves comes from: a member, or a page with the tracking key. */
export type StoreCaller = { member: Member } | { tracking: TrackingCaller };

/**
 * A request as the store receives it: plain data, its body read whole by the Worker (the edge's
 * body limits bound it). A body streamed over RPC that the store never reads (a 404, a refused
 * role) disconnects when the Worker's request ends; workerd reports that as an uncaught error
 * and fails the request in flight beside it.
 */
export interface StoreRequest {
  method: string;
  url: string;
  headers: [string, string][];
  body: ArrayBuffer | null;
}

export interface OrganizationStoreCalls extends Rpc.DurableObjectBranded {
  /** The organization's sockets (`/ws`, upgraded by the Worker). */
  fetch(request: Request): Promise<Response>;
  /**
   * A member's (or a tracking page's) request, authenticated by the Worker, with the version of
   * the organization's global facts it read in that trip (decision 0136).
   */
  serve(request: StoreRequest, caller: StoreCaller, factsVersion?: number): Promise<Response>;
  /** The Worker's work in the organization's data outside a member's request. */
  runPart(
    organizationId: string,
    part: OrganizationPart,
  ): Promise<PartResults[OrganizationPart["kind"]] | null>;
  /** One organization's part of a WhatsApp delivery, applied in one transaction. */
  deliver(organizationId: string, part: DeliveryPart): Promise<StoreDelivery | null>;
  /** One page of a table's rows in key order (an owner's export). */
  page(
    organizationId: string,
    table: StoreTable,
    after: string,
    limit: number,
  ): Promise<StoreRow[] | null>;
  /** Sends events to the organization's sockets (or one member's); how many sockets. */
  publish(organizationId: string, events: RealtimeEvent[], userId?: string): Promise<number>;
  /** Closes these sessions' and this user's sockets; how many. */
  closeSockets(organizationId: string, owners: SocketOwners): Promise<number>;
  scheduleReply(organizationId: string, conversationId: string): Promise<void>;
  scheduleTranscripts(organizationId: string, messageIds: string[]): Promise<void>;
  scheduleJob(organizationId: string, name: StoreJobName, dueAt: number): Promise<void>;
  /** The daily cron's call for a store whose day has not run. */
  wake(organizationId: string, at: Date): Promise<void>;
  /** The organization is gone: everything the store holds is deleted. */
  erase(organizationId: string): Promise<void>;
  /** The operator's restore to a moment or a bookmark of the last 30 days. */
  restoreTo(
    organizationId: string,
    to: { at: number } | { bookmark: string },
  ): Promise<{ bookmark: string; undo: string } | null>;
  restart(organizationId: string): Promise<void>;
  /** Bench only (`BENCH_ROUTES=1`): statements run in one transaction, to seed a store. */
  benchSql(
    organizationId: string,
    statements: { sql: string; params: unknown[] }[],
  ): Promise<{ rows: Record<string, SqlStorageValue>[]; rowsWritten: number }[] | null>;
  /** Bench only: the `search` job run until no row waits; answers its runs. */
  benchIndexSearch(organizationId: string): Promise<number | null>;
  /** Bench only: the durable floor, one row committed in the store. */
  benchFloor(organizationId: string): Promise<boolean>;
  /** Bench only: the trips counted in the store's isolate (reset when asked), rows changed. */
  benchRoundTrips(
    organizationId: string,
    reset: boolean,
  ): Promise<{ isolate: string; d1: number; store: number; rowsChanged: number } | null>;
  /** Bench only: an answer's knowledge and prompt, computed in the store. */
  benchKnowledgePrompt(
    organizationId: string,
    agentId: string,
    question: string,
  ): Promise<{ entries: number; chars: number } | null>;
}
