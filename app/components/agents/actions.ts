/** What the agents screen changes, as its route action does it (app/routes/agents.tsx). */
import { type FieldErrors } from "~/lib/forms";
import type { Agent } from "../../../worker/agents/contract";

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
