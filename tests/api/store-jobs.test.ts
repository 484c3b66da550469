// Jobs live with the data (contract section 15): an organization's Conversions API retries are
// run by its store's alarm and its retention by the store, woken by the daily cron once a day
// when its alarm missed it. The store's one scheduler (durable-objects/scheduler.ts, decision
// 0099): a due row runs once, under a lease, even with two runners at once; a time asked during
// a run is kept; a run that throws is tried again later; the keys of before move into it.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { conversions } from "../../durable-objects/schema";
import { retentionCutoff, type RetentionReport } from "../../durable-objects/retention/service";
import { RETENTION_CRON } from "../../worker/scheduled";
import { organizationStore } from "../../worker/stores/registry";
import { jobKey } from "../../worker/stores/contract";
import {
  askFor,
  LEASE_MS,
  retryDelay,
  runDueWork,
  scheduledWork,
  type RunOutcome,
  type ScheduledWork,
  type WorkRunner,
} from "../../durable-objects/scheduler";
import { GRAPH_FIXTURES } from "../fakes/graph-server.mjs";
import { runCron } from "../support/cron";
import { seedMessage } from "../support/db";
import { connectWhatsapp } from "../support/db";
import { createAgent, createConversation, createOwner, randomIp } from "../support/factories";
import { answer, api } from "../support/api";
import { orgSql, withOrgDb } from "../support/org-data";
import { botMessages } from "../support/replies";
import { makeDue, workOf, workUnder } from "../support/scheduled-work";
import { customerPhone, deliver, failNext, graphRequests } from "../support/webhooks";
import { delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";

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
const storeJobs = (store: Store) => workUnder(store, "job:");

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
  const pixel = await answer(
    api(owner.token)["meta-config"].$post({
      json: { pixel_id: F.pixelId, access_token: "test-access-token" },
    }),
  );
  expect(pixel.status).toBe(201);
  // A page of its own: the failure is this request's, whatever other files send at once.
  const page = `https://store-jobs.example/${crypto.randomUUID()}`;
  await failNext("graph", {
    path: `/v25.0/${F.pixelId}/events`,
    contains: page,
    status: 500,
    error: { message: "An unknown error occurred", code: 1, type: "OAuthException" },
  });
  const lead = await answer(
    api(owner.token).tracking.conversions.$post(
      { json: { event_name: "lead" } },
      { headers: { "User-Agent": BROWSER, Referer: page, "CF-Connecting-IP": randomIp() } },
    ),
  );
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
async function retryTimeComes(store: Store, conversionId: string) {
  await runInDurableObject(store, (_, state) => {
    state.storage.sql.exec(
      "UPDATE conversions SET capi_next_attempt_at = ? WHERE id = ?",
      new Date(Date.now() - 1000).toISOString(),
      conversionId,
    );
  });
  await makeDue(store, "job:capi");
}

describe("Conversions API retries", () => {
  it("are run by the store's alarm", async () => {
    const { owner, store } = await organization();
    const failed = await leadMetaRefusedOnce(owner);
    const retryAt = Date.parse(failed.capiNextAttemptAt!);

    // The store holds the retry, at its time, and its alarm is set for it.
    const job = await until(async () => (await storeJobs(store))["job:capi"], "the retry job");
    expect(job).toMatchObject({ kind: "job", dueAt: retryAt, leaseUntil: null, attempts: 0 });
    const alarm = await runInDurableObject(store, (_, state) => state.storage.getAlarm());
    expect(alarm).not.toBeNull();
    expect(alarm!).toBeLessThanOrEqual(retryAt);

    // The retry's time comes: the store's alarm sends it.
    await retryTimeComes(store, failed.id);
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

/** A runner of the store's due rows whose runs are `run` (a run the test watches). */
const runnerOf = (
  state: DurableObjectState,
  run: (work: ScheduledWork) => Promise<RunOutcome>,
): WorkRunner => ({ storage: state.storage, stopped: () => false, run });

/** Two runners of the due rows, the second starting while the first's first run is under way. */
async function twoRunnersAtOnce(runner: WorkRunner) {
  const first = runDueWork(runner, new Date());
  await new Promise((resolve) => setTimeout(resolve, 100));
  await Promise.all([first, runDueWork(runner, new Date())]);
}

/** Restarts the store (a deploy, an eviction): the next call wakes it, through a new stub. */
async function wake(store: Store, organizationId: string, reason: string) {
  await runInDurableObject(store, (_, state) => state.abort(reason)).catch(
    () => undefined, // abort() ends the call that asked for it too
  );
  return organizationStore(env, organizationId);
}

const dueNow = (state: DurableObjectState, key: string) =>
  askFor(state.storage.sql, { key, kind: "job", dueAt: Date.now() - 1 }, "earliest");

const done: RunOutcome = { next: null, attempts: 0 };

describe("the store's scheduler", () => {
  it("recovers a schedule lost on its way: the store's day makes due every job it holds none for", async () => {
    const { owner, store } = await organization();
    const failed = await leadMetaRefusedOnce(owner);
    await until(async () => (await storeJobs(store))["job:capi"], "the retry job");
    // The call that scheduled the retry failed after the conversion was committed; the store's
    // day comes, and the retry's time.
    await runInDurableObject(store, async (_, state) => {
      state.storage.sql.exec("DELETE FROM scheduled_work WHERE key = 'job:capi'");
      dueNow(state, jobKey("retention"));
      await state.storage.setAlarm(Date.now());
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

  it("runs a due row once, and once only when two runners race (the alarm and the daily wake)", async () => {
    const { store } = await organization();
    const runs = await runInDurableObject(store, async (_, state) => {
      const runs: Record<string, number> = {};
      dueNow(state, "job:capi");
      dueNow(state, "job:retention");
      // The first row takes a while (Meta, D1): the second runner starts meanwhile.
      await twoRunnersAtOnce(
        runnerOf(state, async (work) => {
          runs[work.key] = (runs[work.key] ?? 0) + 1;
          if (work.key === "job:capi") await new Promise((resolve) => setTimeout(resolve, 300));
          return done;
        }),
      );
      return { ...runs, left: state.storage.sql.exec("SELECT * FROM scheduled_work").toArray() };
    });
    expect(runs).toEqual({ "job:capi": 1, "job:retention": 1, left: [] });
  });

  it("never starts a second run beside one under way, when the run itself asks for its row sooner", async () => {
    const { store } = await organization();
    const { runs, overlapped, job } = await runInDurableObject(store, async (_, state) => {
      let running = 0;
      let runs = 0;
      let overlapped = false;
      // A run that, halfway, asks for its row now (a conversion it just failed to send).
      const asking = runnerOf(state, async () => {
        runs += 1;
        running += 1;
        overlapped ||= running > 1;
        askFor(state.storage.sql, { key: "job:capi", kind: "job", dueAt: Date.now() }, "earliest");
        await new Promise((resolve) => setTimeout(resolve, 300));
        running -= 1;
        return done;
      });
      dueNow(state, "job:capi");
      await twoRunnersAtOnce(asking);
      return { runs, overlapped, job: scheduledWork(state.storage.sql, "job:capi") };
    });
    expect(overlapped).toBe(false);
    expect(runs).toBe(1);
    // What it asked for is kept: due now, for the next runner.
    expect(job!.dueAt).toBeLessThanOrEqual(Date.now());
    expect(job!.leaseUntil).toBeNull();
  });

  it("keeps a later time asked for while a run holds the row, for work the run may not have seen", async () => {
    const { store } = await organization();
    const tomorrow = Date.now() + DAY_MS;
    const job = await runInDurableObject(store, async (_, state) => {
      // The run has read that nothing is left; a schedule for tomorrow is asked meanwhile.
      const late = runnerOf(state, async () => {
        askFor(state.storage.sql, { key: "job:capi", kind: "job", dueAt: tomorrow }, "earliest");
        return done;
      });
      dueNow(state, "job:capi");
      await runDueWork(late, new Date());
      return scheduledWork(state.storage.sql, "job:capi");
    });
    expect(job).toMatchObject({ dueAt: tomorrow, leaseUntil: null, askedAt: null });
  });

  it("leaves a row whose run throws to be tried again, later each time, its attempts counted", async () => {
    const { store } = await organization();
    const seen = await runInDurableObject(store, async (_, state) => {
      const seen: { attempts: number; delay: number }[] = [];
      let failing = true;
      const runner = runnerOf(state, async () => {
        if (failing) throw new Error("D1 no contesta");
        return done;
      });
      dueNow(state, "job:capi");
      for (let i = 0; i < 3; i++) {
        const before = Date.now();
        await runDueWork(runner, new Date());
        const row = scheduledWork(state.storage.sql, "job:capi")!;
        seen.push({ attempts: row.attempts, delay: row.dueAt - before });
        dueNow(state, "job:capi");
      }
      // It runs through at last: done, the row goes.
      failing = false;
      await runDueWork(runner, new Date());
      seen.push({ attempts: -1, delay: scheduledWork(state.storage.sql, "job:capi") ? 1 : 0 });
      return seen;
    });
    expect(seen.map((s) => s.attempts)).toEqual([1, 2, 3, -1]);
    expect(seen[0]!.delay).toBeGreaterThanOrEqual(30_000);
    expect(seen[1]!.delay).toBeGreaterThanOrEqual(60_000);
    expect(seen[2]!.delay).toBeGreaterThanOrEqual(120_000);
    expect(seen[2]!.delay).toBeLessThan(180_000);
    expect(seen[3]!.delay).toBe(0);
    // Bounded: never more than an hour apart.
    expect(retryDelay(30)).toBe(60 * 60_000);
  });

  it("frees a row when a run that died ends its lease, keeping what was asked during it", async () => {
    const { store } = await organization();
    const tomorrow = Date.now() + DAY_MS;
    const { runs, job } = await runInDurableObject(store, async (_, state) => {
      let runs = 0;
      const runner = runnerOf(state, async () => {
        runs += 1;
        return done;
      });
      // A run took the lease and the store was evicted under it; tomorrow was asked meanwhile.
      const leasedAt = Date.now() + 60_000;
      state.storage.sql.exec(
        `INSERT INTO scheduled_work (key, kind, due_at, lease_until) VALUES ('job:capi', 'job', ?1, ?1)`,
        leasedAt,
      );
      askFor(state.storage.sql, { key: "job:capi", kind: "job", dueAt: tomorrow }, "earliest");
      // Held: no runner takes it before its lease ends.
      await runDueWork(runner, new Date());
      const held = runs;
      await runDueWork(runner, new Date(leasedAt));
      return { runs: [held, runs], job: scheduledWork(state.storage.sql, "job:capi") };
    });
    expect(runs).toEqual([0, 1]);
    expect(job).toMatchObject({ dueAt: tomorrow, leaseUntil: null });
    expect(LEASE_MS.job).toBe(15 * 60_000);
  });

  it("moves the keys a store held before into its table when it wakes, losing none, and runs them", async () => {
    const owner = await createOwner();
    const organizationId = owner.organization.id;
    const agent = await createAgent(owner, { name: "Sofía" });
    const { phoneNumberId } = await connectWhatsapp(organizationId, {
      phoneNumberId: `pn-${crypto.randomUUID().slice(0, 8)}`,
      defaultAgentId: agent.id,
    });
    const from = customerPhone();
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text: "¿Abrís el sábado?" })));
    const [conversation] = await orgSql<{ id: string }>(
      organizationId,
      "SELECT id FROM conversations WHERE phone_number = ?",
      from,
    );
    const store = await organizationStore(env, organizationId);
    const tomorrow = Date.now() + DAY_MS;
    const past = Date.now() - 1;
    // The store as the release before left it: its schedule in storage keys, a job under a run's
    // lease with a time asked during it.
    await runInDurableObject(store, async (_, state) => {
      state.storage.sql.exec("DELETE FROM scheduled_work");
      await state.storage.put({
        [`reply:${conversation!.id}`]: { organizationId, firstAt: past, dueAt: past, attempts: 1 },
        "transcript:nota-perdida": { organizationId, dueAt: past },
        "job:retention": { organizationId, dueAt: tomorrow },
        "job:capi": { organizationId, dueAt: tomorrow, running: true, asked: past },
      });
      await state.storage.setAlarm(Date.now());
    });
    // It wakes (a restart, a deploy), reached again by a new stub.
    const woken = await wake(store, organizationId, "nueva versión");
    const moved = await runInDurableObject(woken, async (_, state) => ({
      // The schedule's keys; the store's copy of its organization's facts stays (decision 0136).
      keys: [...(await state.storage.list()).keys()].filter((key) =>
        /^(reply|transcript|job):/.test(key),
      ),
      rows: state.storage.sql
        .exec("SELECT key, kind, due_at, attempts, lease_until FROM scheduled_work ORDER BY key")
        .toArray(),
    }));
    expect(moved.keys).toEqual([]);
    expect(moved.rows).toEqual([
      { key: "job:capi", kind: "job", due_at: past, attempts: 0, lease_until: null },
      { key: "job:retention", kind: "job", due_at: tomorrow, attempts: 0, lease_until: null },
      {
        key: `reply:${conversation!.id}`,
        kind: "reply",
        due_at: past,
        attempts: 1,
        lease_until: null,
      },
      {
        key: "transcript:nota-perdida",
        kind: "transcript",
        due_at: past,
        attempts: 0,
        lease_until: null,
      },
    ]);
    // Run by the alarm: the customer is answered, once, and what is done is gone.
    await runDurableObjectAlarm(woken);
    expect(await botMessages(organizationId, conversation!.id)).toHaveLength(1);
    // The answer it stored waits for the search indexes' next batch (decision 0149).
    expect(Object.keys(await workUnder(woken, ""))).toEqual(["job:retention", "job:search"]);
    // Another wake moves nothing more, and changes nothing.
    const again = await wake(woken, organizationId, "otra vez");
    expect(Object.keys(await workUnder(again, ""))).toEqual(["job:retention", "job:search"]);
    expect(await workOf(again, "job:retention")).toMatchObject({ dueAt: tomorrow });
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
  /** The retention runs in the organization's audit trail, oldest first, with their reports. */
  const runReports = async (owner: Owner) =>
    (
      await orgSql<{ metadata: string }>(
        owner.organization.id,
        "SELECT metadata FROM audit_events WHERE action = 'retention.run' ORDER BY created_at",
      )
    ).map((run) => JSON.parse(run.metadata) as RetentionReport);

  it("runs in each store woken by the daily cron, once a day", async () => {
    const inStore = await organization();
    const freshInStore = await twoConversations(inStore.owner);
    await seedMessage(inStore.owner.organization.id, freshInStore, { at: freshAt });

    await runCron(RETENTION_CRON, now);
    expect(await conversationsOf(inStore.owner)).toEqual([freshInStore]);
    // The store's run, in its organization's audit trail with what it deleted.
    const runs = async () =>
      (await runReports(inStore.owner)).map((run) => run.deleted.conversations);
    expect(await runs()).toEqual([1]);
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
      // What the console wrote is indexed now rather than with a later batch (decision 0149).
      await makeDue(inStore.store, "job:search");
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
    await runInDurableObject(inStore.store, (_, state) => {
      state.storage.sql.exec("DELETE FROM scheduled_work WHERE key = 'job:retention'");
    });
    await runCron(RETENTION_CRON, now + 3_600_000);
    expect(await conversationsOf(inStore.owner)).toEqual([freshInStore]);
    expect(await registry()).toEqual(afterFirst);
    expect((await storeJobs(inStore.store))["job:retention"]).toBeUndefined();
    // No run at all.
    expect(await runs()).toEqual([1]);

    // Its day comes: the store's alarm runs it.
    await runInDurableObject(inStore.store, (_, state) => dueNow(state, "job:retention"));
    expect(await runDurableObjectAlarm(inStore.store)).toBe(true);
    expect(await conversationsOf(inStore.owner)).toEqual([]);
    expect(await runs()).toEqual([1, 1]);
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
    const runsBefore = (await runReports(owner)).length;
    await runInDurableObject(store, async (_, state) => {
      dueNow(state, "job:retention");
      await state.storage.setAlarm(Date.now());
    });
    // The first run leaves the job due at once: the store's alarm runs it again by itself.
    await runDurableObjectAlarm(store);
    await vi.waitFor(async () => expect(await messagesLeft()).toBe(0), { timeout: 10_000 });
    expect(await conversationsOf(owner)).toEqual([]);
    const reports = (await runReports(owner)).slice(runsBefore);
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
