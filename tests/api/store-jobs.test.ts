// Jobs live with the data (contract section 15): an organization's Conversions API retries are
// run by its store's alarm and its retention by the store, woken by the daily cron once a day
// when its alarm missed it.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { conversions } from "../../worker/db/store-schema";
import { retentionCutoff, type RetentionReport } from "../../worker/retention/service";
import { RETENTION_CRON } from "../../worker/scheduled";
import { organizationStore } from "../../worker/stores/registry";
import type { StoreJob } from "../../worker/stores/store-jobs";
import {
  JOB_RUNS,
  keepEarliest,
  runDueJobs,
  type JobRuns,
  type JobStore,
} from "../../durable-objects/store-job-runner";
import type { OrganizationHub } from "../../durable-objects/organization-hub";
import type { StoreDeps } from "../../worker/http/deps";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { runCron } from "../support/cron";
import { seedMessage } from "../support/db";
import { createConversation, createOwner, randomIp } from "../support/factories";
import { call } from "../support/http";
import { orgSql, withOrgDb } from "../support/org-data";
import { failNext, graphRequests } from "../support/webhooks";

const F = GRAPH_FIXTURES;
const BROWSER = "Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Safari/604.1";
const DAY_MS = 24 * 60 * 60_000;

type Owner = Awaited<ReturnType<typeof createOwner>>;

/** A new organization and its store. */
async function organization() {
  const owner = await createOwner();
  return { owner, store: await organizationStore(env, owner.organization.id) };
}

type Store = Awaited<ReturnType<typeof organization>>["store"];

/** The jobs the store holds, by key. */
const storeJobs = async (store: Store) =>
  Object.fromEntries(
    await runInDurableObject(store, (_, state) => state.storage.list<StoreJob>({ prefix: "job:" })),
  );

/** Polls until `read` finds something: work left to the request's or the store's waitUntil. */
async function until<T>(read: () => Promise<T | null | undefined>, what: string): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const found = await read();
    if (found) return found;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`never found: ${what}`);
}

const conversionOf = (organizationId: string, id: string) =>
  withOrgDb(organizationId, (db) =>
    db.query.conversions.findFirst({ where: eq(conversions.id, id) }),
  );

/** A lead sent to the pixel whose first send Meta refuses; the conversion once that is done. */
async function leadMetaRefusedOnce(owner: Owner) {
  const pixel = await call("POST", "/api/v1/meta-config", {
    token: owner.token,
    body: { pixel_id: F.pixelId, access_token: "test-access-token" },
  });
  expect(pixel.status).toBe(201);
  // A page of its own: the failure is this request's, whatever other files send at once.
  const page = `https://store-jobs.example/${crypto.randomUUID()}`;
  await failNext("graph", {
    path: `/v25.0/${F.pixelId}/events`,
    contains: page,
    status: 500,
    error: { message: "An unknown error occurred", code: 1, type: "OAuthException" },
  });
  const lead = await call("POST", "/api/v1/tracking/conversions", {
    token: owner.token,
    headers: { "User-Agent": BROWSER, Referer: page, "CF-Connecting-IP": randomIp() },
    body: { event_name: "lead" },
  });
  expect(lead.status).toBe(201);
  const failed = await until(async () => {
    const row = await conversionOf(owner.organization.id, lead.body.data.id);
    return row?.capiStatus === "pending" ? null : row;
  }, "the first send");
  expect(failed).toMatchObject({ capiStatus: "failed", capiAttempts: 1 });
  return failed;
}

/** The requests that carried this event to Meta. */
const requestsWith = async (eventId: string) =>
  (await graphRequests(`/${F.pixelId}/events`)).filter((r) =>
    r.body?.data?.some((e: any) => e.event_id === eventId),
  );

/** A conversion's retry, and the store's job for it, due now. */
const retryTimeComes = (store: Store, conversionId: string, job: StoreJob) =>
  runInDurableObject(store, async (_, state) => {
    state.storage.sql.exec(
      "UPDATE conversions SET capi_next_attempt_at = ? WHERE id = ?",
      new Date(Date.now() - 1000).toISOString(),
      conversionId,
    );
    await state.storage.put("job:capi", { ...job, dueAt: Date.now() - 1 });
  });

describe("Conversions API retries", () => {
  it("are run by the store's alarm", async () => {
    const { owner, store } = await organization();
    const failed = await leadMetaRefusedOnce(owner);
    const retryAt = Date.parse(failed.capiNextAttemptAt!);

    // The store holds the retry, at its time, and its alarm is set for it.
    const job = await until(async () => (await storeJobs(store))["job:capi"], "the retry job");
    expect(job).toEqual({ organizationId: owner.organization.id, dueAt: retryAt });
    const alarm = await runInDurableObject(store, (_, state) => state.storage.getAlarm());
    expect(alarm).not.toBeNull();
    expect(alarm!).toBeLessThanOrEqual(retryAt);

    // The retry's time comes: the store's alarm sends it.
    await retryTimeComes(store, failed.id, job!);
    expect(await runDurableObjectAlarm(store)).toBe(true);
    const sent = await conversionOf(owner.organization.id, failed.id);
    expect(sent).toMatchObject({ capiStatus: "sent", capiAttempts: 2, capiNextAttemptAt: null });
    expect(sent!.capiResult).toMatchObject({ events_received: 1 });

    // Sent once: the refused request and the one Meta took. Nothing is left to retry.
    expect(await requestsWith(failed.eventId)).toHaveLength(2);
    expect(await storeJobs(store)).toEqual({});
    await runDurableObjectAlarm(store);
    expect(await requestsWith(failed.eventId)).toHaveLength(2);
  });
});

/**
 * The store's side of its jobs as its alarm lends it (its storage and deps), with the day's
 * report a test may watch.
 */
function jobStoreOf(
  instance: OrganizationHub,
  state: DurableObjectState,
  parts: Partial<Pick<JobStore, "reportDay">> = {},
): JobStore {
  return {
    storage: state.storage,
    depsFor: (organizationId) =>
      (instance as unknown as { depsFor(id: string): StoreDeps }).depsFor(organizationId),
    reportDay: async () => {},
    ...parts,
  };
}

/** The jobs' runs, with the Conversions API's played by `capi` (a run the test watches). */
const withCapi = (capi: JobRuns["capi"]): JobRuns => ({ ...JOB_RUNS, capi });

/** Two runners of the due jobs, the second starting while the first's first job runs. */
async function twoRunnersAtOnce(jobStore: JobStore, runs: JobRuns) {
  const first = runDueJobs(jobStore, new Date(), runs);
  await new Promise((resolve) => setTimeout(resolve, 100));
  await Promise.all([first, runDueJobs(jobStore, new Date(), runs)]);
}

describe("the store's jobs", () => {
  it("recover a schedule lost on its way: the store's day makes due every job it holds none for", async () => {
    const { owner, store } = await organization();
    const failed = await leadMetaRefusedOnce(owner);
    await until(async () => (await storeJobs(store))["job:capi"], "the retry job");
    // The call that scheduled the retry failed after the conversion was committed; the store's
    // day comes, and the retry's time.
    await runInDurableObject(store, async (_, state) => {
      await state.storage.delete("job:capi");
      await state.storage.put("job:retention", {
        organizationId: owner.organization.id,
        dueAt: Date.now() - 1,
      });
      state.storage.sql.exec(
        "UPDATE conversions SET capi_next_attempt_at = ? WHERE id = ?",
        new Date(Date.now() - 1000).toISOString(),
        failed.id,
      );
    });
    await runDurableObjectAlarm(store);
    // Its day made the retry due at once: the store's next alarm (run here, or by itself) sends it.
    await vi.waitFor(async () => {
      await runDurableObjectAlarm(store);
      expect(await conversionOf(owner.organization.id, failed.id)).toMatchObject({
        capiStatus: "sent",
        capiAttempts: 2,
      });
    });
  });

  it("run once when the alarm and the daily wake overlap: each reads the job again before it runs it", async () => {
    const { owner, store } = await organization();
    const organizationId = owner.organization.id;
    const retentionRuns = await runInDurableObject(
      store,
      async (instance: OrganizationHub, state) => {
        let days = 0;
        const jobStore = jobStoreOf(instance, state, {
          reportDay: async () => {
            days += 1;
          },
        });
        // A job listed before the retention that takes a while (Meta, D1).
        const slow = withCapi(async () => {
          await new Promise((resolve) => setTimeout(resolve, 300));
          return null;
        });
        const due = { organizationId, dueAt: Date.now() - 1 };
        await state.storage.put({ "job:capi": due, "job:retention": due });
        await twoRunnersAtOnce(jobStore, slow);
        return days;
      },
    );
    expect(retentionRuns).toBe(1);
  });

  it("never start a second run beside one under way, when the run itself asks for the job sooner", async () => {
    const { owner, store } = await organization();
    const organizationId = owner.organization.id;
    const { runs, overlapped, job } = await runInDurableObject(
      store,
      async (instance: OrganizationHub, state) => {
        let running = 0;
        let runs = 0;
        let overlapped = false;
        // A run that, halfway, asks for its job now (a conversion it just failed to send).
        const asking = withCapi(async () => {
          runs += 1;
          running += 1;
          overlapped ||= running > 1;
          await keepEarliest(state.storage, organizationId, "capi", Date.now());
          await new Promise((resolve) => setTimeout(resolve, 300));
          running -= 1;
          return null;
        });
        await state.storage.put("job:capi", { organizationId, dueAt: Date.now() - 1 });
        await twoRunnersAtOnce(jobStoreOf(instance, state), asking);
        const job = await state.storage.get<StoreJob>("job:capi");
        return { runs, overlapped, job };
      },
    );
    expect(overlapped).toBe(false);
    expect(runs).toBe(1);
    // What it asked for is kept: due now, for the next runner.
    expect(job!.dueAt).toBeLessThanOrEqual(Date.now());
    expect(job!.running).toBeUndefined();
  });

  it("keep a later time asked for while a run holds the job, for work the run may not have seen", async () => {
    const { owner, store } = await organization();
    const organizationId = owner.organization.id;
    const tomorrow = Date.now() + DAY_MS;
    const job = await runInDurableObject(store, async (instance: OrganizationHub, state) => {
      // The run has read that nothing is left; a schedule for tomorrow is asked meanwhile.
      const late = withCapi(async () => {
        await keepEarliest(state.storage, organizationId, "capi", tomorrow);
        return null;
      });
      await state.storage.put("job:capi", { organizationId, dueAt: Date.now() - 1 });
      await runDueJobs(jobStoreOf(instance, state), new Date(), late);
      return state.storage.get<StoreJob>("job:capi");
    });
    expect(job).toEqual({ organizationId, dueAt: tomorrow });
  });
});

describe("retention", () => {
  const now = Date.now();
  const cutoff = Date.parse(retentionCutoff(new Date(now)));
  const expiredAt = new Date(cutoff - 60_000).toISOString();
  const freshAt = new Date(cutoff + 3_600_000).toISOString();

  const setLastMessage = (owner: Owner, conversationId: string, at: string) =>
    orgSql(
      owner.organization.id,
      "UPDATE conversations SET last_message_at = ? WHERE id = ?",
      at,
      conversationId,
    );
  const conversationsOf = async (owner: Owner) =>
    (
      await orgSql<{ id: string }>(
        owner.organization.id,
        "SELECT id FROM conversations WHERE organization_id = ?",
        owner.organization.id,
      )
    ).map((row) => row.id);
  /** An expired conversation and a fresh one; the fresh one's id. */
  async function twoConversations(owner: Owner) {
    const expired = await createConversation(owner);
    const fresh = await createConversation(owner);
    await setLastMessage(owner, expired.id, expiredAt);
    await setLastMessage(owner, fresh.id, freshAt);
    return fresh.id as string;
  }
  const runReports = async () =>
    (
      await env.DB.prepare(
        "SELECT metadata FROM audit_events WHERE action = 'retention.run' ORDER BY created_at",
      ).all<{ metadata: string }>()
    ).results.map((run) => JSON.parse(run.metadata) as RetentionReport);
  const runs = async () =>
    (
      await env.DB.prepare(
        "SELECT organization_id, metadata FROM audit_events WHERE action = 'retention.run' ORDER BY created_at",
      ).all<{ organization_id: string | null; metadata: string }>()
    ).results.map((run) => ({
      organization_id: run.organization_id,
      conversations: JSON.parse(run.metadata).deleted.conversations,
    }));

  it("runs in each store woken by the daily cron, once a day", async () => {
    const inStore = await organization();
    const freshInStore = await twoConversations(inStore.owner);
    await seedMessage(inStore.owner.organization.id, freshInStore, { at: freshAt });

    const before = (await runs()).length;
    await runCron(RETENTION_CRON, now);
    expect(await conversationsOf(inStore.owner)).toEqual([freshInStore]);
    // The store's run (others' stores ran too, deleting nothing), in D1's trail with no
    // organization.
    const firstRuns = (await runs()).slice(before);
    expect(firstRuns.every((run) => run.organization_id === null)).toBe(true);
    expect(firstRuns.filter((run) => run.conversations > 0)).toEqual([
      { organization_id: null, conversations: 1 },
    ]);
    // The store told the registry its size and messages, as they are after the run.
    const [held] = await orgSql(
      inStore.owner.organization.id,
      "SELECT count(*) AS n FROM messages",
    );
    const reported = await env.DB.prepare(
      "SELECT bytes, messages FROM organization_stores WHERE organization_id = ?",
    )
      .bind(inStore.owner.organization.id)
      .first<{ bytes: number; messages: number }>();
    expect(reported!.messages).toBe(held!.n);
    expect(held!.n).toBeGreaterThan(0);
    expect(reported!.bytes).toBeGreaterThan(0);
    // The jobs it held no schedule for were made due at once (the daily net for a schedule
    // lost on its way); each ends finding nothing. Then its next run is on its own alarm, a day
    // later.
    await vi.waitFor(async () => {
      await runDurableObjectAlarm(inStore.store);
      const { "job:retention": _retention, ...others } = await storeJobs(inStore.store);
      expect(others).toEqual({});
    });
    const { "job:retention": job } = await storeJobs(inStore.store);
    expect(job!.dueAt).toBeGreaterThan(now + DAY_MS - 60_000);
    const alarm = await runInDurableObject(inStore.store, (_, state) => state.storage.getAlarm());
    expect(alarm).toBe(job!.dueAt);

    // Later the same day the cron does not even call the store, which ran its day: even what
    // expired since stays.
    const registry = () =>
      env.DB.prepare(
        "SELECT daily_run_at, updated_at FROM organization_stores WHERE organization_id = ?",
      )
        .bind(inStore.owner.organization.id)
        .first<{ daily_run_at: string; updated_at: string }>();
    const afterFirst = await registry();
    expect(afterFirst!.daily_run_at).toBe(new Date(now).toISOString());
    await setLastMessage(inStore.owner, freshInStore, expiredAt);
    // A wake would find its retention never scheduled, and run it at once.
    await runInDurableObject(inStore.store, (_, state) => state.storage.delete("job:retention"));
    await runCron(RETENTION_CRON, now + 3_600_000);
    expect(await conversationsOf(inStore.owner)).toEqual([freshInStore]);
    expect(await registry()).toEqual(afterFirst);
    expect((await storeJobs(inStore.store))["job:retention"]).toBeUndefined();
    // No run at all.
    expect(await runs()).toHaveLength(before + firstRuns.length);

    // Its day comes: the store's alarm runs it.
    await runInDurableObject(inStore.store, (_, state) =>
      state.storage.put("job:retention", { ...job, dueAt: Date.now() - 1 }),
    );
    expect(await runDurableObjectAlarm(inStore.store)).toBe(true);
    expect(await conversationsOf(inStore.owner)).toEqual([]);
    expect(await runs()).toHaveLength(before + firstRuns.length + 1);
  });

  it("clears a backlog in a store a few batches a run, going on at once until it is done", async () => {
    const { owner, store } = await organization();
    const organizationId = owner.organization.id;
    const conversation = await createConversation(owner);
    // Past ten batches of 5,000: more than one run of a store may delete.
    await orgSql(
      organizationId,
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 50001)
       INSERT INTO messages (id, organization_id, conversation_id, content, direction,
         sender_type, status, created_at)
       SELECT lower(hex(randomblob(16))), ?1, ?2, 'viejo', 'inbound', 'customer', 'delivered', ?3
       FROM n`,
      organizationId,
      conversation.id,
      expiredAt,
    );
    await setLastMessage(owner, conversation.id, expiredAt);
    const messagesLeft = async () =>
      (await orgSql<{ n: number }>(organizationId, "SELECT count(*) AS n FROM messages"))[0]!.n;
    const runsBefore = (await runReports()).length;
    await runInDurableObject(store, async (_, state) => {
      await state.storage.put("job:retention", { organizationId, dueAt: Date.now() - 1 });
      await state.storage.setAlarm(Date.now());
    });
    // The first run leaves the job due at once: the store's alarm runs it again by itself.
    await runDurableObjectAlarm(store);
    await vi.waitFor(async () => expect(await messagesLeft()).toBe(0), { timeout: 10_000 });
    expect(await conversationsOf(owner)).toEqual([]);
    const reports = (await runReports()).slice(runsBefore);
    expect(reports.map((r) => [r.deleted.messages, r.statements, r.complete])).toEqual([
      [50_000, 10, false],
      [1, expect.any(Number), true],
    ]);
    const { "job:retention": tomorrow } = await storeJobs(store);
    expect(tomorrow!.dueAt).toBeGreaterThan(Date.now() + DAY_MS - 60_000);
  });

  it("wakes a store whose alarm missed its day, and only that one", async () => {
    const missed = await organization();
    const onTime = await organization();
    const freshMissed = await twoConversations(missed.owner);
    const freshOnTime = await twoConversations(onTime.owner);
    const ranAt = (owner: Owner, at: number) =>
      env.DB.prepare("UPDATE organization_stores SET daily_run_at = ? WHERE organization_id = ?")
        .bind(new Date(at).toISOString(), owner.organization.id)
        .run();
    // Both ran their day; one's alarm then failed for two days, the other's ran this morning.
    await ranAt(missed.owner, now - 2 * DAY_MS);
    await ranAt(onTime.owner, now - 3_600_000);

    await runCron(RETENTION_CRON, now);
    expect(await conversationsOf(missed.owner)).toEqual([freshMissed]);
    // Left to its alarm, later today: its expired conversation is still there.
    expect((await conversationsOf(onTime.owner)).sort()).toHaveLength(2);
    expect(await conversationsOf(onTime.owner)).toContain(freshOnTime);
  });
});
