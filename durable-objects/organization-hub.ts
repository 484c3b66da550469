import { DurableObject } from "cloudflare:workers";
import { replyAbandoned, replyToConversation } from "./agents/auto-reply";
import { buildStoreDeps, type StoreDeps } from "../worker/http/deps";
import { ModelError } from "./ai/client";
import { STUCK_TRANSCRIPT_MS, transcribeMessage } from "./ai/transcribe";
import type { Env } from "../worker/env";
import { migrateStore } from "./migrations/store-migrations";
import { FactsKeeper } from "./facts-keeper";
import { serveInStore } from "./store-api";
import type { OrganizationStoreCalls } from "../worker/stores/store-calls";
import { globalDb } from "../worker/db/client";
import { createStoreDb, type OrganizationDb } from "./db";
import { resetRoundTrips, roundTrips } from "../worker/bench/deployment";
import { knowledgePrompt } from "./knowledge/bench-prompt";
import { callerOrganization } from "../worker/stores/organization-data";
import type { StoreCaller, StoreRequest } from "../worker/stores/store-calls";
import type { StoreTable } from "../worker/stores/store-tables";
import { pageOf } from "./store-tables";
import { OrganizationGone, storeRefused, storeRoute } from "../worker/stores/registry";
import { STORE_FULL_BYTES } from "./store-room";
import { jobKey, type StoreJobName } from "../worker/stores/contract";
import { runJob, scheduleTheUnscheduled, type JobHost } from "./store-job-runner";
import {
  askFor,
  moveScheduleKeys,
  nextDue,
  replyKey,
  runDueWork,
  scheduledWork,
  subjectOf,
  transcriptKey,
  type RunOutcome,
  type ScheduledWork,
  type WorkRunner,
} from "./scheduler";
import { runPart } from "./parts";
import { indexSearchBacklog, searchIndexDue } from "./conversations/search";
import type { OrganizationPart } from "../worker/stores/part-contract";
import type { DeliveryPart } from "../worker/whatsapp/webhook-payloads";
import { deliverHere, type DeliveryStore, type HeldEvents } from "./whatsapp/store-delivery";
import {
  type RealtimeEvent,
  type SocketOwners,
  SESSION_EXPIRED_REASON,
  SESSION_REVOKED_CLOSE_CODE,
  SESSION_REVOKED_REASON,
} from "../contracts/realtime";

const sessionTag = (sessionId: string) => `session:${sessionId}`;
const userTag = (userId: string) => `user:${userId}`;

/** A burst of customer messages within this time gets one answer. */
const COALESCE_MS = 2_500;
/** However long a burst lasts, the customer is answered within this time of its first message. */
const MAX_WAIT_MS = 10_000;
/** Backoff between attempts after the model failed; then the error stays on the conversation. */
const RETRY_DELAYS_MS = [5_000, 30_000, 120_000];
/** When a reply asks again for a voice note another path is transcribing. */
const HELD_NOTE_RETRY_MS = 5_000;
/** How soon an alarm that could not read the registry looks again. */
const REGISTRY_RECHECK_MS = 5_000;
/** The tombstone `erase` leaves: the only key of a deleted organization's store. */
const ERASED = "erased";

/** What a socket carries through hibernation: when its session ends (ms since the epoch). */
interface SocketAttachment {
  expiresAt: number;
}

const expiryOf = (socket: WebSocket) =>
  (socket.deserializeAttachment() as SocketAttachment | null)?.expiresAt;

/**
 * Ends a socket whose session is over: a `session_ended` event, then the 4001 close (the
 * console signs out on either; the dev server's proxy passes messages but not the close).
 */
function endSession(socket: WebSocket, reason: string) {
  try {
    socket.send(JSON.stringify({ type: "session_ended", data: { reason } }));
    socket.close(SESSION_REVOKED_CLOSE_CODE, reason);
  } catch {
    // Already closing.
  }
}

/**
 * One instance per organization: its store (contract section 15, docs/decisions/0052), reached
 * by the registry's `store_id` (worker/stores/registry.ts). It holds that organization's
 * console sockets with the hibernation API, fans out events, and runs its scheduled work (AI
 * replies, voice notes, jobs) from its one alarm (durable-objects/scheduler.ts), so that work
 * survives restarts and is retried. Its
 * SQLite schema migrates itself when it wakes, and it serves one organization only.
 */
export class OrganizationHub extends DurableObject<Env> implements OrganizationStoreCalls {
  /** The schema version this wake migrated the store to, until the registry is told. */
  private unreportedVersion: number | null = null;
  /** The schema version this store is at, once migrated on wake. */
  private schemaVersion = 0;
  /** The organization this store belongs to, once read or recorded. */
  private owner: string | null = null;
  /** The organization's data in the store's SQLite, through the schema the services know. */
  private readonly data: OrganizationDb;
  /** Its organization was deleted and its storage erased (`ERASED`): it serves nothing again. */
  private erased = false;
  /** Its organization's global facts, kept (decision 0136). */
  private readonly keeper: FactsKeeper;

  constructor(ctx: DurableObjectState, env: Env) {
    super(ctx, env);
    this.data = createStoreDb(ctx.storage);
    this.keeper = new FactsKeeper(ctx.storage);
    void ctx.blockConcurrencyWhile(async () => {
      this.erased = (await ctx.storage.get(ERASED)) !== undefined;
      if (this.erased) return;
      const { from, to } = migrateStore(ctx.storage);
      // The schedule the storage's keys held before migration 15 (decision 0099).
      await moveScheduleKeys(ctx.storage);
      this.schemaVersion = to;
      if (to !== from) this.unreportedVersion = to;
    });
  }

  /**
   * Every call names the organization it is for: the first records it, and a call for
   * another organization is refused, logged and does nothing (a registry pointing at the wrong
   * object must not mix two organizations). The first call after this wake's migrations
   * reports the new schema version and size to the registry.
   */
  private serves(organizationId: string): boolean {
    if (this.erased) {
      console.error("store call refused: its organization was deleted", organizationId);
      return false;
    }
    if (this.claimedOwner() === null) {
      this.ctx.storage.sql.exec(
        "INSERT INTO store_owner (id, organization_id, claimed_at) VALUES (1, ?, ?)",
        organizationId,
        new Date().toISOString(),
      );
      this.owner = organizationId;
    }
    if (this.owner !== organizationId) {
      console.error("store call refused", { store: this.owner, called: organizationId });
      return false;
    }
    if (this.unreportedVersion !== null) {
      this.ctx.waitUntil(this.reportSchema(organizationId, this.unreportedVersion));
      this.unreportedVersion = null;
    }
    return true;
  }

  /** The organization this store's first call claimed it for (kept once read), or null. */
  private claimedOwner() {
    this.owner ??=
      this.ctx.storage.sql
        .exec<{ organization_id: string }>("SELECT organization_id FROM store_owner")
        .toArray()[0]?.organization_id ?? null;
    return this.owner;
  }

  /**
   * The one check of the helpers that take an organization id inside the store (its data for a
   * job or a reply, what it queues, what it reports): only the store's own is served. Work held
   * under another id (a key a restore brought back, a bug) throws rather than run elsewhere.
   */
  private own(organizationId: string) {
    if (!this.serves(organizationId)) throw storeRefused(organizationId, "work for another");
  }

  /**
   * Tells the registry the store's schema version, size and messages (what `stores list` shows
   * and flags past 60 % of 10 GB): after a migration on wake, and with `dailyRunAt` when the store
   * has run its day (its retention), which the daily cron reads to leave it alone.
   */
  private async reportSchema(organizationId: string, version: number, dailyRunAt?: Date) {
    try {
      const { messages } = this.ctx.storage.sql
        .exec<{ messages: number }>("SELECT count(*) AS messages FROM messages")
        .one();
      await this.env.DB.prepare(
        `UPDATE organization_stores SET schema_version = ?, bytes = ?, messages = ?,
           daily_run_at = coalesce(?, daily_run_at), updated_at = ?
         WHERE organization_id = ?`,
      )
        .bind(
          version,
          this.ctx.storage.sql.databaseSize,
          messages,
          dailyRunAt?.toISOString() ?? null,
          new Date().toISOString(),
          organizationId,
        )
        .run();
    } catch (error) {
      // The registry learns it at the next wake that migrates, or from the operator's list.
      console.error("store schema report failed", organizationId, error);
    }
  }

  /**
   * Accepts an already-authenticated upgrade (the Worker checked the token). The socket is
   * tagged with its session and user so that a revocation can find and close it, and carries
   * its session's expiry so that it is closed when the session ends (the alarm, or its next
   * message, whichever comes first).
   */
  override async fetch(request: Request): Promise<Response> {
    if (request.headers.get("Upgrade")?.toLowerCase() !== "websocket") {
      return new Response("Expected a WebSocket upgrade", { status: 426 });
    }
    const organizationId = request.headers.get("X-Organization-Id");
    const userId = request.headers.get("X-User-Id");
    const sessionId = request.headers.get("X-Session-Id");
    const expiresAt = Date.parse(request.headers.get("X-Session-Expires-At") ?? "");
    if (!organizationId || !userId || !sessionId || !Number.isFinite(expiresAt)) {
      return new Response("Unknown caller", { status: 400 });
    }
    if (!this.serves(organizationId)) return new Response("Another organization", { status: 403 });
    const pair = new WebSocketPair();
    const [client, server] = [pair[0], pair[1]];
    this.ctx.acceptWebSocket(server, [sessionTag(sessionId), userTag(userId)]);
    server.serializeAttachment({ expiresAt } satisfies SocketAttachment);
    await this.armAlarm(expiresAt);
    return new Response(null, { status: 101, webSocket: client });
  }

  /** Closes a socket whose session has ended (code 4001, like a revocation); true if it did. */
  private closeIfExpired(socket: WebSocket, now = Date.now()) {
    const expiresAt = expiryOf(socket);
    if (expiresAt === undefined || expiresAt > now) return false;
    endSession(socket, SESSION_EXPIRED_REASON);
    return true;
  }

  /**
   * Closes the sockets of these sessions and of this user (code 4001: the console then
   * stops reconnecting with that token); returns how many it closed.
   */
  async closeSockets(organizationId: string, owners: SocketOwners): Promise<number> {
    if (!this.serves(organizationId)) return 0;
    const tags = (owners.sessionIds ?? []).map(sessionTag);
    if (owners.userId) tags.push(userTag(owners.userId));
    const sockets = new Set(tags.flatMap((tag) => this.ctx.getWebSockets(tag)));
    for (const socket of sockets) endSession(socket, SESSION_REVOKED_REASON);
    return sockets.size;
  }

  /**
   * A request for data the store serves, from a member or a page with the organization's
   * tracking key, authenticated by the Worker (worker/stores/organization-data.ts).
   */
  async serve(
    request: StoreRequest,
    caller: StoreCaller,
    factsVersion?: number,
  ): Promise<Response> {
    const organizationId = callerOrganization(caller);
    if (!this.serves(organizationId)) {
      return Response.json({ error: "not_found", message: "No encontrado." }, { status: 404 });
    }
    const response = await serveInStore(
      request,
      caller,
      this.depsFor(organizationId, { factsVersion }),
    );
    if (request.method !== "GET") await this.askForSearchIndex(organizationId);
    return response;
  }

  /**
   * One page of a table's rows, in key order after `after` (an owner's export); null when this
   * is not the organization's store (never an empty page: the export would miss its rows).
   */
  async page(organizationId: string, table: StoreTable, after: string, limit: number) {
    if (!this.serves(organizationId)) return null;
    return pageOf(this.data, organizationId, table, after, limit);
  }

  /**
   * The Worker's work on the organization's data outside a member's request (signing in, an
   * account's export or deletion: worker/stores/organization-parts.ts), run here on its data.
   */
  async runPart(organizationId: string, part: OrganizationPart) {
    if (!this.serves(organizationId)) return null;
    return runPart(this.depsFor(organizationId), organizationId, part);
  }

  /**
   * The operator's restore (worker/stores/restore.ts): the store's storage as it was at a moment
   * (`at`, ms) or a bookmark (an earlier restore's undo), from Cloudflare's point-in-time
   * recovery (the last 30 days), applied when it next starts. Answers the bookmark restored and
   * the one that undoes it; null when this is not the organization's store. A storage without
   * that recovery (workerd, locally) throws.
   */
  async restoreTo(organizationId: string, to: { at: number } | { bookmark: string }) {
    if (!this.serves(organizationId)) return null;
    const bookmark =
      "bookmark" in to ? to.bookmark : await this.ctx.storage.getBookmarkForTime(to.at);
    const undo = await this.ctx.storage.onNextSessionRestoreBookmark(bookmark);
    return { bookmark, undo };
  }

  /** Starts the store again, so that a restore asked for is applied now (its sockets close). */
  async restart(organizationId: string) {
    if (!this.serves(organizationId)) return;
    this.ctx.abort("restoring to an earlier moment");
  }

  /**
   * The organization is gone (its last owner deleted their account): every socket is closed
   * like a revocation and everything the store holds, jobs and alarm included, is deleted.
   */
  async erase(organizationId: string) {
    if (this.erased || !this.serves(organizationId)) return;
    await this.eraseAll();
  }

  /**
   * Deletes everything and leaves only the tombstone, so that no late call (a delivery, a
   * job, a reply already under way) claims the store again and writes the organization back.
   * Run again by the alarm for whatever such work wrote after the erase.
   */
  private async eraseAll() {
    this.erased = true;
    this.owner = null;
    for (const socket of this.ctx.getWebSockets()) endSession(socket, SESSION_REVOKED_REASON);
    await this.ctx.storage.deleteAll();
    await this.ctx.storage.deleteAlarm();
    await this.ctx.storage.put(ERASED, new Date().toISOString());
  }

  /**
   * Sends the events, in order, to every socket of this organization, or only to one
   * member's (`userId`); returns how many sockets.
   */
  async publish(organizationId: string, events: RealtimeEvent[], userId?: string): Promise<number> {
    if (events.length === 0 || !this.serves(organizationId)) return 0;
    const payloads = events.map((event) => JSON.stringify(event));
    let delivered = 0;
    for (const socket of this.ctx.getWebSockets(userId && userTag(userId))) {
      if (this.closeIfExpired(socket)) continue;
      try {
        for (const payload of payloads) socket.send(payload);
        delivered++;
      } catch {
        // A socket closing at this very moment: its close handler cleans it up.
      }
    }
    return delivered;
  }

  /** Schedules (or postpones, within MAX_WAIT_MS) the agent's answer to a conversation. */
  async scheduleReply(organizationId: string, conversationId: string) {
    if (!this.serves(organizationId)) return;
    await this.queueReply(organizationId, conversationId);
  }

  /** Queues voice notes for transcription in this alarm, before any reply that reads them. */
  async scheduleTranscripts(organizationId: string, messageIds: string[]) {
    if (!this.serves(organizationId)) return;
    await this.queueTranscripts(organizationId, messageIds);
  }

  /**
   * One organization's part of a WhatsApp delivery, applied in one transaction, its replies
   * queued and its events sent (durable-objects/whatsapp/store-delivery.ts).
   */
  async deliver(organizationId: string, part: DeliveryPart) {
    if (!this.serves(organizationId)) return null;
    const delivered = await deliverHere(
      this.deliveryStore(part.number?.connection.factsVersion),
      organizationId,
      part,
    );
    if (delivered.stored > 0) await this.askForSearchIndex(organizationId);
    return delivered;
  }

  /**
   * What a delivery, a console write or an alarm's run stored goes to the search indexes' next
   * batch (decision 0149): their job is asked for when rows wait and it is not due by then.
   */
  private async askForSearchIndex(organizationId: string) {
    const dueAt = searchIndexDue(this.data);
    if (dueAt !== null) await this.queueJob(organizationId, "search", dueAt);
  }

  /** Puts the agent's answer off to a burst's end, within MAX_WAIT_MS of its first message. */
  private async queueReply(organizationId: string, conversationId: string) {
    this.own(organizationId);
    const key = replyKey(conversationId);
    const now = Date.now();
    const firstAt = scheduledWork(this.ctx.storage.sql, key)?.payload.firstAt;
    const burstAt = typeof firstAt === "number" ? firstAt : now;
    const dueAt = Math.min(now + COALESCE_MS, burstAt + MAX_WAIT_MS);
    askFor(
      this.ctx.storage.sql,
      { key, kind: "reply", dueAt, payload: { firstAt: burstAt } },
      "latest",
    );
    await this.armAlarm(dueAt);
  }

  /** Voice notes to transcribe: due at once, tried once (the model client retries itself). */
  private async queueTranscripts(organizationId: string, messageIds: string[]) {
    this.own(organizationId);
    const dueAt = Date.now();
    for (const id of messageIds) {
      askFor(
        this.ctx.storage.sql,
        { key: transcriptKey(id), kind: "transcript", dueAt },
        "earliest",
      );
    }
    await this.armAlarm(dueAt);
  }

  /** What a delivery works with here: storage, data, its own jobs and sockets, no RPC to itself. */
  private deliveryStore(factsVersion: number | undefined): DeliveryStore {
    return {
      storage: this.ctx.storage,
      depsFor: (organizationId, held) => this.depsFor(organizationId, { held, factsVersion }),
      queueReply: (organizationId, id) => this.queueReply(organizationId, id),
      queueTranscripts: (organizationId, ids) => this.queueTranscripts(organizationId, ids),
      queueJob: (organizationId, name, dueAt) => this.queueJob(organizationId, name, dueAt),
      publish: (organizationId, events, userId) => this.publish(organizationId, events, userId),
    };
  }

  /**
   * Past this size the store refuses what grows it by a lot (durable-objects/store-room.ts). A
   * field, not the constant, so that a test can make a store full without writing 9 GB.
   */
  fullAtBytes = STORE_FULL_BYTES;

  private readonly isFull = () => this.ctx.storage.sql.databaseSize > this.fullAtBytes;

  /**
   * Runs a job at `dueAt`, or sooner if it is already due sooner (worker/stores/store-jobs.ts).
   */
  async scheduleJob(organizationId: string, name: StoreJobName, dueAt: number) {
    if (!this.serves(organizationId)) return;
    await this.queueJob(organizationId, name, dueAt);
  }

  private async queueJob(organizationId: string, name: StoreJobName, dueAt: number) {
    this.own(organizationId);
    askFor(this.ctx.storage.sql, { key: jobKey(name), kind: "job", dueAt }, "earliest");
    await this.armAlarm(dueAt);
  }

  /**
   * The daily cron's call for a store whose day has not run: runs the jobs it missed, at the
   * cron's time `at` (its retention reports the day to the registry).
   */
  async wake(organizationId: string, at: Date) {
    if (!this.serves(organizationId)) return;
    // Every job without a schedule is due now; another wake the same day finds the retention
    // not due.
    scheduleTheUnscheduled(this.jobHost(), at);
    await runDueWork(this.workRunner(), at);
    await this.armAlarm();
  }

  /**
   * Closes the sockets whose session has ended, then runs the due scheduled work
   * (durable-objects/scheduler.ts): the voice notes, the replies, the jobs. Nothing here waits
   * on another path's voice note: a reply that must read one goes back for later and the others
   * run.
   */
  override async alarm() {
    if (this.erased) return this.eraseAll();
    const closedAt = Date.now();
    for (const socket of this.ctx.getWebSockets()) this.closeIfExpired(socket, closedAt);
    try {
      if (!(await this.registryNamesItsOrganization())) {
        await this.ctx.storage.setAlarm(Date.now() + REGISTRY_RECHECK_MS);
        return;
      }
      await runDueWork(this.workRunner(), new Date());
    } catch (error) {
      if (!(error instanceof OrganizationGone)) throw error;
      // Its organization was deleted and its erase did not happen (it failed, or was never
      // reached): the store erases itself, as the deletion promised.
      console.error("store of a deleted organization erased by its alarm", error.message);
      return this.eraseAll();
    }
    // Erased while it ran: what the run wrote since goes too.
    if (this.erased) return this.eraseAll();
    // What the run stored (a history's pages, a broadcast's sends, replies).
    const owner = this.claimedOwner();
    if (owner !== null) await this.askForSearchIndex(owner);
    await this.armAlarm();
  }

  /**
   * Whether the registry (as this isolate last read it, within its 30 s) still names the
   * store's organization, before the alarm's work: a deleted organization's throws
   * `OrganizationGone` (the store erases itself); a registry without its row and without that
   * evidence (a table rebuilt, a restore), or unreadable, puts the work off, never drops it.
   */
  private async registryNamesItsOrganization() {
    const owner = this.claimedOwner();
    // A store no call has claimed yet holds nothing to run.
    if (owner === null) return true;
    try {
      await storeRoute(this.env, owner);
      return true;
    } catch (error) {
      if (error instanceof OrganizationGone) throw error;
      console.error("registry unreadable: the store's work put off", owner, error);
      return false;
    }
  }

  /** How the scheduler runs this store's due work (durable-objects/scheduler.ts). */
  private workRunner(): WorkRunner {
    return {
      storage: this.ctx.storage,
      stopped: () => this.erased,
      run: (work, at) => this.runWork(work, at),
    };
  }

  /** One row of the store's scheduled work, for the store's own organization. */
  private async runWork(work: ScheduledWork, at: Date): Promise<RunOutcome> {
    const organizationId = this.claimedOwner();
    // A store no call has claimed holds no work of anyone's.
    if (organizationId === null) return { next: null, attempts: 0 };
    const subject = subjectOf(work);
    switch (work.kind) {
      case "transcript":
        await this.transcribe(organizationId, subject);
        return { next: null, attempts: 0 };
      case "reply":
        return this.answer(organizationId, subject, work.attempts);
      case "job":
        return { next: await runJob(this.jobHost(), subject, at, organizationId), attempts: 0 };
    }
  }

  /** A voice note, transcribed once. */
  private async transcribe(organizationId: string, messageId: string) {
    try {
      // A note another path holds is that path's to finish: waiting here would hold every
      // reply of the organization (an abandoned claim is swept back after its lease).
      await transcribeMessage(this.depsFor(organizationId), organizationId, messageId, {
        waitForOtherPath: false,
      });
    } catch (error) {
      // Left "pending": the next reply to that conversation transcribes it first, and the
      // sweep takes it again once it is stuck (this store's job).
      console.error("transcription abandoned", messageId, error);
      await this.queueJob(organizationId, "transcripts", Date.now() + STUCK_TRANSCRIPT_MS);
    }
  }

  /**
   * The agent's answer to a conversation. One waiting for another path's voice note goes back
   * for later. Any failure is tried again, a passing one of D1 or of this store as much as the
   * model's (a reply already sent is never sent again: the customer no longer spoke last); the
   * last one is shown on the conversation: the customer waits for a person.
   */
  private async answer(
    organizationId: string,
    conversationId: string,
    attempts: number,
  ): Promise<RunOutcome> {
    try {
      const deps = this.depsFor(organizationId);
      const outcome = await replyToConversation(deps, organizationId, conversationId);
      if (outcome === "later") return { next: Date.now() + HELD_NOTE_RETRY_MS, attempts };
      return { next: null, attempts: 0 };
    } catch (error) {
      const delay = RETRY_DELAYS_MS[attempts];
      if (delay !== undefined) return { next: Date.now() + delay, attempts: attempts + 1 };
      console.error("AI reply abandoned", conversationId, error);
      if (!(error instanceof ModelError)) {
        await Promise.resolve()
          .then(() => replyAbandoned(this.depsFor(organizationId), organizationId, conversationId))
          .catch((failed: unknown) => console.error("AI reply failure not shown", failed));
      }
      return { next: null, attempts: 0 };
    }
  }

  /** What the store's jobs work with (durable-objects/store-job-runner.ts). */
  private jobHost(): JobHost {
    return {
      storage: this.ctx.storage,
      depsFor: (organizationId) => this.depsFor(organizationId),
      reportDay: async (organizationId, at) => {
        this.own(organizationId);
        await this.reportSchema(organizationId, this.schemaVersion, at);
      },
    };
  }

  /**
   * What a request, a job, a reply or a delivery works with: the organization's data in this
   * store, and its sockets and jobs, in place. With `held`, what is published waits there for
   * the transaction under way to commit (a delivery's); with `factsVersion`, the version of its
   * organization's facts the edge read for this request.
   */
  private depsFor(
    organizationId: string,
    { held, factsVersion }: { held?: HeldEvents[]; factsVersion?: number } = {},
  ): StoreDeps {
    this.own(organizationId);
    if (factsVersion !== undefined) this.keeper.handed(factsVersion);
    const waitUntil = (work: Promise<unknown>) => this.ctx.waitUntil(work);
    const send = async (events: RealtimeEvent[], userId?: string) => {
      if (held) held.push({ events, ...(userId && { userId }) });
      else await this.publish(organizationId, events, userId);
    };
    const deps = buildStoreDeps(this.env, waitUntil, {
      orgDb: this.data,
      storeFull: this.isFull,
      calls: {
        publish: (...events) => send(events),
        publishTo: (userId, ...events) => send(events, userId),
        schedule: (job, dueAt) => this.queueJob(organizationId, job, dueAt),
        scheduleTranscripts: (messageIds) => this.queueTranscripts(organizationId, messageIds),
        facts: () => this.keeper.facts(deps.db, organizationId, factsVersion),
        factsChanged: () => this.keeper.forget(),
      },
    });
    return deps;
  }

  /**
   * Points the alarm at the earliest due row of the scheduled work or socket expiry; after a
   * schedule, only when it is sooner.
   */
  private async armAlarm(dueAt?: number) {
    if (dueAt !== undefined) {
      // Scheduling is on the webhook's path: no reading of the schedule here.
      const current = await this.ctx.storage.getAlarm();
      if (current === null || dueAt < current) await this.ctx.storage.setAlarm(dueAt);
      return;
    }
    // Only sessions still to end: a socket closed for its expiry may still be listed.
    const now = Date.now();
    const expiries = this.ctx
      .getWebSockets()
      .flatMap((socket) => expiryOf(socket) ?? [])
      .filter((expiresAt) => expiresAt > now);
    const next = Math.min(nextDue(this.ctx.storage.sql) ?? Infinity, ...expiries);
    if (Number.isFinite(next)) await this.ctx.storage.setAlarm(next);
    else await this.ctx.storage.deleteAlarm();
  }

  override async webSocketMessage(socket: WebSocket, message: string | ArrayBuffer) {
    if (this.closeIfExpired(socket)) return;
    // The console only listens; a ping keeps proxies from closing an idle socket.
    if (message === "ping") socket.send(JSON.stringify({ type: "pong" }));
  }

  override async webSocketClose(socket: WebSocket, code: number) {
    try {
      socket.close(code === 1005 ? 1000 : code, "closing");
    } catch {
      // Already closed.
    }
  }

  /**
   * Bench only (scripts/bench, `BENCH_ROUTES=1`, worker/bench/routes.ts's `/__bench/store-sql`): runs
   * the statements in one transaction on the store's SQLite, its triggers and all (how the bench
   * seeds an organization). Each statement answers its rows and the rows it wrote; null when
   * refused.
   */
  async benchSql(organizationId: string, statements: { sql: string; params: unknown[] }[]) {
    if (this.env.BENCH_ROUTES !== "1" || !this.serves(organizationId)) return null;
    const { sql } = this.ctx.storage;
    return this.ctx.storage.transactionSync(() =>
      statements.map((statement) => {
        const cursor = sql.exec(statement.sql, ...statement.params);
        return { rows: cursor.toArray(), rowsWritten: cursor.rowsWritten };
      }),
    );
  }

  /**
   * Bench only (`/__bench/search-index`): the `search` job's runs, one after another until no
   * row waits, as the store's alarm would make them after a seed. Answers the runs made.
   */
  async benchIndexSearch(organizationId: string) {
    if (this.env.BENCH_ROUTES !== "1" || !this.serves(organizationId)) return null;
    let runs = 1;
    while (indexSearchBacklog(this.data)) runs += 1;
    return runs;
  }

  /** Bench only (`/__bench/durable-floor`): the least a store's write costs, one row committed. */
  async benchFloor(organizationId: string) {
    if (this.env.BENCH_ROUTES !== "1" || !this.serves(organizationId)) return false;
    await this.ctx.storage.put("bench-floor", Date.now());
    return true;
  }

  /** Rows the store's SQLite had changed when the bench last reset its count. */
  private benchChangesAt = 0;

  /**
   * Bench only (`/__bench/round-trips`): the D1 and store trips this isolate counted and the rows
   * the store's SQLite changed (SQLite's `total_changes()`, triggers included) since the reset.
   */
  async benchRoundTrips(organizationId: string, reset: boolean) {
    if (this.env.BENCH_ROUTES !== "1" || !this.serves(organizationId)) return null;
    const changes = () =>
      this.ctx.storage.sql.exec<{ n: number }>("SELECT total_changes() AS n").one().n;
    if (reset) {
      resetRoundTrips();
      this.benchChangesAt = changes();
    }
    return { ...roundTrips(), rowsChanged: changes() - this.benchChangesAt };
  }

  /** Bench only (`/__bench/knowledge-prompt`): an answer's knowledge and prompt, in the store. */
  async benchKnowledgePrompt(organizationId: string, agentId: string, question: string) {
    if (this.env.BENCH_ROUTES !== "1" || !this.serves(organizationId)) return null;
    return knowledgePrompt(this.data, globalDb(this.env), organizationId, agentId, question);
  }
}
