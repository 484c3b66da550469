// Voice notes and photos the agent understands (issue 18): transcripts stored, searchable and
// read by the agent; images reaching the model; every failure kept on the message with a
// handoff instead of a guess.
import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { CONVERSATION_AI_LIMIT_REACHED } from "../../durable-objects/ai/budget";
import { transcribeMessage } from "../../durable-objects/ai/transcribe";
import { delivery, inboundMessage } from "../fakes/whatsapp-payloads.mjs";
import { connectWhatsapp, seedMessage, spendConversationAiCalls } from "../support/db";
import { createAgent, createConversation, createOwner } from "../support/factories";
import { answer, api } from "../support/api";
import { orgFirst, orgSql, withStoreDeps } from "../support/org-data";
import { botMessages, runDueReplies } from "../support/replies";
import { connect } from "../support/sockets";
import { customerPhone, deliver, failNext, modelRequests } from "../support/webhooks";
import { organizationStore } from "../../worker/stores/registry";
import { workOf } from "../support/scheduled-work";

/** Words unique to one test: the fakes are shared by every test file running in parallel. */
const unique = (words: string) => `${words} ${crypto.randomUUID().slice(0, 8)}`;
const base64 = (text: string) => btoa(String.fromCharCode(...new TextEncoder().encode(text)));
/** A 1×1 PNG, sent as a JPEG customer photo would be. */
const PHOTO =
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";

const fakeControl = (base: string, path: string, body: unknown) =>
  fetch(`${new URL(base).origin}/__fake/${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  }).then((r) => r.json() as Promise<any>);

/** A file the fake Meta holds as if the customer had sent it; answers its media id. */
async function holdMedia(file: {
  text?: string;
  base64?: string;
  mime_type: string;
  file_size?: number;
}) {
  return (await fakeControl(env.META_GRAPH_URL, "media", file)).id as string;
}

/** An organization whose number answers with an active AI agent by default. */
async function setup() {
  const owner = await createOwner({ name: "Tienda Azul" });
  const agent = await createAgent(owner, { system_prompt: "Eres la dependienta de la tienda." });
  const { phoneNumberId } = await connectWhatsapp(owner.organization.id, {
    defaultAgentId: agent.id,
  });
  const hub = await organizationStore(env, owner.organization.id);
  return { owner, agent, phoneNumberId, hub };
}

type Setup = Awaited<ReturnType<typeof setup>>;

/** The customer sends a voice note (WhatsApp's ogg/opus) whose audio "says" `words`. */
async function sendVoiceNote(
  { phoneNumberId }: Setup,
  from: string,
  words: string,
  file: { file_size?: number } = {},
) {
  const id = await holdMedia({ text: words, mime_type: "audio/ogg", ...file });
  const part = { id, mime_type: "audio/ogg; codecs=opus", sha256: "0", voice: true };
  await deliver(delivery(inboundMessage({ phoneNumberId, from, type: "audio", part })));
  return id;
}

async function sendPhoto({ phoneNumberId }: Setup, from: string, caption?: string) {
  const id = await holdMedia({ base64: PHOTO, mime_type: "image/jpeg" });
  const part = { id, mime_type: "image/jpeg", sha256: "0", caption };
  await deliver(delivery(inboundMessage({ phoneNumberId, from, type: "image", part })));
  return id;
}

async function conversationOf(organizationId: string, phone: string) {
  return (await orgFirst<Record<string, any>>(
    organizationId,
    "SELECT * FROM conversations WHERE organization_id = ? AND phone_number = ?",
    organizationId,
    phone,
  ))!;
}

async function messagesOf(token: string, conversationId: string) {
  const res = await answer(
    api(token).conversations[":id"].messages.$get({ param: { id: conversationId }, query: {} }),
  );
  expect(res.status).toBe(200);
  return res.body.data.messages as Record<string, any>[];
}

/** A voice note the model could not transcribe: unavailable on every attempt its client makes. */
async function failedVoiceNote(org: Setup, from: string, words: string) {
  await fakeControl(env.AI_BASE_URL, "transcription-failure", {
    contains: words,
    status: 503,
    times: 3,
  });
  await sendVoiceNote(org, from, words);
  await runDurableObjectAlarm(org.hub);
  const conversation = await conversationOf(org.owner.organization.id, from);
  const [note] = await messagesOf(org.owner.token, conversation.id);
  return { conversation, note: note! };
}

/** The model requests that carried this text anywhere (a prompt, or the audio's bytes). */
async function modelRequestsWith(text: string) {
  return (await modelRequests()).filter((r) => {
    const sent = JSON.stringify(r.body.messages);
    return sent.includes(text) || sent.includes(base64(text));
  });
}

const isTranscription = (request: any) =>
  JSON.stringify(request.body.messages).includes('"input_audio"');

describe("voice notes", () => {
  it("stores the transcript, tells open consoles, finds it in the inbox search and has the agent read it", async () => {
    const org = await setup();
    const { owner, hub } = org;
    const from = customerPhone();
    const words = unique("Quería reservar una limpieza dental el jueves");
    const socket = await connect(owner.token);
    await sendVoiceNote(org, from, words);

    const conversation = await conversationOf(owner.organization.id, from);
    const [stored] = await messagesOf(owner.token, conversation.id);
    expect(stored).toMatchObject({
      type: "audio",
      content: "🎤 Nota de voz",
      transcript: null,
      transcript_status: "pending",
    });

    // The hub's alarm transcribes at once (the reply waits for its coalescing delay).
    await runDurableObjectAlarm(hub);
    const [transcribed] = await messagesOf(owner.token, conversation.id);
    expect(transcribed).toMatchObject({
      id: stored!.id,
      content: "🎤 Nota de voz",
      transcript: words,
      transcript_status: "done",
      transcript_error: null,
    });
    const event = await socket.receive(
      (e) => e.type === "message_status" && e.data.message.id === stored!.id,
    );
    expect(event.data.message).toMatchObject({ transcript: words, transcript_status: "done" });

    // The transcription: the file fetched from Meta, as an input_audio part, to the configured model.
    const [transcription, ...again] = await modelRequestsWith(words);
    expect(again).toEqual([]);
    expect(transcription.body).toMatchObject({ model: "google/gemini-2.5-flash", temperature: 0 });
    expect(transcription.body.max_tokens).toBeGreaterThan(0);
    const parts = transcription.body.messages[0].content;
    expect(parts[0].text).toMatch(/^Transcribe literalmente/);
    expect(parts[1]).toEqual({
      type: "input_audio",
      input_audio: { data: base64(words), format: "ogg" },
    });
    const calls = await orgSql(
      owner.organization.id,
      "SELECT outcome, prompt_tokens FROM ai_calls WHERE conversation_id = ?",
      conversation.id,
    );
    expect(calls).toEqual([{ outcome: "transcribed", prompt_tokens: expect.any(Number) }]);
    const usage = await orgFirst<{ tokens_used: number }>(
      owner.organization.id,
      "SELECT tokens_used FROM ai_usage WHERE organization_id = ?",
      owner.organization.id,
    );
    expect(usage!.tokens_used).toBeGreaterThan(0);

    // The inbox search finds what the customer said.
    const search = await answer(
      api(owner.token).conversations.$get({ query: { search: words.slice(-20) } }),
    );
    expect(search.body.data.conversations.map((c: { id: string }) => c.id)).toEqual([
      conversation.id,
    ]);

    // The agent reads the words, not the placeholder, and answers.
    await runDueReplies(hub);
    const prompt = (await modelRequestsWith(words)).find((r) => !isTranscription(r));
    expect(prompt.body.messages.at(-1)).toEqual({
      role: "user",
      content: `🎤 Nota de voz (transcripción): ${words}`,
    });
    expect(
      (await botMessages(owner.organization.id, conversation.id)).map((m) => m.content),
    ).toEqual([
      `Respuesta de prueba (google/gemini-2.5-flash): 🎤 Nota de voz (transcripción): ${words}`,
    ]);
    socket.socket.close();
  });

  it("transcribes a voice note the hub never got to before replying to it", async () => {
    const org = await setup();
    const from = customerPhone();
    const words = unique("¿Tenéis hueco esta tarde?");
    await sendVoiceNote(org, from, words);
    // The transcription job is lost (as if scheduling it had failed): only the reply is due.
    await runInDurableObject(org.hub, (_instance, state) => {
      state.storage.sql.exec("DELETE FROM scheduled_work WHERE kind = 'transcript'");
    });
    await runDueReplies(org.hub);

    const conversation = await conversationOf(org.owner.organization.id, from);
    const [note] = await messagesOf(org.owner.token, conversation.id);
    expect(note).toMatchObject({ transcript: words, transcript_status: "done" });
    const requests = await modelRequestsWith(words);
    expect(requests.map(isTranscription)).toEqual([true, false]);
    expect(await botMessages(org.owner.organization.id, conversation.id)).toHaveLength(1);
  });

  it("keeps the message and says why when the model fails, and hands off without answering", async () => {
    const org = await setup();
    const from = customerPhone();
    const words = unique("No me llega el pedido");
    const { conversation, note } = await failedVoiceNote(org, from, words);
    expect(note).toMatchObject({
      content: "🎤 Nota de voz",
      media: { id: expect.any(String) },
      transcript: null,
      transcript_status: "failed",
      transcript_error: "El proveedor de IA no está disponible en este momento.",
    });
    const failed = await orgSql(
      org.owner.organization.id,
      "SELECT outcome, error FROM ai_calls WHERE conversation_id = ?",
      conversation.id,
    );
    expect(failed).toEqual([
      { outcome: "failed", error: "El proveedor de IA no está disponible en este momento." },
    ]);

    const socket = await connect(org.owner.token);
    await runDueReplies(org.hub);
    const handoff = await socket.receive(
      (e) => e.type === "conversation_update" && e.data.conversation.id === conversation.id,
    );
    expect(handoff.data.handoff.reason).toBe(
      "El cliente envió una nota de voz que la IA no pudo transcribir: El proveedor de IA no está disponible en este momento. Escúchala y respóndele.",
    );
    expect(await conversationOf(org.owner.organization.id, from)).toMatchObject({
      status: "pending",
      priority: "high",
    });
    expect(await botMessages(org.owner.organization.id, conversation.id)).toEqual([]);
    // Three transcription attempts, and no question to the agent's model.
    expect((await modelRequestsWith(words)).map(isTranscription)).toEqual([true, true, true]);
    socket.socket.close();
  });

  it("transcribes a failed note again when a member asks: once, only a failed one, only in their organization", async () => {
    const org = await setup();
    const from = customerPhone();
    const words = unique("Quiero cambiar la cita del martes");
    const { conversation, note } = await failedVoiceNote(org, from, words);
    expect(note).toMatchObject({ transcript_status: "failed" });
    const transcribe = (token: string) =>
      answer(
        api(token).conversations[":id"].messages[":messageId"].transcript.$post({
          param: { id: conversation.id, messageId: note.id },
        }),
      );

    // Another organization's member cannot reach it, and it stays failed.
    const stranger = await createOwner({ name: "Otra Tienda" });
    expect((await transcribe(stranger.token)).status).toBe(404);

    const socket = await connect(org.owner.token);
    const retried = await transcribe(org.owner.token);
    expect(retried.status).toBe(202);
    expect(retried.body.data).toMatchObject({
      id: note.id,
      transcript_status: "pending",
      transcript_error: null,
    });
    const pending = await socket.receive(
      (e) => e.type === "message_status" && e.data.message.id === note.id,
    );
    expect(pending.data.message.transcript_status).toBe("pending");
    // A second press while it is on its way changes nothing.
    const again = await transcribe(org.owner.token);
    expect(again.status).toBe(409);
    expect(again.body.error).toBe("transcript_not_failed");

    // The hub transcribes it as it does new notes; the consoles hear the words.
    await vi.waitFor(async () => {
      await runDurableObjectAlarm(org.hub);
      const [transcribed] = await messagesOf(org.owner.token, conversation.id);
      expect(transcribed).toMatchObject({ transcript: words, transcript_status: "done" });
    });
    const done = await socket.receive(
      (e) => e.type === "message_status" && e.data.message.transcript_status === "done",
    );
    expect(done.data.message).toMatchObject({ id: note.id, transcript: words });
    // A transcribed note is not transcribed again.
    expect((await transcribe(org.owner.token)).status).toBe(409);
    expect((await modelRequestsWith(words)).filter(isTranscription)).toHaveLength(4);
    socket.socket.close();
  });

  /** Two voice notes stored pending (as ingest stores them), eleven and one minute ago. */
  async function stuckNotes(org: Setup) {
    const conversation = await createConversation(org.owner);
    const oldWords = unique("Llamadme mañana por la tarde");
    const newWords = unique("Y confirmadme la hora");
    const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    const note = async (words: string, minutes: number) =>
      seedMessage(org.owner.organization.id, conversation.id, {
        type: "audio",
        content: "🎤 Nota de voz",
        mediaId: await holdMedia({ text: words, mime_type: "audio/ogg" }),
        mediaMimeType: "audio/ogg",
        transcriptStatus: "pending",
        at: ago(minutes),
      });
    const old = await note(oldWords, 11);
    const recent = await note(newWords, 1);
    const queued = (id: string) => workOf(org.hub, `transcript:${id}`);
    const transcribed = async () => {
      await runDurableObjectAlarm(org.hub);
      const [oldNow, recentNow] = await messagesOf(org.owner.token, conversation.id);
      expect(oldNow).toMatchObject({ transcript: oldWords, transcript_status: "done" });
      expect(recentNow).toMatchObject({ transcript: null, transcript_status: "pending" });
    };
    return { old, recent, queued, transcribed };
  }

  it("takes a store's abandoned note again from its own sweep", async () => {
    const org = await setup();
    const { old, recent, queued, transcribed } = await stuckNotes(org);
    expect(await queued(old.id)).toBeUndefined();
    // What the alarm schedules when a transcription is abandoned.
    const organizationId = org.owner.organization.id;
    await (
      await organizationStore(env, organizationId)
    ).scheduleJob(organizationId, "transcripts", Date.now());
    await runDurableObjectAlarm(org.hub);
    expect(await queued(recent.id)).toBeUndefined();
    await transcribed();
  });

  it("hands off only for notes not yet answered: an old unreadable one stays a line in the history", async () => {
    const org = await setup();
    const from = customerPhone();
    const words = unique("Nota que nadie pudo oír");
    await fakeControl(env.AI_BASE_URL, "transcription-failure", { contains: words, status: 400 });
    await sendVoiceNote(org, from, words);
    await runDurableObjectAlarm(org.hub);
    await runDueReplies(org.hub);
    const conversation = await conversationOf(org.owner.organization.id, from);
    expect(conversation.status).toBe("pending");

    // A person answers and gives the conversation back to the agent; the customer writes.
    const token = org.owner.token;
    const sent = await answer(
      api(token).conversations.messages.$post({
        json: { conversation_id: conversation.id, content: "Perdona, no pudimos oír el audio" },
      }),
    );
    expect(sent.status).toBe(201);
    await answer(
      api(token).conversations[":id"].$patch({
        param: { id: conversation.id },
        json: { status: "assigned" },
      }),
    );
    const question = unique("¿Me lo escribes entonces?");
    // Meta's timestamps have whole seconds: this one is clearly after the person's answer.
    const timestamp = String(Math.floor(Date.now() / 1000) + 2);
    await deliver(
      delivery(
        inboundMessage({ phoneNumberId: org.phoneNumberId, from, text: question, timestamp }),
      ),
    );
    await runDueReplies(org.hub);

    const [prompt] = await modelRequestsWith(question);
    expect(prompt.body.messages.slice(1)).toEqual([
      { role: "user", content: "🎤 Nota de voz (no se pudo transcribir)" },
      { role: "assistant", content: "Perdona, no pudimos oír el audio" },
      { role: "user", content: question },
    ]);
    expect(await botMessages(org.owner.organization.id, conversation.id)).toHaveLength(1);
  });

  it("records Meta's refusal to hand over the file, and hands off", async () => {
    const org = await setup();
    const from = customerPhone();
    const words = unique("Mira lo que te digo");
    const mediaId = await holdMedia({ text: words, mime_type: "audio/ogg" });
    await failNext("graph", {
      path: `/v25.0/${mediaId}`,
      status: 400,
      error: { message: "Media not found", code: 131052 },
    });
    const part = { id: mediaId, mime_type: "audio/ogg", voice: true };
    await deliver(
      delivery(inboundMessage({ phoneNumberId: org.phoneNumberId, from, type: "audio", part })),
    );
    await runDurableObjectAlarm(org.hub);
    await runDueReplies(org.hub);

    const conversation = await conversationOf(org.owner.organization.id, from);
    const [note] = await messagesOf(org.owner.token, conversation.id);
    expect(note).toMatchObject({
      transcript_status: "failed",
      transcript_error:
        "No se pudo descargar el archivo de Meta. No se pudo descargar el archivo del cliente.",
    });
    expect(conversation.status).toBe("pending");
    expect(await botMessages(org.owner.organization.id, conversation.id)).toEqual([]);
    expect(await modelRequestsWith(words)).toEqual([]);
  });

  it("does not send a file past the size cap to the model", async () => {
    const org = await setup();
    const from = customerPhone();
    const words = unique("Un audio larguísimo");
    await sendVoiceNote(org, from, words, { file_size: 17 * 1024 * 1024 });
    await runDurableObjectAlarm(org.hub);

    const conversation = await conversationOf(org.owner.organization.id, from);
    const [note] = await messagesOf(org.owner.token, conversation.id);
    expect(note).toMatchObject({
      transcript_status: "failed",
      transcript_error: "El archivo supera el máximo de 16 MB que lee la IA.",
    });
    expect(await modelRequestsWith(words)).toEqual([]);
  });

  it("makes no model call once the organization's monthly budget is spent", async () => {
    const org = await setup();
    await env.DB.prepare("UPDATE organizations SET ai_monthly_token_budget = 0 WHERE id = ?")
      .bind(org.owner.organization.id)
      .run();
    const from = customerPhone();
    const words = unique("Sin presupuesto");
    await sendVoiceNote(org, from, words);
    await runDurableObjectAlarm(org.hub);

    const conversation = await conversationOf(org.owner.organization.id, from);
    const [note] = await messagesOf(org.owner.token, conversation.id);
    expect(note).toMatchObject({
      transcript_status: "failed",
      transcript_error: "La organización agotó su presupuesto mensual de IA.",
    });
    expect(await modelRequestsWith(words)).toEqual([]);
  });

  it("transcribes a note once when two paths reach it together", async () => {
    const org = await setup();
    const from = customerPhone();
    const words = unique("Llegan dos a la vez");
    await sendVoiceNote(org, from, words);
    const conversation = await conversationOf(org.owner.organization.id, from);
    const [note] = await messagesOf(org.owner.token, conversation.id);

    // The hub and a reply (or a draft) reach the note at the same moment.
    const organizationId = org.owner.organization.id;
    const both = await withStoreDeps(organizationId, (deps) => {
      return Promise.all([
        transcribeMessage(deps, organizationId, note!.id),
        transcribeMessage(deps, organizationId, note!.id),
      ]);
    });
    for (const row of both)
      expect(row).toMatchObject({ transcript: words, transcriptStatus: "done" });
    expect((await modelRequestsWith(words)).filter(isTranscription)).toHaveLength(1);
  });

  it("answers other conversations while a voice note is being transcribed elsewhere", async () => {
    const org = await setup();
    const organizationId = org.owner.organization.id;
    const [held, other] = [customerPhone(), customerPhone()];
    const text = (from: string, words: string) =>
      deliver(delivery(inboundMessage({ phoneNumberId: org.phoneNumberId, from, text: words })));
    await text(held, "Hola");
    const heldConversation = await conversationOf(organizationId, held);
    // Then a voice note that another path (a member's draft) holds: its words are not there yet.
    const words = unique("Te mando la dirección por audio");
    const note = await seedMessage(organizationId, heldConversation.id, {
      type: "audio",
      content: "🎤 Nota de voz",
      mediaId: await holdMedia({ text: words, mime_type: "audio/ogg" }),
      mediaMimeType: "audio/ogg",
      transcriptStatus: "pending",
      transcriptClaimedAt: Date.now(),
    });
    // The hub has it queued too: that path's to finish, not the hub's to wait for.
    await org.hub.scheduleTranscripts(organizationId, [note.id]);
    const question = unique("¿Abrís el sábado?");
    await text(other, question);

    await runDueReplies(org.hub);
    const otherConversation = await conversationOf(organizationId, other);
    expect((await botMessages(organizationId, otherConversation.id)).map((m) => m.content)).toEqual(
      [`Respuesta de prueba (google/gemini-2.5-flash): ${question}`],
    );
    // The note's conversation is neither answered nor handed off (that would make it pending):
    // its reply waits in the hub.
    expect(await botMessages(organizationId, heldConversation.id)).toEqual([]);
    expect((await conversationOf(organizationId, held)).status).not.toBe("pending");
    const waiting = await workOf(org.hub, `reply:${heldConversation.id}`);
    expect(waiting).toBeDefined();

    // The other path stores the words: the reply reads them.
    await orgSql(
      organizationId,
      "UPDATE messages SET transcript = ?, transcript_status = 'done', transcript_claimed_at = NULL WHERE id = ?",
      words,
      note.id,
    );
    await runDueReplies(org.hub);
    expect((await botMessages(organizationId, heldConversation.id)).map((m) => m.content)).toEqual([
      `Respuesta de prueba (google/gemini-2.5-flash): 🎤 Nota de voz (transcripción): ${words}`,
    ]);
    expect((await modelRequestsWith(words)).filter(isTranscription)).toEqual([]);
  });

  it("sends no note to the model past the conversation's calls for the hour, and says why", async () => {
    const org = await setup();
    const from = customerPhone();
    await deliver(
      delivery(inboundMessage({ phoneNumberId: org.phoneNumberId, from, text: "Hola" })),
    );
    const conversation = await conversationOf(org.owner.organization.id, from);
    await spendConversationAiCalls(org.owner.organization.id, conversation.id);
    const words = unique("Una nota más de las que caben");
    await sendVoiceNote(org, from, words);
    await runDurableObjectAlarm(org.hub);

    const notes = (await messagesOf(org.owner.token, conversation.id)).filter(
      (m) => m.type === "audio",
    );
    expect(notes).toEqual([
      expect.objectContaining({
        transcript_status: "failed",
        transcript_error: CONVERSATION_AI_LIMIT_REACHED,
      }),
    ]);
    expect(await modelRequestsWith(words)).toEqual([]);
  });

  it("keeps a transcript inside its organization", async () => {
    const org = await setup();
    const other = await createOwner();
    const from = customerPhone();
    const words = unique("Mi dirección es calle Olmo");
    await sendVoiceNote(org, from, words);
    const conversation = await conversationOf(org.owner.organization.id, from);
    const [note] = await messagesOf(org.owner.token, conversation.id);

    // Another organization's background work cannot transcribe or read it.
    const byOther = await withStoreDeps(other.organization.id, (storeDeps) =>
      transcribeMessage(storeDeps, other.organization.id, note!.id),
    );
    expect(byOther).toBeNull();
    expect(await modelRequestsWith(words)).toEqual([]);

    await runDurableObjectAlarm(org.hub);
    const search = await answer(
      api(other.token).conversations.$get({
        query: { search: words.slice(-20) },
      }),
    );
    expect(search.body.data.conversations).toEqual([]);
    const foreign = await answer(
      api(other.token).conversations[":id"].messages.$get({
        param: { id: conversation.id },
        query: {},
      }),
    );
    expect(foreign.status).toBe(404);
  });
});

describe("photos", () => {
  it("show the agent the customer's latest photos beside their captions", async () => {
    const org = await setup();
    const from = customerPhone();
    const question = unique("¿Tenéis esto en azul?");
    await sendPhoto(org, from, "La primera");
    await sendPhoto(org, from);
    await sendPhoto(org, from, question);
    await runDueReplies(org.hub);

    const [prompt] = await modelRequestsWith(question);
    const customerTurns = prompt.body.messages.filter((m: any) => m.role === "user");
    // The oldest photo stays a caption: only the last two go as images.
    expect(customerTurns[0].content).toBe("La primera");
    const dataUrl = `data:image/jpeg;base64,${PHOTO}`;
    expect(customerTurns[1].content).toEqual([
      { type: "text", text: "📷 Imagen" },
      { type: "image_url", image_url: { url: dataUrl } },
    ]);
    expect(customerTurns[2].content).toEqual([
      { type: "text", text: question },
      { type: "image_url", image_url: { url: dataUrl } },
    ]);
    const conversation = await conversationOf(org.owner.organization.id, from);
    expect(
      (await botMessages(org.owner.organization.id, conversation.id)).map((m) => m.content),
    ).toEqual([
      `Respuesta de prueba (google/gemini-2.5-flash): ${question} (imagen recibida: image/jpeg)`,
    ]);
  });

  it("that cannot be fetched become a note in the history, and the agent still answers", async () => {
    const org = await setup();
    const from = customerPhone();
    const question = unique("¿Cuánto cuesta este?");
    const mediaId = await holdMedia({ base64: PHOTO, mime_type: "image/jpeg" });
    await failNext("graph", {
      path: `/v25.0/${mediaId}`,
      status: 400,
      error: { message: "Media not found", code: 131052 },
    });
    const part = { id: mediaId, mime_type: "image/jpeg", caption: question };
    await deliver(
      delivery(inboundMessage({ phoneNumberId: org.phoneNumberId, from, type: "image", part })),
    );
    await runDueReplies(org.hub);

    const [prompt] = await modelRequestsWith(question);
    expect(prompt.body.messages.at(-1)).toEqual({
      role: "user",
      content: `${question} (la imagen no se pudo ver: No se pudo descargar el archivo de Meta. No se pudo descargar el archivo del cliente.)`,
    });
    const conversation = await conversationOf(org.owner.organization.id, from);
    expect(await botMessages(org.owner.organization.id, conversation.id)).toHaveLength(1);
  });
});
