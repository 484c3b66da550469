/**
 * How an agent answers: its system prompt, the organization's facts and the recent
 * conversation go to the model, which may hand the conversation to a human instead.
 */
import type { organizations } from "../db/global-schema";
import type { agents } from "../db/store-schema";
import {
  complete,
  textOf,
  type ChatMessage,
  type Completion,
  type ContentPart,
  type ToolCall,
  type ToolDefinition,
} from "../ai/client";
import type { AiSource } from "../conversations/contract";
import type { Env } from "../env";
import type { KnowledgeForPrompt } from "../knowledge/retrieval";

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

/**
 * Asks the model for the agent's answer. The model may hand over to a person, and (when the
 * agent may) mark the lead: the lead is noted, the tool's result goes back to the model and it
 * is asked once more for the words to send, without the lead tool.
 */
export async function askAgent(
  env: Env,
  agent: AgentRow,
  organization: OrganizationRow,
  history: Turn[],
  knowledge: KnowledgeForPrompt[],
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
  const messages: ChatMessage[] = [
    { role: "system", content: systemPrompt(agent, organization, knowledge) },
    ...history,
  ];
  const ask = (tools: ToolDefinition[]) =>
    complete(env, { model: agent.model, temperature: agent.temperature, messages, tools });
  let completion = await ask(agent.canMarkLeads ? [HANDOFF_TOOL, MARK_LEAD_TOOL] : [HANDOFF_TOOL]);
  let usage = completion.usage;
  let latencyMs = completion.latencyMs;
  const named = (name: string) => completion.toolCalls.find((c) => c.function.name === name);

  const leadCall = agent.canMarkLeads ? named(MARK_LEAD_TOOL.function.name) : undefined;
  const lead = leadCall
    ? { reason: reasonOf(leadCall, "El cliente mostró intención de compra.") }
    : null;
  if (leadCall && !named(HANDOFF_TOOL.function.name) && !completion.content?.trim()) {
    // The lead is noted: the model is told so and asked for the words to send.
    messages.push(
      { role: "assistant", content: null, tool_calls: [leadCall] },
      { role: "tool", tool_call_id: leadCall.id, content: "Conversación marcada como interesado." },
    );
    completion = await ask([HANDOFF_TOOL]);
    usage = addUsage(usage, completion.usage);
    latencyMs += completion.latencyMs;
  }

  const handoffCall = named(HANDOFF_TOOL.function.name);
  return {
    reply: completion.content?.trim() || null,
    handoff: handoffCall
      ? { reason: reasonOf(handoffCall, "El agente de IA pidió ayuda de una persona.") }
      : null,
    lead,
    usage,
    latencyMs,
    // "Used" is "given to the model": it does not say which entries it quoted (decision 0024).
    sources: knowledge.map(({ id, title }) => ({ id, title })),
  };
}
