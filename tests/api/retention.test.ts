import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { retentionCutoff } from "../../worker/retention/service";
import { RETENTION_CRON } from "../../worker/scheduled";
import { runCron } from "../support/cron";
import { createOwner, createConversation } from "../support/factories";
import { db, seedMessage } from "../support/db";
import { conversions, trackingSessions } from "../../worker/db/schema";

const NOW = Date.parse("2026-11-22T03:17:00.000Z");
const cutoff = retentionCutoff(new Date(NOW));
const justBefore = new Date(Date.parse(cutoff) - 60_000).toISOString();
const justAfter = new Date(Date.parse(cutoff) + 60_000).toISOString();

const runRetentionCron = () => runCron(RETENTION_CRON, NOW);

const countOf = async (table: string) =>
  (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())!.n;

describe("daily retention", () => {
  it("deletes exactly what is older than two years, idempotently, and records the run", async () => {
    const owner = await createOwner();
    const orgId = owner.organization.id;
    const expired = await createConversation(owner);
    const kept = await createConversation(owner);
    await env.DB.prepare("UPDATE conversations SET last_message_at = ? WHERE id = ?")
      .bind(justBefore, expired.id)
      .run();
    await env.DB.prepare("UPDATE conversations SET last_message_at = ? WHERE id = ?")
      .bind(justAfter, kept.id)
      .run();
    for (let i = 0; i < 3; i++) await seedMessage(orgId, expired.id, { at: justBefore });
    await seedMessage(orgId, kept.id, { at: justBefore }); // old message, but its conversation is active
    await db.insert(trackingSessions).values([
      { organizationId: orgId, trackingParams: { utm_source: "old" }, lastActivityAt: justBefore },
      { organizationId: orgId, trackingParams: { utm_source: "new" }, lastActivityAt: justAfter },
    ]);
    await db.insert(conversions).values([
      { organizationId: orgId, eventName: "lead", eventTime: justBefore },
      { organizationId: orgId, eventName: "lead", eventTime: justAfter },
    ]);

    await runRetentionCron();
    expect(await countOf("messages")).toBe(1);
    expect(await countOf("conversations")).toBe(1);
    expect(await countOf("tracking_sessions")).toBe(1);
    expect(await countOf("conversions")).toBe(1);
    const left = await env.DB.prepare("SELECT id FROM conversations").first<{ id: string }>();
    expect(left!.id).toBe(kept.id);

    await runRetentionCron();
    expect(await countOf("messages")).toBe(1);
    expect(await countOf("conversations")).toBe(1);

    const runs = await env.DB.prepare(
      "SELECT metadata FROM audit_events WHERE action = 'retention.run' ORDER BY created_at",
    ).all<{ metadata: string }>();
    expect(runs.results.map((r) => JSON.parse(r.metadata).deleted)).toEqual([
      { messages: 3, conversations: 1, tracking_sessions: 1, conversions: 1 },
      { messages: 0, conversations: 0, tracking_sessions: 0, conversions: 0 },
    ]);
    expect(JSON.parse(runs.results[0]!.metadata).complete).toBe(true);
  });
});
