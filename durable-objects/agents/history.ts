/**
 * The conversation as an agent reads it: voice notes as their transcripts, the customer's
 * latest photos as image parts beside their captions. A voice note the agent is answering but
 * cannot read makes it hand the conversation to the team instead of guessing.
 */
import { and, desc, eq, ne } from "drizzle-orm";
import type { ContentPart } from "../ai/client";
import { IMAGE_MAX_BYTES, MediaUnreadable, readMessageMedia } from "../ai/media";
import { transcribeMessage } from "../ai/transcribe";
import type { MessageRow } from "../conversations/mappers";
import type { OrganizationDb } from "../db";
import { messages } from "../schema";
import type { StoreDeps } from "../../worker/http/deps";
import type { Turn } from "./replies";

/** Only the customer's latest photos go to the model as images: they weigh on every prompt. */
const IMAGES_IN_PROMPT = 2;

/** Messages an agent reads: the recent conversation. */
const HISTORY_LENGTH = 20;

export type AgentHistory = { turns: Turn[] } | { handoff: string };

/**
 * The conversation's recent messages, newest first, as `buildHistory` takes them. The team's
 * internal notes are never the AI's to read.
 */
export function recentMessages(db: OrganizationDb, conversationId: string) {
  return db
    .select()
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), ne(messages.direction, "internal")))
    .orderBy(desc(messages.createdAt), desc(messages.id))
    .limit(HISTORY_LENGTH);
}

/**
 * Builds the history from the recent messages (newest first, as read). Voice notes sent since
 * the business last wrote are transcribed first when still waiting, so the agent reads words.
 */
export async function buildHistory(
  deps: StoreDeps,
  organizationId: string,
  recent: MessageRow[],
): Promise<AgentHistory> {
  const chronological = recent.filter((m) => m.type !== "reaction").reverse();
  const answeredUpTo = chronological.findLastIndex((m) => m.direction === "outbound");
  for (let i = answeredUpTo + 1; i < chronological.length; i++) {
    const message = chronological[i]!;
    if (message.type !== "audio" || message.direction !== "inbound") continue;
    const current = await transcribeMessage(deps, organizationId, message.id);
    if (current) chronological[i] = current;
    if (current?.transcriptStatus !== "done") {
      const why = current?.transcriptError ? `: ${current.transcriptError}` : ".";
      return {
        handoff: `El cliente envió una nota de voz que la IA no pudo transcribir${why} Escúchala y respóndele.`,
      };
    }
  }

  const images = await latestImages(deps, organizationId, chronological);
  return {
    turns: chronological.map((m): Turn => {
      if (m.direction === "outbound") return { role: "assistant", content: m.content };
      return { role: "user", content: images.get(m.id) ?? customerText(m) };
    }),
  };
}

/** What a customer message says in words. */
function customerText(message: MessageRow) {
  if (message.type !== "audio") return message.content;
  return message.transcriptStatus === "done"
    ? `${message.content} (transcripción): ${message.transcript}`
    : `${message.content} (no se pudo transcribir)`;
}

/** The customer's last photos as parts (a note instead when one cannot be read), by message. */
async function latestImages(deps: StoreDeps, organizationId: string, chronological: MessageRow[]) {
  const photos = chronological
    .filter((m) => m.direction === "inbound" && m.type === "image" && m.mediaId)
    .slice(-IMAGES_IN_PROMPT);
  const parts = await Promise.all(
    photos.map(async (m): Promise<string | ContentPart[]> => {
      try {
        const file = await readMessageMedia(
          deps,
          organizationId,
          { id: m.mediaId!, mimeType: m.mediaMimeType },
          IMAGE_MAX_BYTES,
        );
        return [
          { type: "text", text: m.content },
          { type: "image_url", image_url: { url: `data:${file.mimeType};base64,${file.base64}` } },
        ];
      } catch (error) {
        if (!(error instanceof MediaUnreadable)) throw error;
        return `${m.content} (la imagen no se pudo ver: ${error.message})`;
      }
    }),
  );
  return new Map(photos.map((m, i) => [m.id, parts[i]!]));
}
