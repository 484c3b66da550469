/**
 * The tools an AI agent may use to act (contract sections 4 and 18, decisions 0109-0111): each
 * one a JSON schema for the model, a zod schema for what it sends, and the work it does. A tool
 * acts only for the conversation it was given: its arguments never name the conversation, the
 * customer or the organization, so nothing the customer writes can point it elsewhere.
 */
import type { z } from "zod/mini";
import type { agents } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import { AppError, validationError } from "../../worker/http/errors";
import type { ToolCall, ToolDefinition } from "./client";

type AgentRow = typeof agents.$inferSelect;

/** Where a tool acts: the conversation being answered, in its organization's store. */
export interface ToolContext {
  deps: StoreDeps;
  organizationId: string;
  agentId: string;
  conversationId: string;
  /** False when a person sends the answer (a draft): only tools that change nothing are offered. */
  mayAct: boolean;
  /**
   * The messages its tools sent the customer in this answer (a Flow, a "Pagar" button): the
   * answer's own acts, not someone answering while the model was thinking.
   */
  sentMessageIds: string[];
}

export interface AgentTool<Arguments extends z.ZodMiniType = z.ZodMiniType> {
  definition: ToolDefinition;
  /** Whether it changes something (a booking made, moved or cancelled). */
  acts: boolean;
  /** Whether this agent may be offered it (its `can_book`, `can_charge`). */
  allowedFor(agent: AgentRow): boolean;
  /** What the model must send, checked as the API checks its bodies. */
  arguments: Arguments;
  /** What the model reads back (as JSON); an `AppError` thrown is read back as a refusal. */
  run(context: ToolContext, args: z.output<Arguments>): Promise<unknown>;
  /** What the system prompt adds when the tool is offered (the services to book, the time zone). */
  instructions?(context: ToolContext): Promise<string>;
}

/** A tool as the registry holds it, its arguments' type checked where it is defined. */
export const defineTool = <Arguments extends z.ZodMiniType>(tool: AgentTool<Arguments>) =>
  tool as unknown as AgentTool;

/** The tools of `registry` this agent is offered in this context. */
export const toolsFor = (registry: readonly AgentTool[], agent: AgentRow, context: ToolContext) =>
  registry.filter((tool) => tool.allowedFor(agent) && (context.mayAct || !tool.acts));

const refusal = (error: string, message: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ error, message, ...extra });

/**
 * Runs one of the model's tool calls and answers what the model reads back, as JSON. Bad
 * arguments and refusals (a slot taken, a booking not found) are answers in Spanish, never a
 * failure of the reply; so is an unexpected error, once logged: an act may have happened, and
 * asking the model again from the start could repeat it.
 */
export async function runToolCall(tool: AgentTool, context: ToolContext, call: ToolCall) {
  let raw: unknown;
  try {
    raw = call.function.arguments.trim() ? JSON.parse(call.function.arguments) : {};
  } catch {
    return refusal("bad_arguments", "Los argumentos no son un JSON válido: corrígelos.");
  }
  const parsed = tool.arguments.safeParse(raw);
  if (!parsed.success) {
    const { details } = validationError(parsed.error);
    return refusal("validation_error", "Argumentos no válidos: corrígelos y vuelve a intentarlo.", {
      details,
    });
  }
  try {
    return JSON.stringify(await tool.run(context, parsed.data));
  } catch (error) {
    if (error instanceof AppError) {
      return refusal(error.code, error.message, {
        ...(error.details && { details: error.details }),
        ...error.extra,
      });
    }
    console.error("agent tool failed", call.function.name, error);
    return refusal(
      "internal_error",
      "No se pudo completar por un error interno. Ofrece al cliente pasar con una persona.",
    );
  }
}
