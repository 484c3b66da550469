// A local OpenAI-compatible chat-completions endpoint for the tests and the sandbox.
// Deterministic answers, the `handoff_to_human` tool when the customer asks for a person,
// `mark_lead` when they want to buy (and the agent may mark leads), `send_booking_flow` when
// they ask for an appointment (and the agent may book),
// scripted answers, failures and delays through /__fake.
import { randomBytes } from "node:crypto";
import { sendJson, startRecordingServer } from "./http-kit.mjs";

const ASKS_FOR_PERSON = /humano|persona|agente real/i;
/** A customer who wants to buy: the fake marks the lead when the agent may (`mark_lead`). */
const BUYING_INTENT = /\b(precio|comprar|presupuesto)\b/i;
/** A customer who asks for an appointment: the fake sends the booking Flow, once an answer. */
const BOOKING_INTENT = /\b(reservar|reserva|cita)\b/i;

/** The `input_audio` part of a request's last user message, if it carries one. */
function audioPart(messages) {
  const last = [...messages].reverse().find((m) => m.role === "user");
  return Array.isArray(last?.content)
    ? (last.content.find((part) => part.type === "input_audio")?.input_audio ?? null)
    : null;
}

/**
 * A message's content as text: its text parts, and each image part it carries said as
 * "(imagen recibida: <mime>)", so tests see which pictures reached the model.
 */
function contentText(content) {
  if (!Array.isArray(content)) return content ?? "";
  return content
    .map((part) =>
      part.type === "text"
        ? part.text
        : part.type === "image_url"
          ? `(imagen recibida: ${/^data:([^;,]+)/.exec(part.image_url?.url ?? "")?.[1] ?? "url"})`
          : `(${part.type})`,
    )
    .join(" ");
}

/** How the product's prompt lists a knowledge entry (durable-objects/agents/replies.ts). */
const KNOWLEDGE_ENTRY = /^\[Entrada: (.+)\]$/m;

/**
 * The deterministic answer: the customer's words, and the title of the first knowledge entry
 * the system prompt gives, as a model quoting its source would (the journeys assert it).
 */
function echoAnswer(model, messages, lastUser) {
  const system = messages.find((m) => m.role === "system")?.content;
  const source = typeof system === "string" ? KNOWLEDGE_ENTRY.exec(system)?.[1] : undefined;
  const answer = `Respuesta de prueba (${model}): ${lastUser}`;
  return source ? `${answer} (según «${source}»)` : answer;
}

/** @param {{ port?: number, apiKey?: string }} options */
export async function startFakeModel({ port = 0, apiKey } = {}) {
  /** @type {any[]} */
  let script = [];
  let delayMs = 0;
  /** Transcriptions that fail on demand: `{contains, status, error, times}` (see the README). */
  let transcriptionFailures = [];

  /**
   * A transcription: the audio's bytes read as UTF-8 text are its words (tests and the sandbox
   * choose them), unless a failure was armed for audio containing those words.
   */
  function transcriptionAnswer(res, model, audio, promptTokens) {
    const words = Buffer.from(audio.data ?? "", "base64").toString("utf8");
    const failure = transcriptionFailures.find((f) => words.includes(f.contains));
    if (failure) {
      failure.times -= 1;
      if (failure.times <= 0)
        transcriptionFailures.splice(transcriptionFailures.indexOf(failure), 1);
      return sendJson(res, failure.status, {
        error: { message: failure.error, type: "server_error" },
      });
    }
    return sendJson(res, 200, completion(model, { content: words }, "stop", promptTokens));
  }

  function completion(model, message, finishReason, promptTokens) {
    return {
      id: `chatcmpl-${randomBytes(6).toString("hex")}`,
      object: "chat.completion",
      created: Math.floor(Date.now() / 1000),
      model,
      choices: [
        { index: 0, message: { role: "assistant", ...message }, finish_reason: finishReason },
      ],
      usage: {
        prompt_tokens: promptTokens,
        completion_tokens: 12,
        total_tokens: promptTokens + 12,
      },
    };
  }

  /**
   * An answer that calls tools, as OpenAI-compatible models do (no content). `arguments` given
   * as a string is sent as it is (a test of malformed JSON), anything else as its JSON.
   */
  const toolCallsAnswer = (model, calls, promptTokens) => {
    const toolCalls = calls.map(({ name, arguments: args }) => ({
      id: `call_${randomBytes(4).toString("hex")}`,
      type: "function",
      function: { name, arguments: typeof args === "string" ? args : JSON.stringify(args ?? {}) },
    }));
    return completion(model, { content: null, tool_calls: toolCalls }, "tool_calls", promptTokens);
  };
  const toolCallAnswer = (model, name, args, promptTokens) =>
    toolCallsAnswer(model, [{ name, arguments: args }], promptTokens);

  /**
   * Whether a scripted reply is for this request: its messages contain `when`, its `role: "tool"`
   * results contain `when_tool`, and a reply calling tools never answers a request that forbids
   * them (`tool_choice: "none"`), as a real model obeys it.
   */
  const scriptedFor = (body, sent) => (reply) => {
    if (reply.when && !sent.includes(reply.when)) return false;
    if (reply.when_tool) {
      const results = body.messages.filter((m) => m.role === "tool").map((m) => m.content);
      if (!results.some((content) => String(content).includes(reply.when_tool))) return false;
    }
    const callsTools = Boolean(reply.tool_call || reply.tool_calls);
    return !(callsTools && body.tool_choice === "none");
  };

  const started = await startRecordingServer(
    port,
    async (req, res, body, url) => {
      if (url.pathname === "/__fake/script") {
        script = [...(body?.replies ?? [])];
        return sendJson(res, 200, { ok: true });
      }
      if (url.pathname === "/__fake/transcription-failure") {
        transcriptionFailures.push({
          contains: String(body?.contains ?? ""),
          status: Number(body?.status ?? 500),
          error: body?.error ?? "Fallo inyectado en la transcripción",
          times: Number(body?.times ?? 1),
        });
        return sendJson(res, 200, { ok: true });
      }
      if (url.pathname === "/__fake/delay") {
        delayMs = Number(body?.ms ?? 0);
        return sendJson(res, 200, { ok: true });
      }
      if (url.pathname !== "/api/v1/chat/completions" || req.method !== "POST") {
        return sendJson(res, 404, {
          error: { message: "Not found", type: "invalid_request_error" },
        });
      }
      if (apiKey && req.headers.authorization !== `Bearer ${apiKey}`) {
        return sendJson(res, 401, {
          error: {
            message: "Incorrect API key provided",
            type: "invalid_request_error",
            code: "invalid_api_key",
          },
        });
      }
      if (!body?.model || !Array.isArray(body.messages)) {
        return sendJson(res, 400, {
          error: { message: "model and messages are required", type: "invalid_request_error" },
        });
      }
      const promptTokens = JSON.stringify(body.messages).length >> 2;
      // Transcriptions never take scripted answers (another test file's script stays its own).
      const audio = audioPart(body.messages);
      if (audio) {
        if (delayMs) await new Promise((r) => setTimeout(r, delayMs));
        return transcriptionAnswer(res, body.model, audio, promptTokens);
      }
      // A scripted answer with `when` is only for a request whose messages contain that text
      // (test files run in parallel against one fake).
      const sent = JSON.stringify(body.messages);
      const index = script.findIndex(scriptedFor(body, sent));
      const scripted = index === -1 ? undefined : script.splice(index, 1)[0];
      const wait = scripted?.delay_ms ?? delayMs;
      if (wait) await new Promise((r) => setTimeout(r, wait));
      if (scripted?.status) {
        return sendJson(res, scripted.status, {
          error: { message: scripted.error ?? "Fallo inyectado", type: "server_error" },
        });
      }
      if (scripted?.tool_calls) {
        return sendJson(res, 200, toolCallsAnswer(body.model, scripted.tool_calls, promptTokens));
      }
      if (scripted?.tool_call) {
        const { name, arguments: args } = scripted.tool_call;
        return sendJson(res, 200, toolCallAnswer(body.model, name, args, promptTokens));
      }
      if (scripted?.content !== undefined) {
        return sendJson(
          res,
          200,
          completion(body.model, { content: scripted.content }, "stop", promptTokens),
        );
      }
      const lastUser = contentText(
        [...body.messages].reverse().find((m) => m.role === "user")?.content,
      );
      const offers = (name) => (body.tools ?? []).some((t) => t.function?.name === name);
      if (offers("mark_lead") && BUYING_INTENT.test(lastUser)) {
        const args = { reason: "El cliente quiere comprar" };
        return sendJson(res, 200, toolCallAnswer(body.model, "mark_lead", args, promptTokens));
      }
      const lastUserAt = body.messages.findLastIndex((m) => m.role === "user");
      const actedSince = body.messages.slice(lastUserAt).some((m) => m.role === "tool");
      if (offers("send_booking_flow") && BOOKING_INTENT.test(lastUser) && !actedSince) {
        return sendJson(
          res,
          200,
          toolCallAnswer(body.model, "send_booking_flow", {}, promptTokens),
        );
      }
      if (offers("handoff_to_human") && ASKS_FOR_PERSON.test(lastUser)) {
        const args = { reason: "El cliente quiere hablar con una persona" };
        return sendJson(
          res,
          200,
          toolCallAnswer(body.model, "handoff_to_human", args, promptTokens),
        );
      }
      return sendJson(
        res,
        200,
        completion(
          body.model,
          { content: echoAnswer(body.model, body.messages, lastUser) },
          "stop",
          promptTokens,
        ),
      );
    },
    (res, failure) =>
      sendJson(
        res,
        failure.status,
        { error: { message: failure.error?.message ?? "Fallo inyectado", type: "server_error" } },
        failure.retry_after ? { "Retry-After": String(failure.retry_after) } : {},
      ),
    () => {
      script = [];
      delayMs = 0;
      transcriptionFailures = [];
    },
  );

  return {
    port: started.port,
    url: `http://127.0.0.1:${started.port}/api/v1`,
    requests: started.requests,
    close: started.close,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const i = process.argv.indexOf("--port");
  const model = await startFakeModel({
    port: Number(i > 0 ? process.argv[i + 1] : 8789),
    apiKey: "sandbox-key",
  });
  console.log(`Fake model on ${model.url}`);
}
