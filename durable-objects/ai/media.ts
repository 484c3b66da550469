/**
 * A customer's file read whole for the model (a voice note to transcribe, a photo to look at),
 * through the organization's own Graph client: the media URL, then the bytes with its token.
 */
import type { StoreDeps } from "../../worker/http/deps";
import { connectedSender } from "../whatsapp/connection-service";
import { GraphError } from "../meta/errors";

/** Meta's own caps for what a customer can send: audio 16 MB, images 5 MB. */
export const AUDIO_MAX_BYTES = 16 * 1024 * 1024;
export const IMAGE_MAX_BYTES = 5 * 1024 * 1024;

/** The file could not be read; the message (in Spanish) says why, for the team. */
export class MediaUnreadable extends Error {}

export interface MediaFile {
  base64: string;
  mimeType: string;
}

const tooLarge = (maxBytes: number) =>
  new MediaUnreadable(
    `El archivo supera el máximo de ${Math.round(maxBytes / 1024 / 1024)} MB que lee la IA.`,
  );

/** Downloads a message's file, refused past `maxBytes` (by Meta's stated size, then while reading). */
export async function readMessageMedia(
  deps: StoreDeps,
  organizationId: string,
  media: { id: string; mimeType: string | null },
  maxBytes: number,
): Promise<MediaFile> {
  const sender = await connectedSender(deps, organizationId);
  if (!sender) {
    throw new MediaUnreadable(
      "El número de WhatsApp no está conectado: no se pudo leer el archivo.",
    );
  }
  try {
    const info = await sender.graph.getMedia(media.id);
    if ((info.file_size ?? 0) > maxBytes) throw tooLarge(maxBytes);
    const download = await sender.graph.downloadMedia(info.url);
    const bytes = await readAtMost(download.body!, maxBytes);
    if (!bytes) throw tooLarge(maxBytes);
    const mimeType = media.mimeType ?? info.mime_type ?? download.headers.get("Content-Type") ?? "";
    return { base64: toBase64(bytes), mimeType: mimeType.split(";")[0]!.trim() };
  } catch (error) {
    if (error instanceof GraphError) {
      throw new MediaUnreadable(`No se pudo descargar el archivo de Meta. ${error.message}`);
    }
    throw error;
  }
}

/** The whole stream, or null as soon as it passes `maxBytes` (the rest is not read). */
async function readAtMost(body: ReadableStream<Uint8Array>, maxBytes: number) {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** Base64 in slices: spreading megabytes into one `fromCharCode` call overflows the stack. */
function toBase64(bytes: Uint8Array) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(binary);
}
