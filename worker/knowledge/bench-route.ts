/**
 * `GET /__bench/knowledge-prompt?organization=<id>&agent=<id>&q=<customer text>`, only with
 * BENCH_ROUTES=1 (scripts/bench): what an answer costs before the model is asked, i.e. the
 * knowledge search and the system prompt's assembly, without calling the model. The agent and
 * the knowledge are in the organization's store: read there through the store's bench-only
 * `benchSql` (one call a read, which a reply running in its store does not pay).
 */
import { eq } from "drizzle-orm";
import { drizzle } from "drizzle-orm/sqlite-proxy";
import { systemPrompt } from "../agents/replies";
import { createDb } from "../db/client";
import * as schema from "../db/schema";
import type { Env } from "../env";
import { organizationStore } from "../stores/registry";
import { knowledgeForAgent } from "./retrieval";

export async function knowledgePromptBench(request: Request, env: Env) {
  const url = new URL(request.url);
  const organizationId = url.searchParams.get("organization") ?? "";
  const store = await organizationStore(env, organizationId);
  // drizzle's queries over the store: a relational `findFirst` ('get') maps a row of values, a
  // raw `all` (the knowledge search) is returned as the store's rows are, by column name.
  const orgDb = drizzle(
    async (sql, params, method) => {
      const raw = method !== "all";
      const [result] = (await store.benchSql(organizationId, [{ sql, params, raw }])) ?? [];
      if (!result) throw new Error(`the store of ${organizationId} refused the bench's read`);
      // A 'get' answers its one row, or nothing (not found).
      return { rows: (method === "get" ? result.rows[0] : result.rows) as unknown[] };
    },
    { schema },
  );
  const agent = await orgDb.query.agents.findFirst({
    where: eq(schema.agents.id, url.searchParams.get("agent") ?? ""),
  });
  if (!agent) return new Response("agent not found", { status: 404 });
  const organization = await createDb(env.DB).query.organizations.findFirst({
    where: eq(schema.organizations.id, organizationId),
  });
  const history = [{ role: "user" as const, content: url.searchParams.get("q") ?? "" }];
  const knowledge = await knowledgeForAgent(orgDb, agent, history);
  const prompt = systemPrompt(agent, organization!, knowledge);
  return Response.json({ entries: knowledge.length, chars: prompt.length });
}
