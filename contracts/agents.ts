/** Shapes of the AI agent calls, shared by the API and the console. */
import { z } from "zod/mini";
import type { AiSource } from "./conversations";
import { knowledgeIdsInput } from "./knowledge";

export const AGENT_MODELS = [
  "google/gemini-2.5-flash",
  "google/gemini-2.5-pro",
  "google/gemini-2.5-flash-lite",
] as const;
export type AgentModel = (typeof AGENT_MODELS)[number];
export const DEFAULT_MODEL: AgentModel = "google/gemini-2.5-flash";
export const DEFAULT_TEMPERATURE = 0.7;
/** auto: answers customers · draft: prepares answers a person sends · off: silent. */
export const AGENT_MODES = ["auto", "draft", "off"] as const;
export type AgentMode = (typeof AGENT_MODES)[number];
/**
 * Tokens an organization may spend a month unless its owner says otherwise: about 1,500 answers
 * with knowledge in the prompt, a few euros at Gemini 2.5 Flash's prices.
 */
export const DEFAULT_AI_MONTHLY_TOKEN_BUDGET = 5_000_000;
/** `GET /agents/usage` and the `ai_budget_exhausted` event: the month's tokens and budget. */
export interface AiUsage {
  /** Calendar month in UTC, "YYYY-MM". */
  month: string;
  tokens_used: number;
  budget: number;
}

export const WHATSAPP_STATUSES = ["connected", "connecting", "disconnected", "error"] as const;

const name = z
  .string({ error: "El nombre es obligatorio" })
  .check(
    z.trim(),
    z.minLength(1, "El nombre es obligatorio"),
    z.maxLength(100, "El nombre es demasiado largo"),
  );

const systemPrompt = z
  .string({ error: "El prompt del sistema es obligatorio" })
  .check(
    z.trim(),
    z.minLength(1, "El prompt del sistema es obligatorio"),
    z.maxLength(10_000, "El prompt del sistema es demasiado largo"),
  );

/** 0 to 1 in steps of 0.1, as the slider offers. */
const temperature = z.number({ error: "La temperatura debe ser un número" }).check(
  z.gte(0, "La temperatura mínima es 0"),
  z.lte(1, "La temperatura máxima es 1"),
  z.refine(
    (t) => Math.abs(t * 10 - Math.round(t * 10)) < 1e-9,
    "La temperatura va en pasos de 0.1",
  ),
);

const model = z.enum(AGENT_MODELS, { error: "Modelo no disponible" });

const isActive = z.boolean({ error: "is_active debe ser verdadero o falso" });
const canMarkLeads = z.boolean({ error: "can_mark_leads debe ser verdadero o falso" });
const canBook = z.boolean({ error: "can_book debe ser verdadero o falso" });
const canCharge = z.boolean({ error: "can_charge debe ser verdadero o falso" });
const mode = z.enum(AGENT_MODES, { error: "El modo debe ser auto, draft u off" });

export const agentCreateInput = z.object({
  name,
  system_prompt: systemPrompt,
  model: z._default(model, DEFAULT_MODEL),
  temperature: z._default(temperature, DEFAULT_TEMPERATURE),
  is_active: z._default(isActive, true),
  can_mark_leads: z._default(canMarkLeads, true),
  can_book: z._default(canBook, false),
  can_charge: z._default(canCharge, false),
  mode: z._default(mode, "auto"),
  knowledge_ids: z._default(knowledgeIdsInput, null),
});

export const agentUpdateInput = z.object({
  name: z.optional(name),
  system_prompt: z.optional(systemPrompt),
  model: z.optional(model),
  temperature: z.optional(temperature),
  is_active: z.optional(isActive),
  can_mark_leads: z.optional(canMarkLeads),
  can_book: z.optional(canBook),
  can_charge: z.optional(canCharge),
  mode: z.optional(mode),
  knowledge_ids: z.optional(knowledgeIdsInput),
});

export const agentWhatsappInput = z.object({
  status: z.enum(WHATSAPP_STATUSES),
  qr: z.nullish(z.string().check(z.maxLength(10_000))),
});

export const agentTestInput = z.object({
  messages: z
    .array(
      z.object({
        role: z.enum(["user", "assistant"]),
        content: z.string().check(z.trim(), z.minLength(1), z.maxLength(4096)),
      }),
    )
    .check(
      z.minLength(1, "Escribe al menos un mensaje"),
      z.maxLength(50, "La conversación de prueba es demasiado larga"),
    ),
});

export type AgentCreateInput = z.input<typeof agentCreateInput>;
export type AgentUpdateInput = z.input<typeof agentUpdateInput>;
export type AgentTestInput = z.input<typeof agentTestInput>;

export interface Agent {
  id: string;
  name: string;
  model: AgentModel;
  temperature: number;
  system_prompt: string;
  is_active: boolean;
  /** Whether the model may mark the conversation as a lead (its `mark_lead` tool). */
  can_mark_leads: boolean;
  /**
   * Whether the model may look at, book, move and cancel this conversation's bookings (its
   * booking tools, decision 0109). Off by default.
   */
  can_book: boolean;
  /** Whether the model may send a payment link for a service's own price. Off by default. */
  can_charge: boolean;
  /** What the agent does with a customer's message: answers, drafts for a person, or nothing. */
  mode: AgentMode;
  /**
   * The organization's WhatsApp number's status when this agent is its default agent (the one
   * that answers it), else "disconnected": computed, never the stored value.
   */
  whatsapp_status: (typeof WHATSAPP_STATUSES)[number];
  whatsapp_qr: string | null;
  /** The knowledge entries the agent may use; null: all of the organization's. */
  knowledge_ids: string[] | null;
  created_at: string;
  updated_at: string;
}

export interface AgentTestReply {
  reply: string;
  handoff: { reason: string } | null;
  /** The sandbox has no conversation to mark: it says the agent would have marked a lead. */
  lead: { reason: string } | null;
  /** The knowledge entries given to the model for this answer ("Fuentes"). */
  sources: AiSource[];
}
