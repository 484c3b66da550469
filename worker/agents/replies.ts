/**
 * How an agent answers: its system prompt, the organization's facts and the recent
 * conversation go to the model, which may hand the conversation to a human instead.
 */
import type { agents, organizations } from "../db/schema";
import { complete, type ChatMessage, type ToolDefinition } from "../ai/client";
import type { Env } from "../env";

type AgentRow = typeof agents.$inferSelect;
type OrganizationRow = typeof organizations.$inferSelect;

export interface Turn {
  role: "user" | "assistant";
  content: string;
}

export interface AgentAnswer {
  reply: string | null;
  handoff: { reason: string } | null;
  usage: { promptTokens: number | null; completionTokens: number | null };
  latencyMs: number;
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

/** A customer asking for a person is handed over without asking the model. */
const ASKS_FOR_PERSON =
  /\b(hablar con (una persona|alguien|un humano|un agente)|persona real|agente (real|humano)|un humano|operador(a)?|atenci[oó]n humana)\b/i;

export function asksForPerson(text: string) {
  return ASKS_FOR_PERSON.test(text);
}

export function systemPrompt(agent: AgentRow, organization: OrganizationRow) {
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
    "Respondes por WhatsApp: mensajes breves, claros y en el idioma del cliente.",
    "Si el cliente pide hablar con una persona, o no puedes ayudarle, usa la herramienta handoff_to_human.",
  ]
    .filter((line) => line !== null)
    .join("\n");
}

export async function askAgent(
  env: Env,
  agent: AgentRow,
  organization: OrganizationRow,
  history: Turn[],
): Promise<AgentAnswer> {
  const lastCustomerText = [...history].reverse().find((t) => t.role === "user")?.content ?? "";
  if (asksForPerson(lastCustomerText)) {
    return {
      reply: null,
      handoff: { reason: "El cliente pidió hablar con una persona." },
      usage: { promptTokens: null, completionTokens: null },
      latencyMs: 0,
    };
  }
  const messages: ChatMessage[] = [
    { role: "system", content: systemPrompt(agent, organization) },
    ...history,
  ];
  const completion = await complete(env, {
    model: agent.model,
    temperature: agent.temperature,
    messages,
    tools: [HANDOFF_TOOL],
  });
  const handoffCall = completion.toolCalls.find(
    (c) => c.function.name === HANDOFF_TOOL.function.name,
  );
  const base = { usage: completion.usage, latencyMs: completion.latencyMs };
  if (handoffCall) {
    let reason = "El agente de IA pidió ayuda de una persona.";
    try {
      const args = JSON.parse(handoffCall.function.arguments) as { reason?: unknown };
      if (typeof args.reason === "string" && args.reason.trim()) reason = args.reason.trim();
    } catch {
      // Malformed arguments still hand over, with the generic reason.
    }
    return { ...base, reply: completion.content?.trim() || null, handoff: { reason } };
  }
  return { ...base, reply: completion.content?.trim() || null, handoff: null };
}
