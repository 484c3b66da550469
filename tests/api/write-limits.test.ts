// One tenant must not exhaust what every tenant shares: a member's and an organization's
// writes are limited per minute (counted with the session, before the work, so a parallel
// burst gets exactly the limit; refused input gives its write back), file uploads and model calls
// from the sandbox are limited tighter, and every model call carries a max_tokens.
import { env, exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { PRUNE_CRON } from "../../worker/scheduled";
import { runCron } from "../support/cron";
import { MAX_COMPLETION_TOKENS } from "../../durable-objects/ai/client";
import { COSTLY_WRITES, MEMBER_WRITES, ORGANIZATION_WRITES } from "../../worker/http/write-limits";
import { createAgent, createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { orgFirst } from "../support/org-data";
import { modelRequests } from "../support/webhooks";

type Owner = Awaited<ReturnType<typeof createOwner>>;

const quickReply = (owner: Owner, shortcut: string) =>
  answer(
    api(owner.token)["quick-replies"].$post({
      json: { shortcut, content: "Gracias por escribirnos." },
    }),
  );

const quickReplyCount = async (organizationId: string) =>
  (await orgFirst<{ n: number }>(
    organizationId,
    "SELECT count(*) AS n FROM quick_replies WHERE organization_id = ?",
    organizationId,
  ))!.n;

// Hundreds of requests each: on a busy machine they take longer than vitest's default 5 s.
const MANY_REQUESTS_TIMEOUT_MS = 60_000;

describe("write limits", () => {
  it(
    "lets a parallel burst store exactly a member's limit, then answers 429 with Retry-After",
    async () => {
      const owner = await createOwner();
      const burst = await Promise.all(
        Array.from({ length: MEMBER_WRITES.max + 15 }, (_, i) => quickReply(owner, `r${i}`)),
      );
      const created = burst.filter((r) => r.status === 201);
      const refused = burst.filter((r) => r.status === 429);
      // Creating the organization was the person's first write of the minute.
      expect(created).toHaveLength(MEMBER_WRITES.max - 1);
      expect(refused).toHaveLength(16);
      expect(refused[0]!.body).toMatchObject({ error: "rate_limited" });
      const retryAfter = Number(refused[0]!.headers.get("Retry-After"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(MEMBER_WRITES.windowSeconds);
      expect(await quickReplyCount(owner.organization.id)).toBe(MEMBER_WRITES.max - 1);

      // Reads still work, and another organization is not touched by this one's limit.
      expect((await answer(api(owner.token)["quick-replies"].$get())).status).toBe(200);
      const other = await createOwner();
      expect((await quickReply(other, "hola")).status).toBe(201);
    },
    MANY_REQUESTS_TIMEOUT_MS,
  );

  it(
    "gives refused input its write back: invalid bodies store nothing and use no write",
    async () => {
      const owner = await createOwner();
      for (let i = 0; i < MEMBER_WRITES.max + 5; i++) {
        const res = await answer(
          api(owner.token)["quick-replies"].$post({
            json: { shortcut: "no válido!", content: "" },
          }),
        );
        expect(res.status).toBe(422);
      }
      expect((await quickReply(owner, "valida")).status).toBe(201);
    },
    MANY_REQUESTS_TIMEOUT_MS,
  );

  it("limits the organization as a whole, whichever member writes", async () => {
    const owner = await createOwner();
    // The organization's window is already full (as if its other members had used it).
    await env.DB.prepare("INSERT INTO rate_limits (key, count, reset_at) VALUES (?, ?, ?)")
      .bind(
        `writes:org:${owner.organization.id}`,
        ORGANIZATION_WRITES.max,
        Date.now() + ORGANIZATION_WRITES.windowSeconds * 1000,
      )
      .run();
    const res = await quickReply(owner, "tarde");
    expect(res.status).toBe(429);
    expect(await quickReplyCount(owner.organization.id)).toBe(0);
  });

  it("counts every write without a body too: rotations, refreshes, confirmations, tests", async () => {
    const owner = await createOwner();
    const windowOf = async (key: string) =>
      (
        await env.DB.prepare("SELECT count FROM rate_limits WHERE key = ?")
          .bind(key)
          .first<{ count: number }>()
      )?.count ?? 0;
    const person = `writes:member:${owner.user.id}`;
    const organization = `writes:org:${owner.organization.id}`;
    const rotate = () => answer(api(owner.token).tracking.key.rotate.$post());

    // One write each, counted once, with or without a body (creating the organization was
    // the person's first).
    expect([await windowOf(person), await windowOf(organization)]).toEqual([1, 0]);
    expect((await rotate()).status).toBe(200);
    expect([await windowOf(person), await windowOf(organization)]).toEqual([2, 1]);
    expect((await quickReply(owner, "una")).status).toBe(201);
    expect([await windowOf(person), await windowOf(organization)]).toEqual([3, 2]);

    // The person's window full: every body-less write is refused before its work.
    await env.DB.prepare("UPDATE rate_limits SET count = ? WHERE key = ?")
      .bind(MEMBER_WRITES.max, person)
      .run();
    const client = api(owner.token);
    const suggestion = { param: { id: "c1", suggestionId: "s1" } };
    const bodyless: [string, () => Promise<{ status: number; headers: Headers }>][] = [
      ["POST /tracking/key/rotate", () => client.tracking.key.rotate.$post()],
      ["POST /auth/refresh", () => client.auth.refresh.$post()],
      [
        "POST /conversations/c1/suggestions/s1/confirm",
        () => client.conversations[":id"].suggestions[":suggestionId"].confirm.$post(suggestion),
      ],
      [
        "DELETE /conversations/c1/suggestions/s1",
        () => client.conversations[":id"].suggestions[":suggestionId"].$delete(suggestion),
      ],
      ["POST /whatsapp-config/test", () => client["whatsapp-config"].test.$post()],
      ["POST /meta-config/test", () => client["meta-config"].test.$post()],
      [
        "DELETE /quick-replies/q1",
        () => client["quick-replies"][":id"].$delete({ param: { id: "q1" } }),
      ],
    ];
    for (const [route, send] of bodyless) {
      const res = await send();
      expect(res.status, route).toBe(429);
      expect(Number(res.headers.get("Retry-After"))).toBeGreaterThan(0);
    }
    // The refresh did not rotate the session: the old token still reads.
    expect((await answer(api(owner.token).auth.me.$get())).status).toBe(200);

    // The organization's window full: a member's body-less write is refused too.
    await env.DB.prepare("DELETE FROM rate_limits WHERE key = ?").bind(person).run();
    await env.DB.prepare("UPDATE rate_limits SET count = ? WHERE key = ?")
      .bind(ORGANIZATION_WRITES.max, organization)
      .run();
    expect((await rotate()).status).toBe(429);

    // Leaving is never refused, whatever the windows say.
    await env.DB.prepare("UPDATE rate_limits SET count = ? WHERE key = ?")
      .bind(MEMBER_WRITES.max, person)
      .run();
    expect((await answer(api(owner.token).auth.logout.$post())).status).toBe(200);
  });

  it("limits the agent sandbox per member, and every model call carries max_tokens", async () => {
    const owner = await createOwner();
    const agent = await createAgent(owner);
    const ask = (text: string) =>
      answer(
        api(owner.token).agents[":id"].test.$post({
          param: { id: agent.id },
          json: { messages: [{ role: "user", content: text }] },
        }),
      );
    const allowed = COSTLY_WRITES.model.max;
    const answers = await Promise.all(
      Array.from({ length: allowed + 3 }, (_, i) => ask(`pregunta límite ${i}`)),
    );
    expect(answers.filter((r) => r.status === 200)).toHaveLength(allowed);
    expect(answers.filter((r) => r.status === 429)).toHaveLength(3);

    const asked = (await modelRequests()).filter((r) =>
      JSON.stringify(r.body).includes("pregunta límite"),
    );
    expect(asked).toHaveLength(allowed);
    for (const request of asked) expect(request.body.max_tokens).toBe(MAX_COMPLETION_TOKENS);
  });

  it("limits file uploads per member tighter, and leaves the member's other writes alone", async () => {
    const owner = await createOwner();
    const upload = (i: number) => {
      const form = new FormData();
      form.append("file", new File([`Horario ${i}: de 9 a 14 h.`], `horario-${i}.txt`));
      return exports.default.fetch("http://localhost/api/v1/knowledge/import", {
        method: "POST",
        headers: { Authorization: `Bearer ${owner.token}` },
        body: form,
      });
    };
    const allowed = COSTLY_WRITES.uploads.max;
    const answers = await Promise.all(Array.from({ length: allowed + 3 }, (_, i) => upload(i)));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(allowed);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused).toHaveLength(3);
    expect(Number(refused[0]!.headers.get("Retry-After"))).toBeGreaterThan(0);
    const stored = await orgFirst<{ n: number }>(
      owner.organization.id,
      "SELECT count(*) AS n FROM knowledge_entries WHERE organization_id = ?",
      owner.organization.id,
    );
    expect(stored!.n).toBe(allowed);
    // The uploads' window is spent, not the member's: a write that is not a file still goes.
    expect((await quickReply(owner, "tras-subidas")).status).toBe(201);
  });

  it("keeps the rate-limit table small: the five-minute cron drops the windows that ended", async () => {
    const now = Date.now();
    const insert = (key: string, resetAt: number) =>
      env.DB.prepare("INSERT INTO rate_limits (key, count, reset_at) VALUES (?, 1, ?)")
        .bind(key, resetAt)
        .run();
    await insert("prune-test:ended", now - 1_000);
    await insert("prune-test:live", now + 60_000);
    await runCron(PRUNE_CRON, now);
    const keys = await env.DB.prepare(
      "SELECT key FROM rate_limits WHERE key LIKE 'prune-test:%'",
    ).all<{ key: string }>();
    expect(keys.results.map((r) => r.key)).toEqual(["prune-test:live"]);
  });
});
