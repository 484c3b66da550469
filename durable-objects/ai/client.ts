/**
 * The one client of the AI model: an OpenAI-compatible chat-completions endpoint at
 * AI_BASE_URL with AI_API_KEY. Model ids are sent as they are (e.g. "google/gemini-2.5-flash").
 */
import { AppError } from "../../worker/http/errors";

const TIMEOUT_MS = 30_000;
/**
 * The platform's AI key pays for every call: no answer may run longer than this. A WhatsApp
 * text holds 4,096 characters, about 1,000 tokens; the rest is room for a tool call.
 */
export const MAX_COMPLETION_TOKENS = 1_200;
const MAX_ATTEMPTS = 3;
const BACKOFF_MS = [500, 1500];

/** A piece of a user message: text, a voice note (base64 audio) or a picture (a data URL). */
export type ContentPart =
  | { type: "text"; text: string }
  | { type: "input_audio"; input_audio: { data: string; format: string } }
  | { type: "image_url"; image_url: { url: string } };

export type ChatMessage =
  | { role: "system"; content: string }
  | { role: "user"; content: string | ContentPart[] }
  | { role: "assistant"; content: string | null; tool_calls?: ToolCall[] }
  | { role: "tool"; tool_call_id: string; content: string };

/** The words of a message's content, its text parts joined (audio and images carry none). */
export const textOf = (content: string | ContentPart[]) =>
  typeof content === "string"
    ? content
    : content.flatMap((part) => (part.type === "text" ? [part.text] : [])).join("\n");

export interface ToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface ToolDefinition {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface Completion {
  content: string | null;
  toolCalls: ToolCall[];
  usage: { promptTokens: number | null; completionTokens: number | null };
  latencyMs: number;
}

/** A failed model call, with a Spanish message for the console. */
export class ModelError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly retryable: boolean,
  ) {
    super(message);
  }
}

export const aiNotConfigured = () =>
  new AppError(
    503,
    "ai_not_configured",
    "La IA no está configurada: falta AI_API_KEY en el servidor. Los mensajes de los clientes siguen llegando.",
  );

interface ModelSettings {
  AI_BASE_URL: string;
  AI_API_KEY?: string;
}

export function isAiConfigured(env: ModelSettings) {
  return Boolean(env.AI_API_KEY);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * The failure in Spanish, for the team and the API. The provider's own words (`detail`) may
 * carry anything (prompt fragments, keys, internals): they go to the log, never to an answer.
 */
function spanishModelError(status: number, detail: string) {
  console.warn("model error", status, detail);
  if (status === 401 || status === 403) return "La clave de la IA (AI_API_KEY) no es válida.";
  if (status === 429) return "El proveedor de IA limita las peticiones en este momento.";
  if (status === 0) return "No se pudo contactar con el proveedor de IA.";
  if (status >= 500) return "El proveedor de IA no está disponible en este momento.";
  return `El proveedor de IA rechazó la petición (HTTP ${status}).`;
}

/** Asks the model once, retrying 429/5xx/network failures with backoff (3 attempts in all). */
export async function complete(
  env: ModelSettings,
  request: {
    model: string;
    temperature: number;
    messages: ChatMessage[];
    tools?: ToolDefinition[];
    /** "none": the tools stay listed (the messages name them) but the model must answer in words. */
    toolChoice?: "auto" | "none";
  },
): Promise<Completion> {
  if (!isAiConfigured(env)) throw aiNotConfigured();
  let lastError: ModelError | null = null;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (attempt > 0) await sleep(BACKOFF_MS[attempt - 1] ?? 2000);
    try {
      return await callOnce(env, request);
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      lastError = error;
      if (!error.retryable) break;
    }
  }
  throw lastError!;
}

async function callOnce(
  env: ModelSettings,
  request: {
    model: string;
    temperature: number;
    messages: ChatMessage[];
    tools?: ToolDefinition[];
    /** "none": the tools stay listed (the messages name them) but the model must answer in words. */
    toolChoice?: "auto" | "none";
  },
): Promise<Completion> {
  const started = Date.now();
  let response: Response;
  try {
    response = await fetch(`${env.AI_BASE_URL.replace(/\/$/, "")}/chat/completions`, {
      method: "POST",
      headers: {
        Authorization: `Bearer ${env.AI_API_KEY}`,
        "Content-Type": "application/json",
      },
      body: JSON.stringify({
        model: request.model,
        temperature: request.temperature,
        max_tokens: MAX_COMPLETION_TOKENS,
        messages: request.messages,
        ...(request.tools && { tools: request.tools, tool_choice: request.toolChoice ?? "auto" }),
      }),
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
  } catch (error) {
    const detail = error instanceof Error ? error.message : String(error);
    throw new ModelError(spanishModelError(0, detail), 0, true);
  }
  const payload = (await response.json().catch(() => null)) as {
    choices?: { message?: { content?: string | null; tool_calls?: ToolCall[] } }[];
    usage?: { prompt_tokens?: number; completion_tokens?: number };
    error?: { message?: string };
  } | null;
  if (!response.ok || !payload?.choices?.[0]?.message) {
    const detail = payload?.error?.message ?? `HTTP ${response.status}`;
    const retryable = response.status === 429 || response.status >= 500 || response.ok;
    throw new ModelError(spanishModelError(response.status, detail), response.status, retryable);
  }
  const message = payload.choices[0].message;
  return {
    content: message.content ?? null,
    toolCalls: message.tool_calls ?? [],
    usage: {
      promptTokens: payload.usage?.prompt_tokens ?? null,
      completionTokens: payload.usage?.completion_tokens ?? null,
    },
    latencyMs: Date.now() - started,
  };
}
