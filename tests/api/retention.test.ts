import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { retentionCutoff, runRetention } from "../../durable-objects/retention/service";
import { RETENTION_CRON } from "../../worker/scheduled";
import { runCron } from "../support/cron";
import { createOwner, createConversation } from "../support/factories";
import { seedMessage } from "../support/db";
import { orgFirst, orgSql, withStoreDeps } from "../support/org-data";
import { conversions, heldStatuses, trackingSessions } from "../../durable-objects/schema";

const NOW = Date.parse("2026-11-22T03:17:00.000Z");
const cutoff = retentionCutoff(new Date(NOW));
const justBefore = new Date(Date.parse(cutoff) - 60_000).toISOString();
const justAfter = new Date(Date.parse(cutoff) + 60_000).toISOString();

const runRetentionCron = () => runCron(RETENTION_CRON, NOW);

/** Rows of `table` in the organization's data (the only organization of this file). */
const countOf = async (organizationId: string, table: string) =>
  (await orgFirst<{ n: number }>(organizationId, `SELECT count(*) AS n FROM ${table}`))!.n;

/**
 * The retention runs recorded in the organization's audit trail, oldest first: a store's run
 * that deleted something, each with what it deleted.
 */
async function retentionRuns(organizationId: string) {
  const runs = await orgSql<{ metadata: string; organization_id: string }>(
    organizationId,
    "SELECT organization_id, metadata FROM audit_events WHERE action = 'retention.run' ORDER BY created_at",
  );
  expect(runs.every((run) => run.organization_id === organizationId)).toBe(true);
  return runs.map(
    (run) => JSON.parse(run.metadata) as { deleted: Record<string, number>; complete: boolean },
  );
}

function deletedBy(runs: { deleted: Record<string, number> }[]) {
  const sum: Record<string, number> = {};
  for (const { deleted } of runs) {
    for (const [table, n] of Object.entries(deleted)) sum[table] = (sum[table] ?? 0) + n;
  }
  return sum;
}

describe("daily retention", () => {
  it("deletes exactly what is older than two years, idempotently, and records the run", async () => {
    const owner = await createOwner();
    const orgId = owner.organization.id;
    const expired = await createConversation(owner);
    const kept = await createConversation(owner);
    const setLastMessageAt = (id: string, at: string) =>
      orgSql(orgId, "UPDATE conversations SET last_message_at = ? WHERE id = ?", at, id);
    await setLastMessageAt(expired.id, justBefore);
    await setLastMessageAt(kept.id, justAfter);
    for (let i = 0; i < 3; i++) await seedMessage(orgId, expired.id, { at: justBefore });
    await seedMessage(orgId, kept.id, { at: justBefore }); // old message, but its conversation is active
    await withStoreDeps(orgId, async (storeDeps) => {
      await storeDeps.orgDb.insert(trackingSessions).values([
        {
          organizationId: orgId,
          trackingParams: { utm_source: "old" },
          lastActivityAt: justBefore,
        },
        { organizationId: orgId, trackingParams: { utm_source: "new" }, lastActivityAt: justAfter },
      ]);
      await storeDeps.orgDb.insert(conversions).values([
        { organizationId: orgId, eventName: "lead", eventTime: justBefore },
        { organizationId: orgId, eventName: "lead", eventTime: justAfter },
      ]);
      // Statuses no message claimed: kept a day, whatever the two years.
      const held = (wamid: string, hoursAgo: number) => ({
        organizationId: orgId,
        wamid,
        status: "delivered",
        payload: { id: wamid, status: "delivered" },
        receivedAt: new Date(NOW - hoursAgo * 3_600_000).toISOString(),
      });
      await storeDeps.orgDb
        .insert(heldStatuses)
        .values([held("wamid.old", 25), held("wamid.new", 23)]);
    });

    await runRetentionCron();
    const first = await retentionRuns(orgId);
    expect(await countOf(orgId, "messages")).toBe(1);
    expect(await countOf(orgId, "conversations")).toBe(1);
    expect(await countOf(orgId, "tracking_sessions")).toBe(1);
    expect(await countOf(orgId, "conversions")).toBe(1);
    expect(await orgFirst(orgId, "SELECT wamid FROM held_statuses")).toEqual({
      wamid: "wamid.new",
    });
    const left = await orgFirst<{ id: string }>(orgId, "SELECT id FROM conversations");
    expect(left!.id).toBe(kept.id);

    // Run again the same day (the cron leaves a store whose day has run alone): nothing more.
    await withStoreDeps(orgId, (storeDeps) => runRetention(storeDeps, orgId, new Date(NOW)));
    expect(await countOf(orgId, "messages")).toBe(1);
    expect(await countOf(orgId, "conversations")).toBe(1);

    // The run is in the organization's audit trail, with what it deleted; the run that found
    // nothing is not recorded, and D1's trail has none.
    const second = (await retentionRuns(orgId)).slice(first.length);
    expect(deletedBy(first)).toEqual({
      messages: 3,
      conversations: 1,
      tracking_sessions: 1,
      conversions: 1,
      held_statuses: 1,
      phone_contacts: 0,
      marketing_consents: 0,
    });
    expect(second).toEqual([]);
    expect(first.every((run) => run.complete)).toBe(true);
    const inD1 = await env.DB.prepare(
      "SELECT count(*) AS n FROM audit_events WHERE action = 'retention.run'",
    ).first<{ n: number }>();
    expect(inD1!.n).toBe(0);
  });
});
