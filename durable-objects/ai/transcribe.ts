/**
 * Voice notes in words. An inbound audio is stored `pending`; the organization's hub (or a reply
 * that needs it first) fetches the file from Meta once, asks the transcription model with an
 * `input_audio` part and stores the transcript, or why there is none, on the message.
 */
import { and, eq, gt, isNull, lt, or } from "drizzle-orm";
import { toMessage, type MessageRow } from "../conversations/mappers";
import { messages } from "../schema";
import type { OrganizationDb } from "../db";
import type { Env } from "../../worker/env";
import type { StoreDeps } from "../../worker/http/deps";
import {
  aiCallLog,
  CONVERSATION_AI_LIMIT_REACHED,
  hasAiBudget,
  takeConversationAiCall,
} from "./budget";
import { complete, isAiConfigured, ModelError, type Completion } from "./client";
import { AUDIO_MAX_BYTES, MediaUnreadable, readMessageMedia } from "./media";

export const DEFAULT_TRANSCRIPTION_MODEL = "google/gemini-2.5-flash";

const INSTRUCTION =
  "Transcribe literalmente esta nota de voz, en el idioma en que se habla. Responde solo con la transcripción, sin comillas ni comentarios.";

/** `input_audio.format` from the file's MIME type (WhatsApp voice notes are audio/ogg). */
const FORMATS: Record<string, string> = {
  "audio/ogg": "ogg",
  "audio/opus": "ogg",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/mp4": "m4a",
  "audio/x-m4a": "m4a",
  "audio/aac": "aac",
  "audio/amr": "amr",
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/flac": "flac",
};

export function audioFormat(mimeType: string) {
  return FORMATS[mimeType] ?? (mimeType.split("/")[1] || "ogg");
}

/** The model's words for one audio file. */
export async function transcribeAudio(
  env: Env,
  audio: { base64: string; mimeType: string },
): Promise<Completion & { text: string }> {
  const completion = await complete(env, {
    model: transcriptionModel(env),
    temperature: 0,
    messages: [
      {
        role: "user",
        content: [
          { type: "text", text: INSTRUCTION },
          {
            type: "input_audio",
            input_audio: { data: audio.base64, format: audioFormat(audio.mimeType) },
          },
        ],
      },
    ],
  });
  return { ...completion, text: completion.content?.trim() ?? "" };
}

const transcriptionModel = (env: Env) => env.AI_TRANSCRIPTION_MODEL || DEFAULT_TRANSCRIPTION_MODEL;

/** Inbound audio still waiting for its words (null: stored before transcripts existed). */
const awaitsTranscript = or(
  eq(messages.transcriptStatus, "pending"),
  isNull(messages.transcriptStatus),
);

/** Whether a voice note as read is still waiting for its words (`awaitsTranscript`). */
export const awaitingTranscript = (row: MessageRow) =>
  row.transcriptStatus === "pending" || row.transcriptStatus === null;

/** Longer than a model call with its retries may take: a claim past it was abandoned. */
const CLAIM_LEASE_MS = 3 * 60_000;
/** How often a path that found the note taken looks for the other path's words. */
const CLAIM_POLL_MS = 500;

/**
 * Takes the note for this path before anything is paid for (Meta's file, the model): of the
 * hub, a reply and a draft reaching the same note at once, one transcribes it. Answers the
 * claimed row, or null when another path holds a live claim.
 */
async function claimNote(db: OrganizationDb, messageId: string, now: number) {
  const [claimed] = await db
    .update(messages)
    .set({ transcriptClaimedAt: now })
    .where(
      and(
        eq(messages.id, messageId),
        awaitsTranscript,
        or(
          isNull(messages.transcriptClaimedAt),
          lt(messages.transcriptClaimedAt, now - CLAIM_LEASE_MS),
        ),
      ),
    )
    .returning();
  return claimed ?? null;
}

/**
 * The note as the path holding it leaves it: a reply needs the words, not a second model
 * call. Still waiting at the lease's end, it is answered as it is (pending).
 */
async function transcriptOfOtherPath(db: OrganizationDb, messageId: string) {
  const deadline = Date.now() + CLAIM_LEASE_MS;
  for (;;) {
    const row = await db.query.messages.findFirst({ where: eq(messages.id, messageId) });
    if (!row || row.transcriptStatus !== "pending" || Date.now() >= deadline) return row ?? null;
    await new Promise((resolve) => setTimeout(resolve, CLAIM_POLL_MS));
  }
}

/**
 * Transcribes an inbound audio of the organization unless that is already done or failed, and
 * tells open consoles. Answers the message as it now is (null when it is not such an audio).
 * Never throws for Meta, the model, the size or the budget: the reason goes on the message.
 * A note another path holds is waited for up to its lease, unless `waitForOtherPath` is false
 * (the hub: its alarm runs every reply of the organization), which answers it still waiting.
 */
export async function transcribeMessage(
  deps: StoreDeps,
  organizationId: string,
  messageId: string,
  { waitForOtherPath = true } = {},
): Promise<MessageRow | null> {
  const { orgDb } = deps;
  const row = await orgDb.query.messages.findFirst({
    where: and(
      eq(messages.id, messageId),
      eq(messages.organizationId, organizationId),
      eq(messages.type, "audio"),
      eq(messages.direction, "inbound"),
    ),
  });
  if (!row || row.transcriptStatus === "done" || row.transcriptStatus === "failed")
    return row ?? null;

  const claimed = await claimNote(orgDb, row.id, Date.now());
  if (!claimed && waitForOtherPath) return transcriptOfOtherPath(orgDb, row.id);
  if (!claimed)
    return (await orgDb.query.messages.findFirst({ where: eq(messages.id, row.id) })) ?? null;
  const outcome = await attempt(deps, claimed);
  // Written only under this path's claim: one that outlived its lease was taken over.
  const [stored] = await orgDb
    .update(messages)
    .set(
      "text" in outcome
        ? {
            transcript: outcome.text,
            transcriptStatus: "done",
            transcriptError: null,
            transcriptClaimedAt: null,
          }
        : { transcriptStatus: "failed", transcriptError: outcome.error, transcriptClaimedAt: null },
    )
    .where(
      and(
        eq(messages.id, row.id),
        awaitsTranscript,
        eq(messages.transcriptClaimedAt, claimed.transcriptClaimedAt!),
      ),
    )
    .returning();
  if (!stored)
    return (await orgDb.query.messages.findFirst({ where: eq(messages.id, row.id) })) ?? null;
  await deps.publish({ type: "message_status", data: { message: toMessage(stored) } });
  return stored;
}

async function attempt(
  deps: StoreDeps,
  row: MessageRow,
): Promise<{ text: string } | { error: string }> {
  const { orgDb, env } = deps;
  if (!isAiConfigured(env)) {
    return { error: "La IA no está configurada (falta AI_API_KEY): no se pudo transcribir." };
  }
  if (!row.mediaId) return { error: "El mensaje no trae el archivo de audio." };
  if (!(await hasAiBudget(deps, row.organizationId))) {
    return { error: "La organización agotó su presupuesto mensual de IA." };
  }
  if (!(await takeConversationAiCall(orgDb, row.organizationId, row.conversationId))) {
    return { error: CONVERSATION_AI_LIMIT_REACHED };
  }
  let audio;
  try {
    audio = await readMessageMedia(
      deps,
      row.organizationId,
      { id: row.mediaId, mimeType: row.mediaMimeType },
      AUDIO_MAX_BYTES,
    );
  } catch (error) {
    if (error instanceof MediaUnreadable) return { error: error.message };
    throw error;
  }
  const log = aiCallLog(orgDb, {
    organizationId: row.organizationId,
    conversationId: row.conversationId,
    model: transcriptionModel(env),
  });
  try {
    const answer = await transcribeAudio(env, audio);
    await log.answered(answer.text ? "transcribed" : "failed", answer);
    return answer.text
      ? { text: answer.text }
      : { error: "La IA no devolvió ninguna transcripción." };
  } catch (error) {
    if (!(error instanceof ModelError)) throw error;
    await log.failed(error.message);
    return { error: error.message };
  }
}

/** How long a voice note may wait `pending` before the sweep hands it to its hub again. */
export const STUCK_TRANSCRIPT_MS = 10 * 60_000;
/** Older pending notes are left alone: they are not worth a model call a day later. */
const SWEPT_WINDOW_MS = 24 * 60 * 60_000;
const SWEEP_LIMIT = 500;

/**
 * The store's sweep (its `transcripts` job): a voice note still `pending` ten minutes after it
 * arrived (its transcription was abandoned) is queued again, transcribed and told to the
 * consoles, so no note stays "Transcribiendo…" for good. Answers how many.
 */
export async function resumeStuckTranscripts({ orgDb, scheduleTranscripts }: StoreDeps, now: Date) {
  const stuck = await orgDb
    .select({ id: messages.id })
    .from(messages)
    .where(
      and(
        eq(messages.transcriptStatus, "pending"),
        lt(messages.createdAt, new Date(now.getTime() - STUCK_TRANSCRIPT_MS).toISOString()),
        gt(messages.createdAt, new Date(now.getTime() - SWEPT_WINDOW_MS).toISOString()),
      ),
    )
    .orderBy(messages.createdAt)
    .limit(SWEEP_LIMIT);
  if (stuck.length > 0) await scheduleTranscripts(stuck.map((row) => row.id));
  return stuck.length;
}
