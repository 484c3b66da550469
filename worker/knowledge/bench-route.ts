/**
 * `GET /__bench/knowledge-prompt?organization=<id>&agent=<id>&q=<customer text>`, only with
 * BENCH_ROUTES=1 (scripts/bench): what an answer costs before the model is asked, i.e. the
 * knowledge search and the system prompt's assembly, without calling the model. It runs in the
 * organization's store, where a reply runs (`benchKnowledgePrompt` of organization-hub.ts).
 */
import { eq } from "drizzle-orm";
import { systemPrompt } from "../agents/replies";
import type { Db, OrganizationDb } from "../db/client";
import { organizations } from "../db/global-schema";
import { agents } from "../db/store-schema";
import type { Env } from "../env";
import { organizationStore } from "../stores/registry";
import { knowledgeForAgent } from "./retrieval";

export async function knowledgePromptBench(request: Request, env: Env) {
  const url = new URL(request.url);
  const organizationId = url.searchParams.get("organization") ?? "";
  const store = await organizationStore(env, organizationId);
  const prompt = await store.benchKnowledgePrompt(
    organizationId,
    url.searchParams.get("agent") ?? "",
    url.searchParams.get("q") ?? "",
  );
  return prompt ? Response.json(prompt) : new Response("agent not found", { status: 404 });
}

/** In the store: the agent's knowledge for `question` and the prompt it makes; null without it. */
export async function knowledgePrompt(
  orgDb: OrganizationDb,
  db: Db,
  organizationId: string,
  agentId: string,
  question: string,
) {
  const agent = await orgDb.query.agents.findFirst({ where: eq(agents.id, agentId) });
  const organization = await db.query.organizations.findFirst({
    where: eq(organizations.id, organizationId),
  });
  if (!agent || !organization) return null;
  const knowledge = await knowledgeForAgent(orgDb, agent, [{ role: "user", content: question }]);
  const prompt = systemPrompt(agent, organization, knowledge);
  return { entries: knowledge.length, chars: prompt.length };
}
