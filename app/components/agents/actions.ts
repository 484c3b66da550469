/**
 * What the agents screen changes, and what the sandbox asks, as the route action does it
 * (app/routes/agents-action.ts; the agent chats try an agent too).
 */
import { type FieldErrors } from "~/lib/forms";
import type { Agent, AgentTestInput, AgentTestReply } from "../../../contracts/agents";

/** An agent as its dialog edits it, and as the create and update calls send it. */
export type AgentFormValues = Pick<
  Agent,
  | "name"
  | "model"
  | "temperature"
  | "system_prompt"
  | "is_active"
  | "can_mark_leads"
  | "can_book"
  | "can_charge"
  | "mode"
  | "knowledge_ids"
>;

/** What a fetcher submits to the agents route (as JSON). */
export type AgentChange =
  | { intent: "create"; values: AgentFormValues }
  | { intent: "update"; id: string; values: AgentFormValues }
  | { intent: "delete"; id: string };

export type AgentActionResult =
  | { ok: true; intent: AgentChange["intent"] }
  | { ok: false; intent: AgentChange["intent"]; fieldErrors: FieldErrors };

/** "Probar agente": the transcript so far, for the agent to answer (nothing goes to WhatsApp). */
export type AgentTest = { intent: "test"; id: string; messages: AgentTestInput["messages"] };

/** The agent's answer, or the refusal's message (the sandbox shows it under the transcript). */
export type AgentTestResult =
  | { ok: true; intent: "test"; answer: AgentTestReply }
  | { ok: false; intent: "test"; message: string };
