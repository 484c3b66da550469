/**
 * The store's side of the bench's `GET /__bench/knowledge-prompt` (worker/bench/routes.ts): what
 * an answer costs before the model is asked, i.e. the knowledge search and the system prompt's
 * assembly, without calling the model, run where a reply runs (`benchKnowledgePrompt` of
 * organization-hub.ts).
 */
import { eq } from "drizzle-orm";
import { systemPrompt } from "../agents/replies";
import type { Db } from "../../worker/db/client";
import type { OrganizationDb } from "../db";
import { organizations } from "../../worker/db/global-schema";
import { agents } from "../schema";
import { knowledgeForAgent } from "./retrieval";

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
