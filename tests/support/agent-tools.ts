// What the tests of the AI agent's tools (booking, charging) share: an organization whose
// number an agent answers, a customer writing to it, and what the model was offered and read.
import type { Agent } from "../../contracts/agents";
import { delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { bookingOrganization } from "./bookings";
import { connectWhatsapp } from "./db";
import { createAgent } from "./factories";
import { orgFirst, orgSql } from "./org-data";
import { runDueReplies } from "./replies";
import { customerPhone, deliver, modelRequests } from "./webhooks";

type Row = Record<string, any>;

/**
 * An organization opening 09:00-10:00 in Madrid with "Limpieza dental" (`bookingOrganization`),
 * its number answered by an agent with `agentValues`. `write` has a customer write `text` (a
 * new customer unless `from` is given, at Meta's `timestamp`) and answers their conversation;
 * `answer` runs the agent's due replies.
 */
export async function agentClinic(agentValues: Record<string, unknown>) {
  const org = await bookingOrganization();
  const agent = (await createAgent(org.owner, agentValues)) as Agent;
  const { phoneNumberId } = await connectWhatsapp(org.orgId, {
    phoneNumberId: `pn-${crypto.randomUUID().slice(0, 8)}`,
    defaultAgentId: agent.id,
  });
  const write = async (text: string, from = customerPhone(), timestamp?: string) => {
    await deliver(delivery(inboundMessage({ phoneNumberId, from, text, timestamp })));
    const conversation = await orgFirst<Row>(
      org.orgId,
      "SELECT id FROM conversations WHERE organization_id = ? AND phone_number = ?",
      org.orgId,
      from,
    );
    return { from, conversationId: conversation!.id as string };
  };
  return { ...org, agent, phoneNumberId, write, answer: () => runDueReplies(org.store) };
}

/** The model's requests of one exchange (their messages contain `tag`), in the order sent. */
export async function requestsOf(tag: string) {
  return (await modelRequests()).filter((r) => JSON.stringify(r.body.messages).includes(tag));
}

/** The tool results the model read in its last request of the exchange, parsed. */
export async function toolResults(tag: string): Promise<Row[]> {
  const last = (await requestsOf(tag)).at(-1)!;
  return last.body.messages
    .filter((m: { role: string }) => m.role === "tool")
    .map((m: { content: string }) => JSON.parse(m.content) as Row);
}

/** The tools' names a model request offered. */
export const offeredTools = (request: { body: { tools?: { function: { name: string } }[] } }) =>
  (request.body.tools ?? []).map((t) => t.function.name);

/** A conversation's notes (the lines each act leaves in the thread), oldest first. */
export const notes = (orgId: string, conversationId: string) =>
  orgSql<Row>(
    orgId,
    "SELECT content FROM messages WHERE conversation_id = ? AND type = 'note' ORDER BY created_at, id",
    conversationId,
  ).then((rows) => rows.map((r) => r.content as string));
