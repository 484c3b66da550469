/**
 * How an agent answers: its system prompt, the organization's facts and the recent
 * conversation go to the model, which may hand the conversation to a human instead.
 */
import type { organizations } from "../../worker/db/global-schema";
import type { agents } from "../schema";
import {
  complete,
  textOf,
  type ChatMessage,
  type Completion,
  type ContentPart,
  type ToolCall,
  type ToolDefinition,
} from "../ai/client";
import { runToolCall, toolsFor, type AgentTool, type ToolContext } from "../ai/tools";
import type { AiSource } from "../../contracts/conversations";
import type { Env } from "../../worker/env";
import type { KnowledgeForPrompt } from "../../contracts/knowledge";
import { AGENT_TOOLS } from "./tool-registry";

type AgentRow = typeof agents.$inferSelect;
type OrganizationRow = typeof organizations.$inferSelect;

/** One message of the conversation as the agent reads it: a customer's may carry an image. */
export type Turn =
  { role: "user"; content: string | ContentPart[] } | { role: "assistant"; content: string };

export interface AgentAnswer {
  reply: string | null;
  handoff: { reason: string } | null;
  /** Set when the model marked the conversation as a lead (`mark_lead`). */
  lead: { reason: string } | null;
  usage: { promptTokens: number | null; completionTokens: number | null };
  latencyMs: number;
  /** The knowledge entries given to the model with this answer ("Fuentes"). */
  sources: AiSource[];
}

export const HANDOFF_TOOL: ToolDefinition = {
  type: "function",
  function: {
    name: "handoff_to_human",
    description:
      "Pasa la conversación a una persona del equipo cuando el cliente lo pide, cuando no sabes la respuesta o cuando el tema requiere a un humano (quejas, pagos, urgencias).",
    parameters: {
      type: "object",
      properties: { reason: { type: "string", description: "Motivo breve, en español" } },
      required: ["reason"],
    },
  },
};

/**
 * Offered when the agent may mark leads (`can_mark_leads`): the model marks the conversation as
 * Interesado itself. It never records a sale.
 */
export const MARK_LEAD_TOOL: ToolDefinition = {
  type: "function",
  function: {
    name: "mark_lead",
    description:
      "Marca la conversación como cliente interesado cuando el cliente muestra intención de compra (pregunta precios para comprar, pide cita o presupuesto) o deja sus datos de contacto. No registra ventas.",
    parameters: {
      type: "object",
      properties: { reason: { type: "string", description: "Motivo breve, en español" } },
      required: ["reason"],
    },
  },
};

/** A customer asking for a person is handed over without asking the model. */
const ASKS_FOR_PERSON =
  /\b(hablar con (una persona|alguien|un humano|un agente)|persona real|agente (real|humano)|un humano|operador(a)?|atenci[oó]n humana)\b/i;

export function asksForPerson(text: string) {
  return ASKS_FOR_PERSON.test(text);
}

/**
 * The business's knowledge found for this conversation, each entry under its title, and the
 * rule that holds the agent to it: with nothing found, the rule is there all the same.
 */
export function knowledgeSection(knowledge: KnowledgeForPrompt[]) {
  const entries = knowledge.length
    ? knowledge.map((k) => `[Entrada: ${k.title}]\n${k.content}`).join("\n\n")
    : "(No hay entradas del negocio sobre lo que pregunta el cliente.)";
  return [
    "Conocimiento del negocio (entradas escritas por el negocio, cada una con su título):",
    entries,
    "",
    "Responde solo con los datos y el conocimiento del negocio de este mensaje. Si la respuesta no está ahí, di que no lo sabes y ofrece pasar la conversación a una persona con la herramienta handoff_to_human. Nunca inventes precios, stock, horarios, plazos ni políticas.",
  ].join("\n");
}

export function systemPrompt(
  agent: AgentRow,
  organization: OrganizationRow,
  knowledge: KnowledgeForPrompt[] = [],
) {
  return [
    agent.systemPrompt,
    "",
    "Datos del negocio (úsalos para responder; no inventes nada que no esté aquí):",
    `- Nombre: ${organization.name}`,
    `- Sector: ${organization.industry}`,
    `- Servicios: ${organization.servicesOffered}`,
    `- Horario de atención: ${organization.businessHours}`,
    `- Ubicación: ${[organization.address, organization.city, organization.country].filter(Boolean).join(", ")}`,
    organization.description ? `- Descripción: ${organization.description}` : null,
    `- Para qué usan la IA: ${organization.aiUseCase}`,
    "",
    knowledgeSection(knowledge),
    "",
    "Respondes por WhatsApp: mensajes breves, claros y en el idioma del cliente.",
    "Si el cliente pide hablar con una persona, o no puedes ayudarle, usa la herramienta handoff_to_human.",
    agent.canMarkLeads
      ? "Si el cliente muestra intención de compra o deja sus datos, usa la herramienta mark_lead y sigue atendiéndole."
      : null,
  ]
    .filter((line) => line !== null)
    .join("\n");
}

/** The reason a tool call gives, or `fallback` when its arguments carry none. */
function reasonOf(call: ToolCall, fallback: string) {
  try {
    const args = JSON.parse(call.function.arguments) as { reason?: unknown };
    if (typeof args.reason === "string" && args.reason.trim()) return args.reason.trim();
  } catch {
    // Malformed arguments still count, with the generic reason.
  }
  return fallback;
}

const addUsage = (a: Completion["usage"], b: Completion["usage"]) => ({
  promptTokens: (a.promptTokens ?? 0) + (b.promptTokens ?? 0) || null,
  completionTokens: (a.completionTokens ?? 0) + (b.completionTokens ?? 0) || null,
});

/** The tool calls one answer may run in all (contract section 18, decision 0110). */
export const MAX_TOOL_CALLS = 5;
/** What a call past the limit reads back instead of running. */
const TOOL_LIMIT_REACHED = JSON.stringify({
  error: "tool_limit",
  message: `No se ejecutó: ya usaste las ${MAX_TOOL_CALLS} herramientas de esta respuesta. Responde al cliente con lo que sabes.`,
});
const UNKNOWN_TOOL = JSON.stringify({
  error: "unknown_tool",
  message: "Esa herramienta no está disponible.",
});
/** Why the team takes over when the model used its tools and still gave no words to send. */
export const TOOLS_WITHOUT_ANSWER = `La IA usó sus ${MAX_TOOL_CALLS} herramientas sin llegar a una respuesta para el cliente.`;

/**
 * Asks the model for the agent's answer. The model may hand over to a person, and (when the
 * agent may) mark the lead and act through the tools of `AGENT_TOOLS` in the conversation of
 * `toolbox` (none without one: the sandbox has no conversation to act in). Each call's result
 * goes back to the model as a `tool` message and it is asked again, until it answers in words;
 * past `MAX_TOOL_CALLS` calls it is asked once more with `tool_choice: "none"`, and when even
 * then it has no words the conversation goes to the team (decision 0110).
 */
export async function askAgent(
  env: Env,
  agent: AgentRow,
  organization: OrganizationRow,
  history: Turn[],
  knowledge: KnowledgeForPrompt[],
  toolbox?: ToolContext,
): Promise<AgentAnswer> {
  const lastCustomer = [...history].reverse().find((t) => t.role === "user");
  const lastCustomerText = lastCustomer ? textOf(lastCustomer.content) : "";
  if (asksForPerson(lastCustomerText)) {
    return {
      reply: null,
      handoff: { reason: "El cliente pidió hablar con una persona." },
      lead: null,
      usage: { promptTokens: null, completionTokens: null },
      latencyMs: 0,
      sources: [],
    };
  }
  const actions = toolbox ? toolsFor(AGENT_TOOLS, agent, toolbox) : [];
  const instructions = await Promise.all(
    actions.flatMap((tool) => (tool.instructions ? [tool.instructions(toolbox!)] : [])),
  );
  const messages: ChatMessage[] = [
    {
      role: "system",
      content: [systemPrompt(agent, organization, knowledge), ...instructions].join("\n\n"),
    },
    ...history,
  ];
  const actionNamed = (call: ToolCall) =>
    actions.find((tool) => tool.definition.function.name === call.function.name);
  let offered: ToolDefinition[] = [
    HANDOFF_TOOL,
    ...(agent.canMarkLeads ? [MARK_LEAD_TOOL] : []),
    ...actions.map((tool) => tool.definition),
  ];
  let toolChoice: "auto" | "none" = "auto";
  let usage: Completion["usage"] = { promptTokens: null, completionTokens: null };
  let latencyMs = 0;
  let lead: AgentAnswer["lead"] = null;
  let callsRun = 0;
  const answer = (completion: Completion, handoff: AgentAnswer["handoff"]): AgentAnswer => ({
    reply: completion.content?.trim() || null,
    handoff,
    lead,
    usage,
    latencyMs,
    // "Used" is "given to the model": it does not say which entries it quoted (decision 0024).
    sources: knowledge.map(({ id, title }) => ({ id, title })),
  });

  for (;;) {
    const completion = await complete(env, {
      model: agent.model,
      temperature: agent.temperature,
      messages,
      tools: offered,
      toolChoice,
    });
    usage = addUsage(usage, completion.usage);
    latencyMs += completion.latencyMs;
    const calls = completion.toolCalls;
    // The lead first: handing over does not undo what the customer showed.
    const leadCall: ToolCall | undefined =
      agent.canMarkLeads && !lead
        ? calls.find((c) => c.function.name === MARK_LEAD_TOOL.function.name)
        : undefined;
    if (leadCall) lead = { reason: reasonOf(leadCall, "El cliente mostró intención de compra.") };
    const handoffCall = calls.find((c) => c.function.name === HANDOFF_TOOL.function.name);
    if (handoffCall) {
      return answer(completion, {
        reason: reasonOf(handoffCall, "El agente de IA pidió ayuda de una persona."),
      });
    }
    if (toolChoice === "none") {
      // The tools are spent: what it says is the answer; without words, a person answers.
      const words = completion.content?.trim();
      return answer(completion, words ? null : { reason: TOOLS_WITHOUT_ANSWER });
    }
    const acting = calls.some((call) => actionNamed(call));
    // Words with nothing to run are the answer (a lead noted beside its words needs no more).
    if (!acting && !(leadCall && !completion.content?.trim())) return answer(completion, null);

    messages.push({ role: "assistant", content: completion.content, tool_calls: calls });
    for (const call of calls) {
      const tool: AgentTool | undefined = actionNamed(call);
      let result = UNKNOWN_TOOL;
      if (call === leadCall) result = "Conversación marcada como interesado.";
      else if (tool && callsRun >= MAX_TOOL_CALLS) result = TOOL_LIMIT_REACHED;
      else if (tool) {
        callsRun += 1;
        result = await runToolCall(tool, toolbox!, call);
      }
      messages.push({ role: "tool", tool_call_id: call.id, content: result });
    }
    // The lead is marked once; once the calls are spent, the next answer must be words.
    offered = offered.filter((definition) => definition !== MARK_LEAD_TOOL || !lead);
    if (callsRun >= MAX_TOOL_CALLS) toolChoice = "none";
  }
}
