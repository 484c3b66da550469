/**
 * `GET /__bench/knowledge-prompt?agent=<id>&q=<customer text>`, only with BENCH_ROUTES=1
 * (scripts/bench): what an answer costs before the model is asked, i.e. the knowledge search
 * and the system prompt's assembly, without calling the model.
 */
import { eq } from "drizzle-orm";
import { systemPrompt } from "../agents/replies";
import { databasesOf } from "../db/places";
import { agents, organizations } from "../db/schema";
import type { Env } from "../env";
import { knowledgeForAgent } from "./retrieval";

export async function knowledgePromptBench(request: Request, env: Env) {
  const url = new URL(request.url);
  const { db, orgDb } = databasesOf(env);
  const agent = await orgDb.query.agents.findFirst({
    where: eq(agents.id, url.searchParams.get("agent") ?? ""),
  });
  if (!agent) return new Response("agent not found", { status: 404 });
  const organization = await db.query.organizations.findFirst({
    where: eq(organizations.id, agent.organizationId),
  });
  const history = [{ role: "user" as const, content: url.searchParams.get("q") ?? "" }];
  const knowledge = await knowledgeForAgent(orgDb, agent, history);
  const prompt = systemPrompt(agent, organization!, knowledge);
  return Response.json({ entries: knowledge.length, chars: prompt.length });
}
